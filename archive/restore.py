"""Restoring a checked archive in one transaction: registry players matched or created,
users matched by username, timestamps and references put back as they were."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, connection, transaction

from scoring.models import Hand
from tournaments import audit, public_version
from tournaments.models import (
    AuditEntry,
    Decision,
    Entry,
    Match,
    Player,
    Stage,
    TeamMember,
    Tournament,
    new_token,
)

from . import sections
from .reading import Plan, check_archive
from .schema import ArchiveError, map_sides


@dataclass
class ImportReport:
    tournament: Tournament
    new_players: int = 0
    entries: int = 0
    matches: int = 0
    hands: int = 0
    audit: int = 0
    owner_replaced: str = ""
    unknown_users: set[str] = field(default_factory=set)
    renewed_tokens: int = 0


def _users(plan: Plan) -> dict[str, Any]:
    User = get_user_model()
    names = {name for group in plan.usernames.values() for name in group}
    names |= {user for _hand, _key, user in plan.hands if user}
    names |= {user for _row, user, _ref in plan.audit if user}
    names |= {row.by for row in plan.decisions if row.by}
    field_name = User.USERNAME_FIELD
    return {
        getattr(user, field_name): user
        for user in User.objects.filter(**{f"{field_name}__in": names})
    }


def _default_owner(owner: str | None) -> Any:
    User = get_user_model()
    if owner is not None:
        user = User.objects.filter(**{User.USERNAME_FIELD: owner}).first()
        if user is None:
            raise ArchiveError(f"--owner: there is no user {owner!r} here")
        return user
    user = User.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if user is None:
        raise ArchiveError(
            "the archive's owner has no account here and there is no superuser: "
            "name the new owner with --owner USERNAME"
        )
    return user


def registry_players(players: list[Player]) -> tuple[list[Player], list[Player]]:
    """Each archive player as a registry row: an existing one when the club id, or else
    the name and email, match; a new (saved) one otherwise. Returns (rows, new ones)."""
    by_club: dict[str, Player] = {}
    by_name: dict[tuple[str, str], Player] = {}
    # Compared in Python: SQLite's LOWER() folds ASCII letters only.
    for row in Player.objects.all():
        if row.club_id:
            by_club[row.club_id] = row
        by_name.setdefault((row.name.lower(), row.email.lower()), row)
    rows: list[Player] = []
    new: list[Player] = []
    matched: dict[int, Player] = {}
    for player in players:
        found = by_club.get(player.club_id) if player.club_id else None
        found = found or by_name.get((player.name.lower(), player.email.lower()))
        if found is None:
            new.append(player)
        elif found.pk in matched:
            raise ArchiveError(
                f"players {matched[found.pk].name!r} and {player.name!r} of the archive are "
                f"both {found.name!r} of the registry here"
            )
        else:
            matched[found.pk] = player
        rows.append(found or player)
    Player.objects.bulk_create(new)
    return rows, new


def import_archive(data: Any, *, slug: str | None = None, owner: str | None = None) -> ImportReport:
    """Restore an archive (parsed JSON) in one transaction; ArchiveError if it is refused."""
    plan = check_archive(data, slug=slug)
    try:
        with transaction.atomic():
            return _write(plan, owner)
    except (IntegrityError, DataError) as error:
        raise not_fitting(error) from None


def write_copy(
    data: Any, *, slug: str, owned_by: Any, replacing: Tournament | None = None
) -> Tournament:
    """The archive written as another installation's tournament that this one follows (a
    mirror, :mod:`publishing`): at ``slug``, owned by ``owned_by`` with no other director
    or scorekeeper (the archive's usernames are another site's people). With
    ``replacing``, that tournament's content (details, entries, stages, matches, hands,
    decisions, audit) is replaced and its row kept: its id, its public version (moved
    on), its place in seasons. Not an import: nothing is added to the site's own log."""
    plan = check_archive(data, slug=slug, replacing=replacing.pk if replacing else None)
    try:
        with transaction.atomic():
            if replacing is not None:
                _clear(replacing)
                plan.tournament.pk = replacing.pk
            for match in plan.matches:  # the venue's table links are not links here
                match.token, match.token_revoked = new_token(), True
            _write(plan, None, owned_by=owned_by)
            public_version.changed(plan.tournament)
            return plan.tournament
    except (IntegrityError, DataError) as error:
        raise not_fitting(error) from None


def not_fitting(error: Exception) -> ArchiveError:
    problem = str(error).strip().splitlines()[0] if str(error).strip() else "refused"
    return ArchiveError(f"the archive does not fit this database: {problem}")


