"""A copy brought up to date in place: a publishing change applied to a mirror
(:mod:`publishing`) keeping every row's id, so that links to its matches stay valid and a
page whose rows did not change is still unchanged for its followers (304).

The change is a part of an archive (:func:`archive.export.export_tournament` with
``hands_of`` and ``audit_from``): the tournament, its players, entries, stages and matches
whole, but the hands and decisions only of the matches named in ``hands_of`` (those that
changed since the state the copy is known to have), and the audit from row
``audit_from`` on. It is checked as an archive is (those hands by the engine), then
written row by row: entries matched by position, stages by number, matches by key,
hands by match key and number. Rows that did not change are not written.

When the change does not fit in place (an entry gone at the venue, an audit shorter
than ``audit_from``), :class:`Misfit` is raised and nothing is written: the caller sends
the whole archive again (:func:`archive.restore.write_copy`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import DataError, IntegrityError, models, transaction

from scoring.models import Hand
from tournaments import public_version
from tournaments.models import (
    AuditEntry,
    Decision,
    Entry,
    Match,
    Stage,
    TeamMember,
    Tournament,
    new_token,
)

from . import schema, sections
from .reading import Plan, check_archive
from .restore import (
    ImportReport,
    not_fitting,
    registry_players,
    times_kept,
    write_audit,
    write_decisions,
)
from .schema import ArchiveError


class Misfit(Exception):
    """The change does not fit the copy in place: nothing was written."""


def _fields(model: type[models.Model], *left_out: str) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.name not in ("id", *left_out)]


MATCH_KEPT = ("tournament", "token", "token_revoked", "next_match", "loser_next_match", "version")
"""A match's fields the copy keeps as they are: its tournament, its revoked table link (the
venue's links are not links here), its routes (written after every match exists) and the
version of its hands (the venue's is not sent: the copy's moves on with each change to
them, as the venue's does, so that what is kept by it, the match's scored sheet, is not
read stale)."""
MATCH_FIELDS = _fields(Match, *MATCH_KEPT)
HAND_FIELDS = _fields(Hand, "match", "entered_by")
ENTRY_FIELDS = ["seed", "checked_in", "paid", "withdrawn", "registered_at", "team_name"]
TOURNAMENT_FIELDS = [name for name in schema.TOURNAMENT_FIELDS if name != "slug"]


def refresh_copy(
    data: Any, *, tournament: Tournament, hands_of: Collection[str], audit_from: int
) -> Plan:
    """Apply the change ``data`` to ``tournament``, a copy (see the module docstring).
    ArchiveError if the change is refused, :class:`Misfit` if it does not fit."""
    hands_of = set(hands_of)
    known = (
        Hand.objects.filter(match__tournament=tournament)
        .exclude(match__key__in=hands_of)
        .values_list("match__key", "number")
    )
    plan = check_archive(
        data, slug=tournament.slug, replacing=tournament.pk, known_hands=set(known)
    )
    strays = {key for _hand, key, _user in plan.hands} | {row.match for row in plan.decisions}
    if strays - hands_of:
        raise ArchiveError(f"hands or decisions of a match the change does not name: {strays}")
    try:
        with transaction.atomic():
            _write(plan, tournament, hands_of, audit_from)
            public_version.changed(tournament)
    except (IntegrityError, DataError) as error:
        raise not_fitting(error) from None
    return plan


def _write(plan: Plan, tournament: Tournament, hands_of: set[str], audit_from: int) -> None:
    report = ImportReport(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        **{name: getattr(plan.tournament, name) for name in TOURNAMENT_FIELDS}
    )
    plan.tournament = tournament
    entries = _entries(plan, tournament)
    stages = _stages(plan, tournament, entries)
    by_key = _matches(plan, tournament, entries, stages, hands_of)
    for row in plan.stages:
        time_called = {str(by_key[k].pk): n for k, n in row.time_called.items()}
        if stages[row.stage.number].time_called != time_called:
            Stage.objects.filter(pk=row.stage.pk).update(time_called=time_called)
    _hands(plan, tournament, by_key, hands_of)
    Decision.objects.filter(tournament=tournament, match__key__in=hands_of).delete()
    write_decisions(plan, {}, entries, by_key, report)
    _audit(plan, tournament, entries, by_key, stages, audit_from, report)
    sections.write(plan.parts, tournament, entries, copy_owner=tournament.owner)


def _changed(old: models.Model, new: models.Model, names: list[str]) -> dict[str, Any]:
    return {name: getattr(new, name) for name in names if getattr(old, name) != getattr(new, name)}


def _entries(plan: Plan, tournament: Tournament) -> list[Entry]:
    """The copy's entries, each updated where the change differs, new ones added."""
    existing = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    registry, _new_players = registry_players(plan.players)
    wanted = [(entry, registry[player]) for entry, player in plan.entries]
    if len(existing) > len(wanted) or any(
        row.player_id != player.pk for row, (_entry, player) in zip(existing, wanted, strict=False)
    ):
        raise Misfit("the entries are not the copy's entries")
    entries = []
    for i, (entry, player) in enumerate(wanted):
        entry.tournament, entry.player = tournament, player
        if i < len(existing):
            changes = _changed(existing[i], entry, ENTRY_FIELDS)
            if changes:
                Entry.objects.filter(pk=existing[i].pk).update(**changes)
            entry.pk = existing[i].pk
        entries.append(entry)
    added = entries[len(existing) :]
    with times_kept(added, ["registered_at"]):
        Entry.objects.bulk_create(added)
    if plan.members:
        TeamMember.objects.filter(tournament=tournament).delete()
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, entry=entries[e], player=registry[p], seat=seat)
            for e, p, seat in plan.members
        )
    return entries


