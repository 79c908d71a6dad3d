"""Reading an archive: parsing it and checking every row strictly (types, ranges, choices,
references between rows, every hand through the engine) before anything is written.

Nothing here writes; the only query is whether the slug is free.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from engine import RuleSet, ScoringError, Side, resolve_rules
from scoring.loading import HandData
from scoring.models import Hand
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament

from . import sections
from .decision_rows import check_decisions
from .fields import Record, quote, read_field, read_json, read_list, read_text
from .schema import (
    AUDIT_FIELDS,
    BUILD_KEY,
    ENTRY_FIELDS,
    ENTRY_TEAM_FIELDS,
    FORMAT,
    HAND_FIELDS,
    HAND_OPTIONAL_FIELDS,
    MATCH_ENTRIES,
    MATCH_FIELDS,
    MATCH_OPTIONAL_FIELDS,
    MATCH_ROUTES,
    OPTIONAL_TOP_KEYS,
    PLAYER_FIELDS,
    PLAYER_OPTIONAL_FIELDS,
    READABLE_VERSIONS,
    TOP_KEYS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_USERS,
    VERSION,
    ArchiveError,
    map_sides,
)
from .stage_rows import check_match_stages, check_stages, rules_of
from .structure import check_bracket
from .teams import check_team, scored_boards


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse(text: str) -> Any:
    """The JSON document in ``text``; ArchiveError if it is not one."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ArchiveError(
            f"not a JSON document: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise ArchiveError("not a usable JSON document: nested too deeply") from None
    except ValueError as error:
        raise ArchiveError(f"not a usable JSON document: {error}") from None


@dataclass
class Plan:
    """A checked archive: model instances not saved yet, and what links them."""

    tournament: Tournament
    usernames: dict[str, list[str]]
    players: list[Player]
    entries: list[tuple[Entry, int]]
    matches: list[Match]
    sides: dict[str, tuple[int | None, int | None]]
    routes: dict[str, tuple[str | None, str | None]]
    hands: list[tuple[Hand, str, str | None]]
    audit: list[tuple[AuditEntry, str | None, Any]]
    stages: list[Any] = field(default_factory=list)  # archive.stage_rows.StagePlan
    stage_of: dict[str, int | None] = field(default_factory=dict)
    members: list[tuple[int, int, int]] = field(default_factory=list)
    """The teams' players: (entry index, player index, seat)."""
    decisions: list[Any] = field(default_factory=list)  # archive.decision_rows.DecisionPlan
    parts: dict[str, Any] = field(default_factory=dict)
    """The parts kept by apps above the archive, checked, by key (:mod:`.sections`)."""


def check_archive(
    data: Any,
    *,
    slug: str | None = None,
    replacing: int | None = None,
    known_hands: Collection[tuple[str, int]] = (),
) -> Plan:
    """Everything the archive says, checked (including every hand, by the engine).

    Only reads the database to see whether the slug is free (or is the tournament of id
    ``replacing``, whose content the archive is to replace). ``known_hands``: hands, as
    (match key, number), that the audit may name though the document leaves them out (a
    publishing change carries only the hands of the matches that changed).
    """
    doc = _check_document(data)
    values, rules, usernames = _check_tournament(doc["tournament"], slug, replacing)
    tournament = Tournament(**values)
    players = _check_players(doc["players"])
    entries, members = _check_entries(doc["entries"], len(players), rules.team_size)
    stages = check_stages(doc.data.get("stages", []), len(entries), tournament)
    matches, sides, routes = _check_matches(doc["matches"], len(entries))
    stage_of = check_match_stages(doc["matches"], matches, stages)
    withdrawn = {i for i, (entry, _player) in enumerate(entries) if entry.withdrawn}
    _check_bracket(matches, sides, routes, withdrawn)
    by_key = {match.key: match for match in matches}
    rules_for = {key: rules_of(by_key[key], n, stages, rules) for key, n in stage_of.items()}
    hands = _check_hands(doc["hands"], by_key, sides, rules_for)
    hand_keys = {(key, hand.number) for hand, key, _user in hands} | set(known_hands)
    audit_rows = _check_audit(doc["audit"], len(entries), by_key, hand_keys, len(stages))
    decisions = check_decisions(doc.data.get("decisions", []), by_key, len(entries))
    parts = sections.check(doc.data, len(entries))

    return Plan(
        tournament,
        usernames,
        players,
        entries,
        matches,
        sides,
        routes,
        hands,
        audit_rows,
        stages,
        stage_of,
        members,
        decisions,
        parts,
    )


