"""The tournament archive: one JSON document with everything about a tournament, and the
way back in (``manage.py import_tournament``).

The document (``FORMAT``, version ``VERSION``) holds the tournament with its rules
snapshot, the registry rows of its players, the entries, the matches, every hand and the
audit log. Rows refer to each other by stable references, never by database ids: an
entry is its index in ``entries`` (``players[i]`` is the player of ``entries[i]``), a
match is its key, a hand is its match key and number, a user is a username. Times are
UTC ISO 8601 with microseconds. The document carries no export time, so exporting,
importing into an empty database and exporting again gives the same document, byte for
byte.

In audit rows, ``object`` is ``{"type", "ref"}``: ``ref`` is the match key, the entry
index or ``[match key, hand number]``, and null for the tournament itself or an object
that no longer exists (a deleted hand). ``side_a``/``side_b`` inside the ``before`` and
``after`` of a match's audit row are entry indexes too.

Importing checks the whole document before writing anything, then writes it in one
transaction. Players are matched to the registry by club id, else by name and email
(ignoring case), else created. Users are matched by username; an unknown owner is
replaced by ``owner`` (else the first superuser), unknown co-directors and scorekeepers
are left out, and hands or audit rows by unknown users keep no user. A table-link token
already used on this installation is renewed.

What this module does not do: permission checks beyond the export view's, or checking
that stored match summaries agree with the hands (``manage.py verify_tournament`` does).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring.engine import ScoringError, Side, resolve_rules, score_match
from tournaments import audit
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament, new_token
from tournaments.permissions import can_direct

from .models import Hand
from .services import HandData

FORMAT = "ginclub-tournament"
VERSION = 1
TOP_KEYS = ("format", "version", "tournament", "players", "entries", "matches", "hands", "audit")

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "venue",
    "tables",
    "page_size",
    "language",
    "status",
    "rules",
    "rules_locked_at",
    "bracket_kind",
    "third_place",
    "consolation",
    "bracket_reset",
    "random_draw",
    "draw_seed",
    "created",
    "updated",
)
TOURNAMENT_USERS = ("owner", "co_directors", "scorekeepers")
PLAYER_FIELDS = ("name", "email", "phone", "club_id", "rating", "notes")
ENTRY_FIELDS = ("seed", "checked_in", "paid", "withdrawn", "registered_at")
MATCH_FIELDS = (
    "key",
    "section",
    "round",
    "position",
    "status",
    "table",
    "queued_at",
    "winner_side",
    "score_a",
    "score_b",
    "total_a",
    "total_b",
    "is_bye",
    "forfeit",
    "conditional",
    "token",
    "token_revoked",
    "next_slot",
    "loser_next_slot",
    "first_dealer",
    "started_at",
    "completed_at",
)
MATCH_ENTRIES = ("side_a", "side_b")
MATCH_ROUTES = ("next_match", "loser_next_match")
HAND_FIELDS = (
    "number",
    "kind",
    "by",
    "deadwood",
    "defender_deadwood",
    "knock_card",
    "entered_at",
    "updated_at",
    "entered_via",
)
AUDIT_FIELDS = ("at", "via", "action")

# Portable limits (PostgreSQL's column types; SQLite would store anything).
INT_RANGES = {
    "PositiveSmallIntegerField": (0, 2**15 - 1),
    "PositiveIntegerField": (0, 2**31 - 1),
    "IntegerField": (-(2**31), 2**31 - 1),
    "BigIntegerField": (-(2**63), 2**63 - 1),
}
MAX_JSON_DEPTH = 32


class ArchiveError(Exception):
    """An archive that cannot be imported; the message is one line for the user."""


# -- export ----------------------------------------------------------------------------------


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


def _sides(value: Any, object_type: str, convert: Any) -> Any:
    """``side_a``/``side_b`` in a match's audit snapshot, passed through ``convert``."""
    if object_type != "match" or not isinstance(value, dict):
        return value
    return {
        key: convert(item)
        if key in MATCH_ENTRIES and isinstance(item, int) and not isinstance(item, bool)
        else item
        for key, item in value.items()
    }


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict (see the module docstring)."""
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    index_of = {entry.pk: i for i, entry in enumerate(entries)}
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    key_of = {match.pk: match.key for match in matches}
    hands = list(
        Hand.objects.filter(match__tournament=tournament)
        .select_related("entered_by")
        .order_by("match_id", "number")
    )
    refs: dict[tuple[str, str], Any] = {("tournament", str(tournament.pk)): None}
    refs.update({("entry", str(pk)): i for pk, i in index_of.items()})
    refs.update({("match", str(pk)): key for pk, key in key_of.items()})
    refs.update({("hand", str(h.pk)): [key_of[h.match_id], h.number] for h in hands})

    def audit_row(row: AuditEntry) -> dict[str, Any]:
        return {
            **_row(row, AUDIT_FIELDS),
            "user": _username(row.user),
            "object": (
                {"type": row.object_type, "ref": refs.get((row.object_type, row.object_id))}
                if row.object_type
                else None
            ),
            "before": _sides(row.before, row.object_type, index_of.get),
            "after": _sides(row.after, row.object_type, index_of.get),
        }

    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            **_row(tournament, TOURNAMENT_FIELDS),
            "owner": _username(tournament.owner),
            "co_directors": sorted(u.get_username() for u in tournament.co_directors.all()),
            "scorekeepers": sorted(u.get_username() for u in tournament.scorekeepers.all()),
        },
        "players": [_row(entry.player, PLAYER_FIELDS) for entry in entries],
        "entries": [{"player": i, **_row(entry, ENTRY_FIELDS)} for i, entry in enumerate(entries)],
        "matches": [
            {
                **_row(match, MATCH_FIELDS),
                "side_a": index_of.get(match.side_a_id) if match.side_a_id else None,
                "side_b": index_of.get(match.side_b_id) if match.side_b_id else None,
                "next_match": key_of.get(match.next_match_id),
                "loser_next_match": key_of.get(match.loser_next_match_id),
            }
            for match in matches
        ],
        "hands": [
            {
                "match": key_of[hand.match_id],
                **_row(hand, HAND_FIELDS),
                "entered_by": _username(hand.entered_by),
            }
            for hand in hands
        ],
        "audit": [
            audit_row(row)
            for row in tournament.audit_entries.select_related("user").order_by("at", "pk")
        ],
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


@require_GET
@never_cache
def export_view(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/export.json``: the archive, for the tournament's directors only."""
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_direct(request.user, tournament):
        raise PermissionDenied
    response = HttpResponse(dumps(export_tournament(tournament)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


# -- reading an archive ----------------------------------------------------------------------


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


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ArchiveError(f"{where} must be text, not {_show(value)}")
    if "\x00" in value:
        raise ArchiveError(f"{where} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArchiveError(f"{where} is not valid Unicode text") from None
    return value


def _json_value(value: Any, where: str, depth: int = 0) -> Any:
    """Free-form JSON (an audit row's before/after) that every database can store."""
    if depth > MAX_JSON_DEPTH:
        raise ArchiveError(f"{where} is nested too deeply")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ArchiveError(f"{where} holds a number out of range")
        return value
    if isinstance(value, str):
        return _text(value, where)
    if isinstance(value, list):
        return [_json_value(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {
            _text(key, where): _json_value(item, f"{where}[{_show(key)}]", depth + 1)
            for key, item in value.items()
        }
    raise ArchiveError(f"{where} is not JSON")


def _field_value(model_field: models.Field, value: Any, where: str) -> Any:
    """``value`` checked strictly against a model field: type first, then Django's own
    validation (choices, lengths, ranges, email syntax)."""
    if value is None:
        if model_field.null:
            return None
        raise ArchiveError(f"{where} must not be null")
    kind = model_field.get_internal_type()
    if isinstance(model_field, models.JSONField):
        return value
    if isinstance(model_field, models.BooleanField):
        if not isinstance(value, bool):
            raise ArchiveError(f"{where} must be true or false, not {_show(value)}")
        return value
    if isinstance(model_field, models.IntegerField):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArchiveError(f"{where} must be a whole number, not {_show(value)}")
        low, high = INT_RANGES.get(kind, INT_RANGES["IntegerField"])
        if not low <= value <= high:
            raise ArchiveError(f"{where} is out of range: {_show(value)}")
    elif isinstance(model_field, models.DateTimeField):
        try:
            value = dt.datetime.fromisoformat(_text(value, where))
        except ValueError:
            raise ArchiveError(f"{where} is not a date and time: {_show(value)}") from None
        if value.tzinfo is None:
            raise ArchiveError(f"{where} has no time zone: {_show(value)}")
        value = value.astimezone(dt.UTC)
    elif isinstance(model_field, models.DateField):
        try:
            value = dt.date.fromisoformat(_text(value, where))
        except ValueError:
            raise ArchiveError(f"{where} is not a date: {_show(value)}") from None
    else:
        value = _text(value, where)
    try:
        return model_field.clean(value, None)
    except ValidationError as error:
        raise ArchiveError(f"{where}: {' '.join(error.messages)}") from None


class _Record:
    """One JSON object of the archive, read strictly: no missing or unknown keys."""

    def __init__(self, data: Any, where: str, keys: Iterable[str]) -> None:
        if not isinstance(data, dict):
            raise ArchiveError(f"{where} must be an object, not {_show(data)}")
        keys = set(keys)
        missing = sorted(keys - set(data))
        if missing:
            raise ArchiveError(f"{where}: {', '.join(missing)} missing")
        unknown = sorted(str(key) for key in set(data) - keys)
        if unknown:
            raise ArchiveError(f"{where}: unknown key {_show(', '.join(unknown))}")
        self.data = data
        self.where = where

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def at(self, key: str) -> str:
        return f"{self.where}.{key}"

    def fields(self, model: type[models.Model], names: Iterable[str]) -> dict[str, Any]:
        return {
            name: _field_value(model._meta.get_field(name), self.data[name], self.at(name))
            for name in names
        }

    def index(self, key: str, size: int, *, null: bool = True) -> int | None:
        value = self.data[key]
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
            raise ArchiveError(f"{self.at(key)} refers to no entry: {_show(value)}")
        return value

    def username(self, key: str, *, null: bool = True) -> str | None:
        value = self.data[key]
        if value is None and null:
            return None
        return _text(value, self.at(key))


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise ArchiveError(f"{where} must be a list, not {_show(data)}")
    return data


@dataclass
class _Plan:
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


def check_archive(data: Any, *, slug: str | None = None) -> _Plan:
    """Everything the archive says, checked (including every hand, by the engine).

    Only reads the database to see whether the slug is free.
    """
    if not isinstance(data, dict):
        raise ArchiveError("the archive must be a JSON object")
    if data.get("format") != FORMAT:
        raise ArchiveError(f"not a tournament archive (format should be {FORMAT!r})")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise ArchiveError(
            f"archive version {_show(version)} is not supported (expected {VERSION})"
        )
    doc = _Record(data, "archive", TOP_KEYS)

    info = _Record(doc["tournament"], "tournament", TOURNAMENT_FIELDS + TOURNAMENT_USERS)
    values = info.fields(Tournament, TOURNAMENT_FIELDS)
    if not isinstance(values["rules"], dict):
        raise ArchiveError("tournament.rules must be an object (the rules snapshot)")
    try:
        rules = resolve_rules(values["rules"])
    except ScoringError as error:
        raise ArchiveError(f"tournament.rules: {error}") from None
    if slug is not None:
        values["slug"] = _field_value(Tournament._meta.get_field("slug"), slug, "--slug")
    if not values["slug"]:
        raise ArchiveError("tournament.slug must not be empty")
    if Tournament.objects.filter(slug=values["slug"]).exists():
        raise ArchiveError(
            f"a tournament with the slug {values['slug']!r} already exists here; "
            "import it under another one with --slug NEW"
        )
    usernames = {"owner": [info.username("owner", null=False)]}
    for role in ("co_directors", "scorekeepers"):
        names = _list(info[role], info.at(role))
        usernames[role] = [_text(name, f"{info.at(role)}[{i}]") for i, name in enumerate(names)]

    players_data = _list(doc["players"], "players")
    players = [
        Player(**_Record(p, f"players[{i}]", PLAYER_FIELDS).fields(Player, PLAYER_FIELDS))
        for i, p in enumerate(players_data)
    ]
    _check_players_distinct(players)

    entries = []
    for i, raw in enumerate(_list(doc["entries"], "entries")):
        record = _Record(raw, f"entries[{i}]", ("player", *ENTRY_FIELDS))
        player = record.index("player", len(players), null=False)
        entries.append((Entry(**record.fields(Entry, ENTRY_FIELDS)), player))
    used = Counter(player for _entry, player in entries)
    for i in range(len(players)):
        if used[i] != 1:
            raise ArchiveError(f"players[{i}] must be entered exactly once, not {used[i]} times")
    _check_distinct([e.seed for e, _p in entries if e.seed is not None], "entries", "seed", "seeds")

    matches, sides, routes = _check_matches(doc["matches"], len(entries))
    by_key = {match.key: match for match in matches}
    hands = _check_hands(doc["hands"], by_key, sides, rules)
    hand_keys = {(key, hand.number) for hand, key, _user in hands}
    audit_rows = _check_audit(doc["audit"], len(entries), by_key, hand_keys)

    tournament = Tournament(**values)
    return _Plan(tournament, usernames, players, entries, matches, sides, routes, hands, audit_rows)


def _check_distinct(values: list[Any], where: str, name: str, plural: str) -> None:
    repeated = [value for value, count in Counter(values).items() if count > 1]
    if repeated:
        raise ArchiveError(f"{where}: two {plural} are {_show(repeated[0])} (each {name} once)")


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
    for i, raw in enumerate(_list(data, "matches")):
        record = _Record(raw, f"matches[{i}]", MATCH_FIELDS + MATCH_ENTRIES + MATCH_ROUTES)
        match = Match(**record.fields(Match, MATCH_FIELDS))
        if not match.key.isprintable():
            raise ArchiveError(f"{record.at('key')} must be printable: {_show(match.key)}")
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
                raise ArchiveError(f"{record.at(route)} refers to no match: {_show(target)}")
            if target == match.key:
                raise ArchiveError(f"{record.at(route)}: a match cannot lead to itself")
            if (target is None) != (getattr(match, slot) == ""):
                raise ArchiveError(f"{record.at(slot)} does not fit {route}")
            targets.append(target)
        routes[match.key] = (targets[0], targets[1])
    return matches, sides, routes


def _check_hands(
    data: Any,
    matches: dict[str, Match],
    sides: dict[str, tuple[int | None, int | None]],
    rules: Any,
) -> list[tuple[Hand, str, str | None]]:
    hands: list[tuple[Hand, str, str | None]] = []
    by_match: dict[str, list[Hand]] = {}
    for i, raw in enumerate(_list(data, "hands")):
        record = _Record(raw, f"hands[{i}]", ("match", *HAND_FIELDS, "entered_by"))
        key = record["match"]
        if not isinstance(key, str) or key not in matches:
            raise ArchiveError(f"{record.at('match')} refers to no match: {_show(key)}")
        hand = Hand(**record.fields(Hand, HAND_FIELDS))
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
            data_rows = [HandData.of(hand).cleaned() for hand in rows]
            dealer = Side(match.first_dealer) if match.first_dealer else None
            score_match(rules, [row.to_input() for row in data_rows], dealer)
        except (ScoringError, ValueError) as error:
            raise ArchiveError(f"match {key}: {error}") from None
        for hand, row in zip(rows, data_rows, strict=True):
            hand.by, hand.deadwood, hand.knock_card = row.by, row.deadwood, row.knock_card
            hand.defender_deadwood = row.defender_deadwood
    return hands


def _check_audit(
    data: Any, entry_count: int, matches: dict[str, Match], hands: set[tuple[str, int]]
) -> list[tuple[AuditEntry, str | None, Any]]:
    rows = []
    for i, raw in enumerate(_list(data, "audit")):
        record = _Record(raw, f"audit[{i}]", (*AUDIT_FIELDS, "user", "object", "before", "after"))
        row = AuditEntry(**record.fields(AuditEntry, AUDIT_FIELDS))
        ref = None
        if record["object"] is not None:
            obj = _Record(record["object"], record.at("object"), ("type", "ref"))
            row.object_type = _field_value(
                AuditEntry._meta.get_field("object_type"), obj["type"], obj.at("type")
            )
            ref = _check_ref(obj, row.object_type, entry_count, matches, hands)

        def entry_index(value: int, where: str = record.where) -> int:
            if not 0 <= value < entry_count:
                raise ArchiveError(f"{where}: side refers to no entry: {value}")
            return value

        for name in ("before", "after"):
            value = _json_value(record[name], record.at(name))
            if value is not None and not isinstance(value, dict):
                raise ArchiveError(f"{record.at(name)} must be an object or null")
            setattr(row, name, _sides(value, row.object_type, entry_index))
        rows.append((row, record.username("user"), ref))
    return rows


def _check_ref(
    obj: _Record,
    object_type: str,
    entry_count: int,
    matches: dict[str, Match],
    hands: set[tuple[str, int]],
) -> Any:
    ref = obj["ref"]
    if ref is None:
        return None
    ok = {
        "entry": lambda: type(ref) is int and 0 <= ref < entry_count,
        "match": lambda: isinstance(ref, str) and ref in matches,
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
        raise ArchiveError(f"{obj.at('ref')} refers to no {kind}: {_show(ref)}")
    return ref


# -- importing -------------------------------------------------------------------------------


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


def _users(plan: _Plan) -> dict[str, Any]:
    User = get_user_model()
    names = {name for group in plan.usernames.values() for name in group}
    names |= {user for _hand, _key, user in plan.hands if user}
    names |= {user for _row, user, _ref in plan.audit if user}
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


def _registry_players(players: list[Player]) -> tuple[list[Player], list[Player]]:
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
        problem = str(error).strip().splitlines()[0] if str(error).strip() else "refused"
        raise ArchiveError(f"the archive does not fit this database: {problem}") from None


def _write(plan: _Plan, owner: str | None) -> ImportReport:
    users = _users(plan)
    tournament = plan.tournament
    report = ImportReport(tournament)
    owner_user = users.get(plan.usernames["owner"][0])
    if owner_user is None:
        owner_user = _default_owner(owner)
        report.owner_replaced = plan.usernames["owner"][0]
    elif owner is not None:
        _default_owner(owner)  # a misspelt --owner is an error even when not needed
    tournament.owner = owner_user
    created, updated = tournament.created, tournament.updated
    tournament.save()
    for role in ("co_directors", "scorekeepers"):
        names = plan.usernames[role]
        report.unknown_users |= {name for name in names if name not in users}
        getattr(tournament, role).set([users[name] for name in names if name in users])

    registry, new_players = _registry_players(plan.players)
    report.new_players = len(new_players)
    entries = [entry for entry, _player in plan.entries]
    for entry, player in plan.entries:
        entry.tournament, entry.player = tournament, registry[player]
    with _times_kept(entries, ["registered_at"]):
        Entry.objects.bulk_create(entries)

    taken = set(
        Match.objects.filter(token__in=[m.token for m in plan.matches]).values_list(
            "token", flat=True
        )
    )
    for match in plan.matches:
        match.tournament = tournament
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

    hands = [hand for hand, _key, _user in plan.hands]
    for hand, key, user in plan.hands:
        hand.match = by_key[key]
        hand.entered_by = users.get(user) if user else None
        if user and user not in users:
            report.unknown_users.add(user)
    with _times_kept(hands, ["entered_at", "updated_at"]):
        Hand.objects.bulk_create(hands, batch_size=500)
    hand_of = {(key, hand.number): hand for hand, key, _user in plan.hands}

    rows = []
    for row, user, ref in plan.audit:
        row.tournament = tournament
        row.user = users.get(user) if user else None
        if user and user not in users:
            report.unknown_users.add(user)
        row.object_id = _object_id(row.object_type, ref, tournament, entries, by_key, hand_of)
        row.before = _sides(row.before, row.object_type, lambda i: entries[i].pk)
        row.after = _sides(row.after, row.object_type, lambda i: entries[i].pk)
        rows.append(row)
    AuditEntry.objects.bulk_create(rows, batch_size=500)
    Tournament.objects.filter(pk=tournament.pk).update(created=created, updated=updated)
    tournament.created, tournament.updated = created, updated

    report.entries = len(entries)
    report.matches, report.hands, report.audit = len(plan.matches), len(hands), len(rows)
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


@contextlib.contextmanager
def _times_kept(rows: list[Any], names: list[str]) -> Iterator[None]:
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
