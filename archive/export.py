"""Writing the archive: a tournament as one JSON-ready dict, and the director's download."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.db import models

from scoring.models import Hand
from tournaments.models import AuditEntry, Decision, Match, Player, Stage, Tournament
from tournaments.models.players import PRIVATE_FIELDS

from . import sections
from .schema import (
    AUDIT_FIELDS,
    BUILD_KEY,
    DECISION_FIELDS,
    ENTRY_FIELDS,
    FIRST_VERSION,
    FORMAT,
    HAND_FIELDS,
    HAND_OPTIONAL_FIELDS,
    MATCH_FIELDS,
    MATCH_OPTIONAL_FIELDS,
    PLAYER_FIELDS,
    PLAYER_OPTIONAL_FIELDS,
    STAGE_FIELDS,
    TOURNAMENT_FIELDS,
    VERSION,
    map_sides,
)

PAID_ACTIONS = frozenset({"entry paid"})
"""The audit's rows that say who paid (the entries' "paid" flag): see ``published``."""


def _out(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat(timespec="microseconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def _row(obj: models.Model, names: Iterable[str]) -> dict[str, Any]:
    return {name: _out(getattr(obj, name)) for name in names}


def export_tournament(
    tournament: Tournament,
    *,
    shows_private: Callable[[Player], bool] | None = None,
    hands_of: Collection[str] | None = None,
    audit_from: int = 0,
    published: bool = False,
) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict (see the module docstring). With
    ``shows_private``, a player it says no to has an empty email, phone and notes (the
    registry's ownership model: not every director may read them).

    A part of it, for publishing a change (:mod:`publishing`): with ``hands_of``, only the
    hands and decisions of the matches of those keys; with ``audit_from``, the audit from
    that row on (its rows in order, the first being row 0). Every other row is whole.

    ``published``: what a club's server keeps (:mod:`publishing`): nobody's payment (every
    entry unpaid, the payment rows of the audit reduced to their action; the money part
    carries the pool as one sum), and the tournament's seasons (:mod:`archive.sections`)."""
    entries = list(
        tournament.entries.select_related("player")
        .prefetch_related("members__player")
        .order_by("pk")
    )
    index_of = {entry.pk: i for i, entry in enumerate(entries)}
    players, teams = _players_and_teams(entries)
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    key_of = {match.pk: match.key for match in matches}
    hands = Hand.objects.filter(match__tournament=tournament)
    decisions = Decision.objects.filter(tournament=tournament)
    if hands_of is not None:
        hands = hands.filter(match__key__in=hands_of)
        decisions = decisions.filter(match__key__in=hands_of)
    hands = list(hands.select_related("entered_by").order_by("match_id", "number"))
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    number_of = {stage.pk: stage.number for stage in stages}
    refs = _references(tournament, index_of, key_of)
    refs.update({("stage", str(pk)): number for pk, number in number_of.items()})
    parts = sections.export(tournament, index_of, published=published)
    private = PAID_ACTIONS | sections.private_actions() if published else frozenset()
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION if parts else FIRST_VERSION,
        BUILD_KEY: settings.GINCLUB_VERSION,
        "tournament": _tournament_row(tournament),
        "players": [_player_row(player, shows_private) for player in players],
        "entries": [
            {"player": i, **_row(entry, ENTRY_FIELDS), **teams.get(i, {})}
            | ({"paid": False} if published else {})
            for i, entry in enumerate(entries)
        ],
        "matches": [_match_row(match, index_of, key_of, number_of) for match in matches],
        "hands": [
            {
                "match": key_of[hand.match_id],
                **_row(hand, HAND_FIELDS),
                **{
                    name: getattr(hand, name)
                    for name in HAND_OPTIONAL_FIELDS
                    if getattr(hand, name) is not None
                },
                "entered_by": _username(hand.entered_by),
            }
            for hand in hands
        ],
        "audit": [
            _audit_row(row, refs, index_of, private)
            for row in tournament.audit_entries.select_related("user").order_by("at", "pk")[
                audit_from:
            ]
        ],
    }
    if stages:  # a tournament of one bracket keeps the document it always had
        document["stages"] = [_stage_row(stage, index_of, key_of) for stage in stages]
    decisions = decisions.select_related("decided_by").order_by("at", "pk")
    rows = [_decision_row(d, index_of, key_of) for d in decisions]
    if rows:  # and one without decisions (made before them) too
        document["decisions"] = rows
    document.update(parts)
    return document