def _check_document(data: Any) -> Record:
    """The archive's top level: an object of this format and version, with its keys."""
    if not isinstance(data, dict):
        raise ArchiveError("the archive must be a JSON object")
    if data.get("format") != FORMAT:
        raise ArchiveError(f"not a tournament archive (format should be {FORMAT!r})")
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise ArchiveError(
            f"archive version {quote(version)} is not supported (expected {VERSION} or less)"
        )
    if not isinstance(data.get(BUILD_KEY, ""), str):
        raise ArchiveError(f"archive.{BUILD_KEY} must be text, not {quote(data[BUILD_KEY])}")
    # Version 1 has no part kept by an app above the archive: such a key is unknown there.
    parts = sections.keys() if version >= 2 else ()
    return Record(data, "archive", TOP_KEYS, (*OPTIONAL_TOP_KEYS, *parts))


def _check_tournament(
    data: Any, slug: str | None, replacing: int | None = None
) -> tuple[dict[str, Any], RuleSet, dict[str, list[str]]]:
    """The tournament's field values (under ``slug`` if given, which must be free here),
    its rules, and the usernames of its owner, co-directors and scorekeepers."""
    info = Record(data, "tournament", TOURNAMENT_FIELDS + TOURNAMENT_USERS)
    values = info.fields(Tournament, TOURNAMENT_FIELDS)
    if not isinstance(values["rules"], dict):
        raise ArchiveError("tournament.rules must be an object (the rules snapshot)")
    try:
        rules = resolve_rules(values["rules"])
    except ScoringError as error:
        raise ArchiveError(f"tournament.rules: {error}") from None
    if slug is not None:
        values["slug"] = read_field(Tournament._meta.get_field("slug"), slug, "--slug")
    if not values["slug"]:
        raise ArchiveError("tournament.slug must not be empty")
    if Tournament.objects.filter(slug=values["slug"]).exclude(pk=replacing).exists():
        raise ArchiveError(
            f"a tournament with the slug {values['slug']!r} already exists here; "
            "import it under another one with --slug NEW"
        )
    usernames = {"owner": [info.username("owner", null=False)]}
    for role in ("co_directors", "scorekeepers"):
        names = read_list(info[role], info.at(role))
        usernames[role] = [read_text(name, f"{info.at(role)}[{i}]") for i, name in enumerate(names)]
    return values, rules, usernames


def _check_players(data: Any) -> list[Player]:
    """The archive's players; no two share a club id, or a name and email."""
    players = [_player(p, f"players[{i}]") for i, p in enumerate(read_list(data, "players"))]
    _check_players_distinct(players)
    return players


def _player(raw: Any, where: str) -> Player:
    record = Record(raw, where, PLAYER_FIELDS, PLAYER_OPTIONAL_FIELDS)
    values = record.fields(Player, PLAYER_FIELDS)
    for name in PLAYER_OPTIONAL_FIELDS:
        if name in raw:
            values[name] = read_field(Player._meta.get_field(name), raw[name], record.at(name))
    return Player(**values)


def _check_entries(
    data: Any, player_count: int, team_size: int = 1
) -> tuple[list[tuple[Entry, int]], list[tuple[int, int, int]]]:
    """Each entry with the index of its player, and the teams' members as (entry, player,
    seat) indexes; every player is entered exactly once (as an entry's player, or as a
    team's other player). In a team tournament every entry is a team of ``team_size``."""
    entries = []
    members: list[tuple[int, int, int]] = []
    for i, raw in enumerate(read_list(data, "entries")):
        record = Record(raw, f"entries[{i}]", ("player", *ENTRY_FIELDS), ENTRY_TEAM_FIELDS)
        player = record.index("player", player_count, null=False)
        assert player is not None
        entry = Entry(**record.fields(Entry, ENTRY_FIELDS))
        team = check_team(record.data, record.where, player, player_count, team_size)
        if team is not None:
            entry.team_name = team[0]
            members += [(i, member, seat) for seat, member in enumerate(team[1], start=1)]
        entries.append((entry, player))
    used = Counter(player for _entry, player in entries)
    used.update(player for _entry, player, seat in members if seat > 1)
    for i in range(player_count):
        if used[i] != 1:
            raise ArchiveError(f"players[{i}] must be entered exactly once, not {used[i]} times")
    _check_distinct([e.seed for e, _p in entries if e.seed is not None], "entries", "seed", "seeds")
    return entries, members


