"""Tournaments this site keeps a copy of, whose rows are another site's: a mirror of a
venue's tournament at the club's server (issue 43). Writes from a tournament's own URLs are
refused above (``publishing.mirrors``); a write from elsewhere that would reach one of its
rows (a registry edit of one of its players, say) asks here first. :mod:`publishing`,
which stands above every app that writes, registers its finder when it starts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import Player, Tournament

Finder = Callable[[list[int]], dict[int, str]]
"""Of the tournaments with these ids, those kept elsewhere, each with the name of the
place that keeps it (a venue's name; "" when it gave none)."""

FINDERS: list[Finder] = []

KEPT_FIELDS = ("name", "club_id", "email")
"""What a mirror shows of a player, or finds them by when its venue sends its next change
(:func:`archive.restore.registry_players`): not changed here for a player in one."""


def register(finder: Finder) -> None:
    if finder not in FINDERS:
        FINDERS.append(finder)


def kept_elsewhere(tournament_ids: Iterable[int]) -> dict[int, str]:
    """Of these tournaments, those kept elsewhere (none at a venue: no query there)."""
    ids = list(tournament_ids)
    found: dict[int, str] = {}
    for finder in FINDERS if ids else ():
        found.update(finder(ids))
    return found


def tournaments_of(player: Player) -> list[Tournament]:
    """Every tournament ``player`` is entered in, alone or in a team."""
    return list(
        Tournament.objects.filter(Q(entries__player=player) | Q(team_members__player=player))
        .distinct()
        .order_by("date", "pk")
    )


def refuse_in_mirrors(name: str, tournaments: list[Tournament], *, changed: Any) -> set[int]:
    """Which of the player's ``tournaments`` are mirrors (:mod:`tournaments.kept_elsewhere`);
    refused (ValidationError) when ``changed`` names one of :data:`KEPT_FIELDS` and there
    is one. A mirror's players are registry rows here, but what it shows of them and finds
    them by is its venue's: changed here, the mirror would no longer be the venue's, and
    the venue's next change would not find its player."""
    venues = kept_elsewhere(t.pk for t in tournaments)
    mirrors = [t for t in tournaments if t.pk in venues]
    if not mirrors or not any(field in KEPT_FIELDS for field in changed):
        return set(venues)
    values = {"player": name, "tournament": mirrors[0].name, "venue": venues[mirrors[0].pk]}
    if values["venue"]:
        message = _(
            "%(player)s plays in “%(tournament)s”, which the venue “%(venue)s” publishes "
            "here: the name, club id and email it knows them by cannot be changed here."
        )
    else:
        message = _(
            "%(player)s plays in “%(tournament)s”, which its venue publishes here: the "
            "name, club id and email it knows them by cannot be changed here."
        )
    raise ValidationError(message % values)