def _stages(plan: Plan, tournament: Tournament, entries: list[Entry]) -> dict[int, Stage]:
    """The copy's stages by number, saved over the ones it had (their time calls are
    written once the matches are)."""
    existing = {stage.number: stage for stage in Stage.objects.filter(tournament=tournament)}
    by_number = {}
    for row in plan.stages:
        stage = row.stage
        stage.tournament = tournament
        stage.entrants = [entries[i].pk for i in row.entrants]
        stage.pools = [[entries[i].pk for i in pool] for pool in row.pools]
        stage.start_points = {str(entries[i].pk): n for i, n in row.start_points.items()}
        old = existing.pop(stage.number, None)
        if old is not None:
            stage.pk, stage.time_called = old.pk, old.time_called
        stage.save()
        by_number[stage.number] = stage
    Stage.objects.filter(pk__in=[stage.pk for stage in existing.values()]).delete()
    return by_number


def _matches(
    plan: Plan,
    tournament: Tournament,
    entries: list[Entry],
    stages: dict[int, Stage],
    hands_of: set[str],
) -> dict[str, Match]:
    """The copy's matches by key: each kept row updated where the change differs (and
    its version moved on when its hands or decisions come), new ones added (their table
    links revoked), the ones the venue no longer has deleted."""
    existing = {match.key: match for match in Match.objects.filter(tournament=tournament)}
    new, changed = [], []
    for match in plan.matches:
        match.tournament = tournament
        number = plan.stage_of.get(match.key)
        match.stage = stages[number] if number is not None else None
        a, b = plan.sides[match.key]
        match.side_a = entries[a] if a is not None else None
        match.side_b = entries[b] if b is not None else None
        old = existing.pop(match.key, None)
        if old is None:
            match.token, match.token_revoked = new_token(), True
            new.append(match)
            continue
        match.pk, match.token, match.token_revoked = old.pk, old.token, old.token_revoked
        match.version = old.version + 1 if match.key in hands_of else old.version
        match.next_match_id, match.loser_next_match_id = old.next_match_id, old.loser_next_match_id
        if match.version != old.version or _changed(old, match, MATCH_FIELDS):
            changed.append(match)
    # A table is one unfinished match's at a time: let go of the changed matches' tables
    # before any match takes one.
    Match.objects.filter(pk__in=[m.pk for m in changed]).exclude(table=None).update(table=None)
    Match.objects.bulk_update(changed, [*MATCH_FIELDS, "version"], batch_size=200)
    Match.objects.bulk_create(new)
    by_key = {match.key: match for match in plan.matches}
    rerouted = []
    for match in plan.matches:
        winner_to, loser_to = plan.routes[match.key]
        routes = (
            by_key[winner_to].pk if winner_to else None,
            by_key[loser_to].pk if loser_to else None,
        )
        if routes != (match.next_match_id, match.loser_next_match_id):
            match.next_match_id, match.loser_next_match_id = routes
            rerouted.append(match)
    Match.objects.bulk_update(rerouted, ["next_match", "loser_next_match"], batch_size=200)
    Match.objects.filter(pk__in=[match.pk for match in existing.values()]).delete()
    return by_key


def _hands(
    plan: Plan, tournament: Tournament, by_key: dict[str, Match], hands_of: set[str]
) -> None:
    """The hands of the matches in ``hands_of`` made what the change says: each kept row
    updated where it differs, new ones added, the ones gone at the venue deleted."""
    existing = {
        (hand.match_id, hand.number): hand
        for hand in Hand.objects.filter(match__tournament=tournament, match__key__in=hands_of)
    }
    new = []
    for hand, key, _user in plan.hands:
        hand.match, hand.entered_by = by_key[key], None
        old = existing.pop((hand.match_id, hand.number), None)
        if old is None:
            new.append(hand)
            continue
        hand.pk = old.pk
        changes = _changed(old, hand, HAND_FIELDS)
        if changes:  # update(): the venue's times are kept (save() would set updated_at)
            Hand.objects.filter(pk=hand.pk).update(**changes)
    Hand.objects.filter(pk__in=[hand.pk for hand in existing.values()]).delete()
    with times_kept(new, ["entered_at", "updated_at"]):
        Hand.objects.bulk_create(new)


def _audit(
    plan: Plan,
    tournament: Tournament,
    entries: list[Entry],
    by_key: dict[str, Match],
    stages: dict[int, Stage],
    audit_from: int,
    report: ImportReport,
) -> None:
    """The audit from row ``audit_from`` on replaced by the change's."""
    rows = AuditEntry.objects.filter(tournament=tournament).order_by("at", "pk")
    if rows.count() < audit_from:
        raise Misfit("the copy's audit is shorter than the change's start")
    gone = list(rows.values_list("pk", flat=True)[audit_from:])
    AuditEntry.objects.filter(pk__in=gone).delete()
    named = {tuple(ref) for row, _user, ref in plan.audit if row.object_type == "hand" and ref}
    hands = Hand.objects.filter(
        match__tournament=tournament, match__key__in={key for key, _number in named}
    ).values_list("pk", "match__key", "number")
    hand_of = {(key, number): Hand(pk=pk) for pk, key, number in hands if (key, number) in named}
    write_audit(plan, {}, entries, by_key, hand_of, report, stages)