def _check_distinct(values: list[Any], where: str, name: str, plural: str) -> None:
    repeated = [value for value, count in Counter(values).items() if count > 1]
    if repeated:
        raise ArchiveError(f"{where}: two {plural} are {quote(repeated[0])} (each {name} once)")


def _check_players_distinct(players: list[Player]) -> None:
    _check_distinct([p.club_id for p in players if p.club_id], "players", "club id", "club ids")
    names = [(p.name.lower(), p.email.lower()) for p in players]
    _check_distinct(names, "players", "name and email", "players' names and emails")


def _check_matches(
    data: Any, entry_count: int
) -> tuple[list[Match], dict[str, tuple[int | None, int | None]], dict[str, Any]]:
    matches: list[Match] = []
    sides: dict[str, tuple[int | None, int | None]] = {}
    routes: dict[str, tuple[str | None, str | None]] = {}
    records = []
    for i, raw in enumerate(read_list(data, "matches")):
        record = Record(
            raw,
            f"matches[{i}]",
            MATCH_FIELDS + MATCH_ENTRIES + MATCH_ROUTES,
            ("stage", *MATCH_OPTIONAL_FIELDS),
        )
        match = Match(**record.fields(Match, MATCH_FIELDS))
        match.decided_on_time = raw.get("decided_on_time", False) is True
        if not match.key.isprintable():
            raise ArchiveError(f"{record.at('key')} must be printable: {quote(match.key)}")
        if match.key in sides:
            raise ArchiveError(f"{record.at('key')}: a second match {match.key!r}")
        a, b = record.index("side_a", entry_count), record.index("side_b", entry_count)
        if a is not None and a == b:
            raise ArchiveError(f"{record.where}: entry {a} plays on both sides")
        sides[match.key] = (a, b)
        matches.append(match)
        records.append(record)
    _check_distinct([m.token for m in matches], "matches", "token", "table-link tokens")
    for match, record in zip(matches, records, strict=True):
        targets = []
        for route, slot in (("next_match", "next_slot"), ("loser_next_match", "loser_next_slot")):
            target = record[route]
            if target is not None and (not isinstance(target, str) or target not in sides):
                raise ArchiveError(f"{record.at(route)} refers to no match: {quote(target)}")
            if target == match.key:
                raise ArchiveError(f"{record.at(route)}: a match cannot lead to itself")
            if (target is None) != (getattr(match, slot) == ""):
                raise ArchiveError(f"{record.at(slot)} does not fit {route}")
            targets.append(target)
        routes[match.key] = (targets[0], targets[1])
    return matches, sides, routes


def _check_bracket(
    matches: list[Match],
    sides: dict[str, tuple[int | None, int | None]],
    routes: dict[str, tuple[str | None, str | None]],
    withdrawn: set[int],
) -> None:
    """The bracket's shape (:mod:`archive.structure`): routes that only move on, byes,
    tokens, players where the results sent them."""
    problems = check_bracket(matches, sides, routes, withdrawn)
    if problems:
        index = {match.key: i for i, match in enumerate(matches)}
        first = problems[0]
        raise ArchiveError(f"matches[{index[first.match]}].{first.field}: {first.text}")


