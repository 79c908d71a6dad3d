"""Round control's device board (rendered by tournaments' ``rounds.html``, which must not
import scoring: a template may load any app's tags).

The board is the tables app's (:func:`tables.devices.board`: the phones seen, their
refusals and resends); the hands stored are this app's, so the tag lives here and hands
the board its hands (:func:`stored_hands`), the tables app standing below scoring."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django import template

from tables import devices
from tournaments.models import Tournament

from ..models import Hand

register = template.Library()


def stored_hands(match_ids: list[int]) -> Iterable[tuple[int, int, str, datetime.datetime]]:
    """The hands of ``match_ids``, oldest first in each match, as the device board reads
    them (:data:`tables.devices.StoredHands`): one query."""
    hands = Hand.objects.filter(match_id__in=match_ids).order_by("match_id", "number")
    return hands.values_list("match_id", "number", "device", "entered_at")


@register.inclusion_tag("scoring/partials/device_board.html")
def device_board(tournament: Tournament) -> dict[str, Any]:
    """Per table in play: its phones, last hand, refusals and resends, and what to check."""
    return {
        "tables": devices.board(tournament, stored_hands),
        "seen_minutes": devices.SEEN_MINUTES,
        "silent_minutes": devices.SILENT_MINUTES,
    }
