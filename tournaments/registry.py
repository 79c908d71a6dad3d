"""The club's player registry: adding and editing players, and importing them from CSV
(the import itself lives in :mod:`tournaments.player_csv`; its entry points are re-exported
here).

What this module does not do: register players in a tournament (see
:mod:`tournaments.registration`) or check permissions (views do).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from . import audit
from .models import Player
from .player_csv import (
    CSV_COLUMNS,
    MAX_CSV_BYTES,
    MAX_CSV_ROWS,
    PLAYER_FIELDS,
    ImportResult,
    decode_csv,
    import_players_csv,
)

__all__ = [
    "CSV_COLUMNS",
    "MAX_CSV_BYTES",
    "MAX_CSV_ROWS",
    "PLAYER_FIELDS",
    "ImportResult",
    "create_player",
    "decode_csv",
    "import_players_csv",
    "update_player",
]


def create_player(*, data: dict[str, Any], user: Any) -> Player:
    """A new registry entry from cleaned data (a PlayerForm's ``cleaned_data``)."""
    with transaction.atomic():
        player = Player(**{name: data.get(name) for name in PLAYER_FIELDS if name in data})
        player.full_clean()
        player.save()
        audit.record(
            tournament=None,
            action="player added",
            obj=player,
            after=audit.snapshot(player, PLAYER_FIELDS),
            user=user,
        )
    return player


def update_player(*, player: Player, data: dict[str, Any], user: Any) -> Player:
    with transaction.atomic():
        before = audit.snapshot(player, PLAYER_FIELDS)
        for name in PLAYER_FIELDS:
            if name in data:
                setattr(player, name, data[name])
        player.full_clean()
        player.save()
        old, new = audit.changes(before, audit.snapshot(player, PLAYER_FIELDS))
        if new:
            audit.record(
                tournament=None,
                action="player edited",
                obj=player,
                before=old,
                after=new,
                user=user,
            )
    return player