def _clear(tournament: Tournament) -> None:
    """Everything of the tournament an archive holds, deleted (in the order the protected
    references allow); the tournament's row stays."""
    Decision.objects.filter(tournament=tournament).delete()
    matches = Match.objects.filter(tournament=tournament)
    matches.update(next_match=None, loser_next_match=None)
    Hand.objects.filter(match__tournament=tournament).delete()
    matches.delete()
    Stage.objects.filter(tournament=tournament).delete()
    AuditEntry.objects.filter(tournament=tournament).delete()
    TeamMember.objects.filter(entry__tournament=tournament).delete()
    Entry.objects.filter(tournament=tournament).delete()


def _write(plan: Plan, owner: str | None, *, owned_by: Any = None) -> ImportReport:
    """Save everything in ``plan`` (inside :func:`import_archive`'s transaction); with
    ``owned_by``, a copy (:func:`write_copy`): its owner, no roles, nothing logged."""
    # A copy names nobody here: the archive's usernames are another site's people.
    users = _users(plan) if owned_by is None else {}
    tournament = plan.tournament
    report = ImportReport(tournament)
    created, updated = tournament.created, tournament.updated
    if owned_by is not None:
        tournament.owner = owned_by
        tournament.save()
        tournament.co_directors.clear()
        tournament.scorekeepers.clear()
    else:
        _write_tournament(plan, users, owner, report)
    entries, new_players = _write_entries(plan, report)
    stage_pks = _write_stages(plan, entries)
    by_key = _write_matches(plan, entries, report, stage_pks)
    for row in plan.stages:
        if row.time_called:
            row.stage.time_called = {str(by_key[k].pk): n for k, n in row.time_called.items()}
            row.stage.save(update_fields=["time_called"])
    hand_of = _write_hands(plan, users, by_key, report)
    rows = write_audit(plan, users, entries, by_key, hand_of, report, stage_pks)
    write_decisions(plan, users, entries, by_key, report)
    sections.write(plan.parts, tournament, entries, copy_owner=owned_by)
    Tournament.objects.filter(pk=tournament.pk).update(created=created, updated=updated)
    tournament.created, tournament.updated = created, updated

    report.entries = len(entries)
    report.matches, report.hands, report.audit = len(plan.matches), len(plan.hands), len(rows)
    if owned_by is not None:
        return report
    audit.record(
        tournament=None,
        action="tournament imported",
        after={
            "tournament": tournament.slug,
            "name": tournament.name,
            "players_added": [player.name for player in new_players][:200],
            "matches": report.matches,
            "hands": report.hands,
        },
        via="import_tournament",
    )
    return report


def _write_tournament(
    plan: Plan, users: dict[str, Any], owner: str | None, report: ImportReport
) -> None:
    """The tournament saved with its owner (``--owner`` or a superuser if the archive's
    has no account here), co-directors and scorekeepers."""
    tournament = plan.tournament
    owner_user = users.get(plan.usernames["owner"][0])
    if owner_user is None:
        owner_user = _default_owner(owner)
        report.owner_replaced = plan.usernames["owner"][0]
    elif owner is not None:
        _default_owner(owner)  # a misspelt --owner is an error even when not needed
    tournament.owner = owner_user
    tournament.save()
    for role in ("co_directors", "scorekeepers"):
        names = plan.usernames[role]
        report.unknown_users |= {name for name in names if name not in users}
        getattr(tournament, role).set([users[name] for name in names if name in users])


def _write_entries(plan: Plan, report: ImportReport) -> tuple[list[Entry], list[Player]]:
    """The entries saved, each with its registry player; returns them and the new players."""
    registry, new_players = registry_players(plan.players)
    report.new_players = len(new_players)
    entries = [entry for entry, _player in plan.entries]
    for entry, player in plan.entries:
        entry.tournament, entry.player = plan.tournament, registry[player]
    with times_kept(entries, ["registered_at"]):
        Entry.objects.bulk_create(entries)
    TeamMember.objects.bulk_create(
        TeamMember(
            tournament=plan.tournament, entry=entries[entry], player=registry[player], seat=seat
        )
        for entry, player, seat in plan.members
    )
    return entries, new_players


def _write_stages(plan: Plan, entries: list[Entry]) -> dict[int, Stage]:
    """The stages saved, their entry indexes turned into the new entries' ids; by number."""
    by_number = {}
    for row in plan.stages:
        stage = row.stage
        stage.tournament = plan.tournament
        stage.entrants = [entries[i].pk for i in row.entrants]
        stage.pools = [[entries[i].pk for i in pool] for pool in row.pools]
        stage.start_points = {str(entries[i].pk): n for i, n in row.start_points.items()}
        stage.save()
        by_number[stage.number] = stage
    return by_number