def _check_hands(
    data: Any,
    matches: dict[str, Match],
    sides: dict[str, tuple[int | None, int | None]],
    rules: dict[str, RuleSet],
) -> list[tuple[Hand, str, str | None]]:
    hands: list[tuple[Hand, str, str | None]] = []
    by_match: dict[str, list[Hand]] = {}
    for i, raw in enumerate(read_list(data, "hands")):
        record = Record(
            raw, f"hands[{i}]", ("match", *HAND_FIELDS, "entered_by"), HAND_OPTIONAL_FIELDS
        )
        key = record["match"]
        if not isinstance(key, str) or key not in matches:
            raise ArchiveError(f"{record.at('match')} refers to no match: {quote(key)}")
        hand = Hand(**record.fields(Hand, (*HAND_FIELDS, *HAND_OPTIONAL_FIELDS)))
        hands.append((hand, key, record.username("entered_by")))
        by_match.setdefault(key, []).append(hand)
    for key, rows in by_match.items():
        match = matches[key]
        rows.sort(key=lambda hand: hand.number)
        if [hand.number for hand in rows] != list(range(1, len(rows) + 1)):
            raise ArchiveError(f"hands of match {key} must be numbered 1 to {len(rows)}")
        if None in sides[key] or match.is_bye:
            raise ArchiveError(f"match {key} has hands but not two players")
        try:
            data_rows = []
            for number, hand in enumerate(rows, start=1):
                try:
                    data_rows.append(HandData.of(hand).cleaned())
                except ScoringError as error:
                    raise error.at_hand(number) from None
            dealer = Side(match.first_dealer) if match.first_dealer else None
            scored_hands = scored_boards(rules[key], [row.to_input() for row in data_rows], dealer)
        except (ScoringError, ValueError) as error:
            raise ArchiveError(f"match {key}: {error}") from None
        for hand, row, scored in zip(rows, data_rows, scored_hands, strict=True):
            hand.by, hand.knock_card, hand.cards = row.by, row.knock_card, row.cards
            # A hand with cards keeps the counts its cards give (the engine checked any given).
            hand.deadwood, hand.defender_deadwood = row.deadwood, row.defender_deadwood
            if row.cards is not None:
                hand.deadwood = scored.hand.deadwood
                hand.defender_deadwood = scored.hand.defender_deadwood
    return hands


def _check_audit(
    data: Any,
    entry_count: int,
    matches: dict[str, Match],
    hands: set[tuple[str, int]],
    stage_count: int = 0,
) -> list[tuple[AuditEntry, str | None, Any]]:
    rows = []
    for i, raw in enumerate(read_list(data, "audit")):
        record = Record(raw, f"audit[{i}]", (*AUDIT_FIELDS, "user", "object", "before", "after"))
        row = AuditEntry(**record.fields(AuditEntry, AUDIT_FIELDS))
        ref = None
        if record["object"] is not None:
            obj = Record(record["object"], record.at("object"), ("type", "ref"))
            row.object_type = read_field(
                AuditEntry._meta.get_field("object_type"), obj["type"], obj.at("type")
            )
            ref = _check_ref(obj, row.object_type, entry_count, matches, hands, stage_count)

        def entry_index(value: int, where: str = record.where) -> int:
            if not 0 <= value < entry_count:
                raise ArchiveError(f"{where}: side refers to no entry: {value}")
            return value

        for name in ("before", "after"):
            value = read_json(record[name], record.at(name))
            if value is not None and not isinstance(value, dict):
                raise ArchiveError(f"{record.at(name)} must be an object or null")
            setattr(row, name, map_sides(value, row.object_type, entry_index))
        rows.append((row, record.username("user"), ref))
    return rows


def _check_ref(
    obj: Record,
    object_type: str,
    entry_count: int,
    matches: dict[str, Match],
    hands: set[tuple[str, int]],
    stage_count: int,
) -> Any:
    ref = obj["ref"]
    if ref is None:
        return None
    ok = {
        "entry": lambda: type(ref) is int and 0 <= ref < entry_count,
        "match": lambda: isinstance(ref, str) and ref in matches,
        "stage": lambda: type(ref) is int and 1 <= ref <= stage_count,
        "hand": lambda: (
            isinstance(ref, list)
            and len(ref) == 2
            and isinstance(ref[0], str)
            and type(ref[1]) is int
            and (ref[0], ref[1]) in hands
        ),
    }.get(object_type)
    if ok is None or not ok():
        kind = object_type if object_type.isprintable() else repr(object_type)
        raise ArchiveError(f"{obj.at('ref')} refers to no {kind}: {quote(ref)}")
    return ref
