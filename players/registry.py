"""The club's player registry: who owns it, and editing players (the CSV import lives in
:mod:`players.csv_import`; its entry points are re-exported here).

Who owns the registry
---------------------

An installation serves one club, and the registry is the club's, not any director's.
Two club roles, both Django permissions (superusers hold both):

* a **director** (``add_tournament``) may open the registry, see every player's name, club
  id and rating, add players (one by one, at registration, or by CSV import) and enter
  any registered player in their own tournaments. Each player remembers who added them
  (``created_by``). A director sees the email, phone and notes only of the players they
  added, may edit only those players, and even then may not change the name, club id or
  rating of one entered in a tournament they do not direct: those show on another
  director's pages and seeding, so that change is refused, naming the tournament;
* a **registrar** (``manage_registry``: ``manage.py registrar USERNAME``, or the admin)
  sees every player's contact details and edits any player. A registrar who is not a
  director keeps the registry but directs no tournament.

Every registry write is audited. An edit writes one registry row (tournament empty, the
full before and after, shown on the player's page to those who may edit the player) and
one row in the log of every tournament the player is entered in, so that tournament's
audit page shows it; there the private fields appear only as changed, never their values.
A mirror of a venue's tournament (:mod:`tournaments.kept_elsewhere`) is left alone: its
log is the venue's, and a player in one keeps the name, club id and email the venue
knows them by (:func:`tournaments.kept_elsewhere.refuse_in_mirrors`).

The checks live in :mod:`tournaments.permissions`; the views apply them (registry list and
search, edit, CSV import, registration's search, the archive download). The one rule this
module enforces itself is the rename rule, which depends on the tournaments the player is
entered in as the edit is saved.

The Player model, its field lists and adding one new player
(:func:`tournaments.registration.create_player`, which registration at the door uses too)
stay in :mod:`tournaments`: an entry's player is part of the tournament's data.

What this module does not do: register players in a tournament (see
:mod:`tournaments.registration`).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import audit
from tournaments.kept_elsewhere import refuse_in_mirrors, tournaments_of
from tournaments.models import Player, Tournament
from tournaments.models.players import PRIVATE_FIELDS, REGISTRY_FIELDS, SHARED_FIELDS
from tournaments.permissions import REGISTRAR_PERMISSION, can_direct, is_registrar
from tournaments.public_version import changed

from .csv_import import (
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
    "PRIVATE_FIELDS",
    "REGISTRY_FIELDS",
    "SHARED_FIELDS",
    "ImportResult",
    "decode_csv",
    "import_players_csv",
    "set_registrar",
    "update_player",
]

HIDDEN = "•••"  # a private value in a tournament's log: changed, but not shown
REGISTRAR_CODENAME = REGISTRAR_PERMISSION.split(".")[1]


def update_player(*, player: Player, data: dict[str, Any], user: Any) -> Player:
    """Save the changes in ``data``; audit them in the registry and in every tournament
    the player is entered in. Refused (ValidationError, nothing saved) when ``user`` is no
    registrar and changes what other directors see of a player in their tournaments, or
    when anyone changes what a mirror shows of its player. ``player`` itself is left as it
    was; the saved player is returned."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = audit.snapshot(player, REGISTRY_FIELDS)
        for name in REGISTRY_FIELDS:
            if name in data:
                setattr(player, name, data[name])
        player.full_clean()
        old, new = audit.changes(before, audit.snapshot(player, REGISTRY_FIELDS))
        if not new:
            return player
        tournaments = tournaments_of(player)
        mirrors = refuse_in_mirrors(before["name"], tournaments, changed=new)
        if not is_registrar(user) and any(name in SHARED_FIELDS for name in new):
            _refuse_in_foreign_tournaments(player, before, user, tournaments)
        player.save()
        audit.record(
            tournament=None,
            action="player edited",
            obj=player,
            before=old,
            after=new,
            user=user,
        )
        for tournament in (t for t in tournaments if t.pk not in mirrors):  # theirs: the venue's
            audit.record(
                tournament=tournament,
                action="player edited",
                obj=player,
                before=_shown(old),
                after=_shown(new),
                user=user,
            )
        if "name" in new or "hidden" in new:  # what public pages show of a player: the
            changed(*tournaments)  # name, and whether it links to the club player page
    return player


def _refuse_in_foreign_tournaments(
    player: Player, before: dict[str, Any], user: Any, tournaments: list[Tournament]
) -> None:
    foreign = [t for t in tournaments if not can_direct(user, t)]
    if foreign:
        raise ValidationError(
            _(
                "Only a registrar can change the name, club id or rating of %(player)s: "
                "they are entered in %(tournaments)s, which you do not direct."
            )
            % {
                "player": before["name"],
                "tournaments": ", ".join(f"“{t.name}”" for t in foreign),
            }
        )


def _shown(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` as a tournament's log shows them: private ones only as changed."""
    return {name: HIDDEN if name in PRIVATE_FIELDS else value for name, value in values.items()}


def set_registrar(*, account: Any, registrar: bool, user: Any = None, via: str = "") -> bool:
    """Give ``account`` the registrar role or take it away (a superuser keeps it anyway).
    Returns whether anything changed; a change is audited in the registry's log."""
    from django.contrib.auth.models import Permission

    permission = Permission.objects.get(
        content_type__app_label="tournaments", codename=REGISTRAR_CODENAME
    )
    with transaction.atomic():
        held = account.user_permissions.filter(pk=permission.pk).exists()
        if held == registrar:
            return False
        if registrar:
            account.user_permissions.add(permission)
        else:
            account.user_permissions.remove(permission)
        audit.record(
            tournament=None,
            action="registrar added" if registrar else "registrar removed",
            obj=account,
            after={"user": account.get_username()},
            user=user,
            via=via,
        )
    return True