def _write_matches(
    plan: Plan, entries: list[Entry], report: ImportReport, stages: dict[int, Stage]
) -> dict[str, Match]:
    """The matches saved with their players and routes (a table-link token already in
    use here is renewed); returns them by key."""
    taken = set(
        Match.objects.filter(token__in=[m.token for m in plan.matches]).values_list(
            "token", flat=True
        )
    )
    for match in plan.matches:
        match.tournament = plan.tournament
        number = plan.stage_of.get(match.key)
        match.stage = stages[number] if number is not None else None
        a, b = plan.sides[match.key]
        match.side_a = entries[a] if a is not None else None
        match.side_b = entries[b] if b is not None else None
        if match.token in taken:
            match.token = new_token()
            report.renewed_tokens += 1
    Match.objects.bulk_create(plan.matches)
    by_key = {match.key: match for match in plan.matches}
    for match in plan.matches:
        winner_to, loser_to = plan.routes[match.key]
        match.next_match = by_key[winner_to] if winner_to else None
        match.loser_next_match = by_key[loser_to] if loser_to else None
    Match.objects.bulk_update(plan.matches, ["next_match", "loser_next_match"], batch_size=500)
    return by_key


def _write_hands(
    plan: Plan, users: dict[str, Any], by_key: dict[str, Match], report: ImportReport
) -> dict[tuple[str, int], Hand]:
    """The hands saved; returns them by (match key, hand number)."""
    hands = [hand for hand, _key, _user in plan.hands]
    for hand, key, user in plan.hands:
        hand.match = by_key[key]
        hand.entered_by = users.get(user) if user else None
        if user and user not in users:
            report.unknown_users.add(user)
    with times_kept(hands, ["entered_at", "updated_at"]):
        Hand.objects.bulk_create(hands, batch_size=500)
    return {(key, hand.number): hand for hand, key, _user in plan.hands}


def write_audit(
    plan: Plan,
    users: dict[str, Any],
    entries: list[Entry],
    by_key: dict[str, Match],
    hand_of: dict[tuple[str, int], Hand],
    report: ImportReport,
    stages: dict[int, Stage],
) -> list[AuditEntry]:
    """The audit rows saved, their references and sides pointing at the new rows."""
    tournament = plan.tournament
    rows = []
    for row, user, ref in plan.audit:
        row.tournament = tournament
        row.user = users.get(user) if user else None
        if user and user not in users:
            report.unknown_users.add(user)
        if row.object_type == "stage":
            row.object_id = str(stages[ref].pk) if ref is not None else ""
        else:
            row.object_id = _object_id(row.object_type, ref, tournament, entries, by_key, hand_of)
        row.before = map_sides(row.before, row.object_type, lambda i: entries[i].pk)
        row.after = map_sides(row.after, row.object_type, lambda i: entries[i].pk)
        rows.append(row)
    AuditEntry.objects.bulk_create(rows, batch_size=500)
    return rows


def write_decisions(
    plan: Plan,
    users: dict[str, Any],
    entries: list[Entry],
    by_key: dict[str, Match],
    report: ImportReport,
) -> None:
    """The decisions saved, pointing at the new matches, entries and users."""
    for row in plan.decisions:
        decision = row.decision
        decision.tournament, decision.match = plan.tournament, by_key[row.match]
        decision.entry = entries[row.entry] if row.entry is not None else None
        decision.replaced = entries[row.replaced] if row.replaced is not None else None
        decision.decided_by = users.get(row.by) if row.by else None
        if row.by and row.by not in users:
            report.unknown_users.add(row.by)
    Decision.objects.bulk_create([row.decision for row in plan.decisions], batch_size=500)


@contextlib.contextmanager
def times_kept(rows: list[Any], names: list[str]) -> Iterator[None]:
    """Keep the archive's timestamps through an insert that auto_now(_add) rewrites.

    One UPDATE per row through ``executemany``: ``bulk_update`` would build a CASE
    expression per row, which takes minutes for the hands of a big tournament.
    """
    kept = [[getattr(row, name) for name in names] for row in rows]
    yield
    if not rows:
        return
    model = type(rows[0])
    fields = [model._meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        quote(model._meta.db_table),
        ", ".join(f"{quote(f.column)} = %s" for f in fields),
        quote(model._meta.pk.column),
    )
    params = []
    for row, values in zip(rows, kept, strict=True):
        for name, value in zip(names, values, strict=True):
            setattr(row, name, value)
        prepared = [f.get_db_prep_value(v, connection) for f, v in zip(fields, values, strict=True)]
        params.append([*prepared, row.pk])
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _object_id(
    object_type: str,
    ref: Any,
    tournament: Tournament,
    entries: list[Entry],
    matches: dict[str, Match],
    hands: dict[tuple[str, int], Hand],
) -> str:
    if object_type == "tournament":
        return str(tournament.pk)
    if ref is None:
        return ""
    if object_type == "entry":
        return str(entries[ref].pk)
    if object_type == "match":
        return str(matches[ref].pk)
    return str(hands[(ref[0], ref[1])].pk)