def _decision_row(
    decision: Decision, index_of: dict[int, int], key_of: dict[int, str]
) -> dict[str, Any]:
    return {
        "match": key_of[decision.match_id],
        **_row(decision, DECISION_FIELDS),
        "entry": index_of[decision.entry_id] if decision.entry_id else None,
        "replaced": index_of[decision.replaced_id] if decision.replaced_id else None,
        "by": _username(decision.decided_by),
    }


def _players_and_teams(entries: list[Any]) -> tuple[list[Player], dict[int, dict[str, Any]]]:
    """The archive's players (each entry's, then the other players of teams) and each team
    entry's extra fields by entry index (:data:`archive.schema.ENTRY_TEAM_FIELDS`)."""
    players = [entry.player for entry in entries]
    teams: dict[int, dict[str, Any]] = {}
    for i, entry in enumerate(entries):
        if not entry.team_name:
            continue
        members = []
        for member in sorted(entry.members.all(), key=lambda m: m.seat):
            if member.player_id == entry.player_id:
                members.append(i)
            else:
                members.append(len(players))
                players.append(member.player)
        teams[i] = {"team_name": entry.team_name, "members": members}
    return players, teams


def _references(
    tournament: Tournament, index_of: dict[int, int], key_of: dict[int, str]
) -> dict[tuple[str, str], Any]:
    """What an audit row's (object type, object id) becomes in the archive: an entry's
    index, a match's key, a hand's [match key, number] (every hand's, exported or not)."""
    refs: dict[tuple[str, str], Any] = {("tournament", str(tournament.pk)): None}
    refs.update({("entry", str(pk)): i for pk, i in index_of.items()})
    refs.update({("match", str(pk)): key for pk, key in key_of.items()})
    hands = Hand.objects.filter(match__tournament=tournament).values_list("pk", "match", "number")
    refs.update({("hand", str(pk)): [key_of[match], number] for pk, match, number in hands})
    return refs


def _player_row(player: Player, shows_private: Callable[[Player], bool] | None) -> dict[str, Any]:
    row = _row(player, PLAYER_FIELDS)
    row.update({name: True for name in PLAYER_OPTIONAL_FIELDS if getattr(player, name)})
    if shows_private is not None and not shows_private(player):
        row.update({name: "" for name in PRIVATE_FIELDS if name in row})
    return row


def _tournament_row(tournament: Tournament) -> dict[str, Any]:
    return {
        **_row(tournament, TOURNAMENT_FIELDS),
        "owner": _username(tournament.owner),
        "co_directors": sorted(u.get_username() for u in tournament.co_directors.all()),
        "scorekeepers": sorted(u.get_username() for u in tournament.scorekeepers.all()),
    }


def _stage_row(stage: Stage, index_of: dict[int, int], key_of: dict[int, str]) -> dict[str, Any]:
    return {
        **_row(stage, STAGE_FIELDS),
        "entrants": [index_of[int(pk)] for pk in stage.entrants],
        "pools": [[index_of[int(pk)] for pk in pool] for pool in stage.pools],
        "start_points": {
            str(index_of[int(pk)]): points for pk, points in sorted(stage.start_points.items())
        },
        "time_called": {
            key_of[int(pk)]: hands
            for pk, hands in sorted(stage.time_called.items())
            if int(pk) in key_of
        },
    }


def _match_row(
    match: Match, index_of: dict[int, int], key_of: dict[int, str], number_of: dict[int, int]
) -> dict[str, Any]:
    row = {
        **_row(match, MATCH_FIELDS),
        "side_a": index_of.get(match.side_a_id) if match.side_a_id else None,
        "side_b": index_of.get(match.side_b_id) if match.side_b_id else None,
        "next_match": key_of.get(match.next_match_id),
        "loser_next_match": key_of.get(match.loser_next_match_id),
    }
    # Written only when they say something, so a one-bracket archive reads as it always did.
    if match.stage_id is not None:
        row["stage"] = number_of[match.stage_id]
    row.update({name: True for name in MATCH_OPTIONAL_FIELDS if getattr(match, name)})
    return row


def _audit_row(
    row: AuditEntry,
    refs: dict[tuple[str, str], Any],
    index_of: dict[int, int],
    private: Collection[str] = (),
) -> dict[str, Any]:
    if row.action in private:  # who paid, and how much: the row stays, nothing of it
        return {
            **_row(row, AUDIT_FIELDS),
            "user": None,
            "object": None,
            "before": None,
            "after": None,
        }
    return {
        **_row(row, AUDIT_FIELDS),
        "user": _username(row.user),
        "object": (
            {"type": row.object_type, "ref": refs.get((row.object_type, row.object_id))}
            if row.object_type
            else None
        ),
        "before": map_sides(row.before, row.object_type, index_of.get),
        "after": map_sides(row.after, row.object_type, index_of.get),
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
