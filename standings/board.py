"""What the public pages draw, as plain data: the bracket, the round-robin cross-table and
the tables in play.

Each function takes matches already loaded (sides and players with ``select_related``)
and, for the tables, the engine's sheets; it makes no queries and is linear in the
number of matches, so a 256-player bracket costs four times a 64-player one. The
templates under ``templates/public/`` turn these dataclasses into HTML.

What this module does not do: load anything, compute standings (:mod:`standings.standings`)
or know about requests and htmx (:mod:`public.views.tournament`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from engine import MatchSheet, Side
from standings.standings import last_rounds
from standings.stats import player_page, seed_in
from tournaments.match_names import round_title
from tournaments.models import Match

LIVE = ("in_play", "awaiting_confirmation")
AT_TABLE = ("ready", "in_play", "awaiting_confirmation")
DISPLAY_MAX_BOXES = 8
"""The projector draws only the rounds with at most this many matches (the late ones)."""


# -- the bracket as drawn --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SlotView:
    name: str = ""
    seed: int | None = None
    score: int | None = None
    won: bool = False
    lost: bool = False
    placeholder: str = ""


@dataclass(frozen=True, slots=True)
class MatchBox:
    match_id: int
    key: str
    status: str
    table: int | None
    a: SlotView
    b: SlotView
    is_bye: bool = False
    skipped: bool = False
    forfeit: bool = False
    conditional: bool = False

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def slots(self) -> tuple[SlotView, SlotView]:
        return (self.a, self.b)

    @property
    def score_text(self) -> str:
        """ "3–1" once the match has started, else ""."""
        if self.a.score is None or self.b.score is None:
            return ""
        return f"{self.a.score}–{self.b.score}"

    @property
    def linkable(self) -> bool:
        return not self.is_bye and not self.skipped and self.a.name != "" and self.b.name != ""


@dataclass(frozen=True, slots=True)
class RoundColumn:
    title: str
    boxes: tuple[MatchBox, ...]
    join: str = ""
    """How this round's boxes connect to the next round's: "pairs", "straight" or ""."""
    incoming: bool = False
    """Whether the previous round's lines reach this one."""


@dataclass(frozen=True, slots=True)
class BracketSection:
    key: str
    title: str
    rounds: tuple[RoundColumn, ...]

    @property
    def box_count(self) -> int:
        return sum(len(r.boxes) for r in self.rounds)


SECTION_GROUPS = (
    ("winners", ("winners",)),
    ("losers", ("losers",)),
    ("final", ("final", "reset")),
    ("third_place", ("third_place",)),
    ("consolation", ("consolation",)),
)


def _section_title(key: str, double: bool) -> str:
    return {
        "winners": _("Winners' bracket") if double else _("Main bracket"),
        "losers": _("Losers' bracket"),
        "final": _("Finals"),
        "third_place": _("Third-place match"),
        "consolation": _("Consolation bracket"),
    }[key]


def feeding(matches: Sequence[Match]) -> dict[tuple[int, str], tuple[Match, str]]:
    """(match id, slot) -> (the match whose result fills it, "winner" or "loser")."""
    found: dict[tuple[int, str], tuple[Match, str]] = {}
    for m in matches:
        if m.next_match_id is not None:
            found[(m.next_match_id, m.next_slot)] = (m, "winner")
        if m.loser_next_match_id is not None:
            found[(m.loser_next_match_id, m.loser_next_slot)] = (m, "loser")
    return found


def feeders(matches: Sequence[Match]) -> dict[tuple[int, str], str]:
    """(match id, slot) -> "Winner of W1-2" for the slots other matches feed."""
    found: dict[tuple[int, str], str] = {}
    for slot, (m, kind) in feeding(matches).items():
        if kind == "winner":
            found[slot] = _("Winner of %(match)s") % {"match": m.key}
        else:
            found[slot] = _("Loser of %(match)s") % {"match": m.key}
    return found


def _slot(match: Match, side: str, feeders: dict[tuple[int, str], str]) -> SlotView:
    entry = match.side_a if side == "A" else match.side_b
    decided = match.status == "complete" and bool(match.winner_side)
    if entry is None:
        if match.is_bye:
            placeholder = _("Bye")
        else:
            placeholder = feeders.get((match.pk, side), _("To be decided"))
        return SlotView(placeholder=placeholder)
    started = match.status in (*LIVE, "complete") and not match.is_bye
    return SlotView(
        name=entry.name,
        seed=seed_in(match, entry),
        score=(match.score_a if side == "A" else match.score_b) if started else None,
        won=decided and match.winner_side == side,
        lost=decided and match.winner_side != side,
    )


def match_box(match: Match, feeders: dict[tuple[int, str], str]) -> MatchBox:
    return MatchBox(
        match_id=match.pk,
        key=match.key,
        status=match.status,
        table=match.table,
        a=_slot(match, "A", feeders),
        b=_slot(match, "B", feeders),
        is_bye=match.is_bye,
        skipped=match.is_skipped,
        forfeit=match.forfeit,
        conditional=match.conditional,
    )


def _join(count: int, next_count: int | None) -> str:
    if next_count is None:
        return ""
    if count == 2 * next_count:
        return "pairs"
    return "straight" if count == next_count else ""


def bracket_sections(matches: Sequence[Match], *, double: bool) -> list[BracketSection]:
    """The elimination bracket as columns of rounds, section by section; linear in size."""
    placeholders = feeders(matches)
    last = last_rounds(matches)
    by_section: dict[str, dict[int, list[Match]]] = {}
    for match in matches:
        by_section.setdefault(match.section, {}).setdefault(match.round, []).append(match)
    sections = []
    for key, members in SECTION_GROUPS:
        columns: list[tuple[str, list[Match]]] = []
        for section in members:
            for round_, group in sorted(by_section.get(section, {}).items()):
                title = round_title(section, round_, last[section], double=double)
                if section == "reset":
                    title = _("Reset (if needed)")
                elif section == "third_place":
                    title = ""  # the section's title says it
                columns.append((title, sorted(group, key=lambda m: m.position)))
        if not columns:
            continue
        counts = [len(group) for _title, group in columns]
        joins = [
            _join(n, counts[i + 1] if i + 1 < len(counts) else None) for i, n in enumerate(counts)
        ]
        if key == "final" and len(columns) == 2 and columns[1][1][0].is_skipped:
            joins[0] = ""  # no line into a reset that was not needed
        rounds = tuple(
            RoundColumn(
                title,
                tuple(match_box(m, placeholders) for m in group),
                joins[i],
                incoming=i > 0 and joins[i - 1] != "",
            )
            for i, (title, group) in enumerate(columns)
        )
        sections.append(BracketSection(key, _section_title(key, double), rounds))
    return sections


def late_rounds(section: BracketSection, limit: int = DISPLAY_MAX_BOXES) -> BracketSection:
    """The section from its first round of at most ``limit`` matches on (the projector)."""
    rounds = section.rounds
    while len(rounds) > 1 and len(rounds[0].boxes) > limit:
        rounds = rounds[1:]
    if rounds and rounds[0].incoming:
        first = rounds[0]
        rounds = (RoundColumn(first.title, first.boxes, first.join), *rounds[1:])
    return BracketSection(section.key, section.title, rounds)


# -- round robin -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrossCell:
    match_id: int | None = None
    text: str = ""
    outcome: str = ""
    """"win", "loss", "live", "todo", "self" or "" (no match)."""


@dataclass(frozen=True, slots=True)
class CrossRow:
    number: int
    name: str
    seed: int | None
    cells: tuple[CrossCell, ...]
    player_id: int | None = None
    """For the link to the club player page (None: hidden)."""


def cross_table(matches: Sequence[Match], players: Sequence[Any]) -> list[CrossRow]:
    """Everyone against everyone, rows in seed order; a cell reads from its row's side."""
    pairs: dict[tuple[int, int], Match] = {}
    for m in matches:
        if m.side_a_id is not None and m.side_b_id is not None:
            pairs[(m.side_a_id, m.side_b_id)] = m
    rows = []
    for number, player in enumerate(players, start=1):
        cells = []
        for other in players:
            if other.entry_id == player.entry_id:
                cells.append(CrossCell(outcome="self"))
                continue
            match = pairs.get((player.entry_id, other.entry_id))
            side = "A"
            if match is None:
                match, side = pairs.get((other.entry_id, player.entry_id)), "B"
            cells.append(_cross_cell(match, side))
        page = getattr(player, "player_id", None)
        rows.append(CrossRow(number, player.name, player.seed, tuple(cells), page))
    return rows


def _cross_cell(match: Match | None, side: str) -> CrossCell:
    if match is None:
        return CrossCell()
    mine, theirs = (match.score_a, match.score_b) if side == "A" else (match.score_b, match.score_a)
    if match.status == "complete" and match.winner_side:
        outcome = "win" if match.winner_side == side else "loss"
        text = _("w/o") if match.forfeit and not (mine or theirs) else f"{mine}–{theirs}"
        return CrossCell(match.pk, text, outcome)
    if match.status in LIVE:
        return CrossCell(match.pk, f"{mine}–{theirs}", "live")
    return CrossCell(match.pk, "", "todo")


# -- tables in play --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveTable:
    """A match at a table: games won, and the points of the game (or columns) in play."""

    match_id: int
    table: int | None
    round: str
    status: str
    a_name: str
    b_name: str
    a_seed: int | None
    b_seed: int | None
    games_a: int = 0
    games_b: int = 0
    game_number: int = 1
    points_a: int = 0
    points_b: int = 0
    columns: tuple[tuple[int, int, int, str], ...] = ()
    """Hollywood: (column, points A, points B, winner side or "") for every column."""
    hands: int = 0
    a_page: int | None = None
    b_page: int | None = None
    """The club players whose pages the names link to (None: a team, a hidden player)."""
    expected: datetime | None = None
    """At a table: when it is likely done; queued: when it should get a table
    (:mod:`standings.tables`; None: no estimate, or not asked for)."""

    @property
    def awaiting(self) -> bool:
        return self.status == "awaiting_confirmation"


def live_tables(
    matches: Sequence[Match], sheets: dict[int, MatchSheet], *, double: bool = False
) -> tuple[list[LiveTable], list[LiveTable]]:
    """(matches at a table by table number, matches waiting for a table)."""
    last = last_rounds(matches)
    seated: list[LiveTable] = []
    queued: list[LiveTable] = []
    for match in matches:
        if match.status not in AT_TABLE or match.side_a is None or match.side_b is None:
            continue
        live = live_table(match, sheets.get(match.pk), last, double=double)
        (seated if match.table else queued).append(live)
    seated.sort(key=lambda t: t.table or 0)
    return seated, queued


def live_table(
    match: Match, sheet: MatchSheet | None, last: dict[str, int], *, double: bool = False
) -> LiveTable:
    """One match at a table (both players known), its score read off its engine sheet;
    ``last`` is :func:`standings.standings.last_rounds` of the tournament's matches."""
    assert match.side_a is not None and match.side_b is not None
    extra: dict[str, Any] = {}
    if sheet is not None:
        extra["hands"] = len(sheet.hands)
        extra["games_a"], extra["games_b"] = sheet.match.won.a, sheet.match.won.b
        if sheet.rules.is_hollywood:
            extra["columns"] = tuple(
                (g.number, g.points.a, g.points.b, g.winner.value if g.winner else "")
                for g in sheet.games
            )
        else:
            game = sheet.current_game or sheet.games[-1]
            extra["game_number"] = game.number
            extra["points_a"], extra["points_b"] = game.points[Side.A], game.points[Side.B]
    return LiveTable(
        match_id=match.pk,
        table=match.table,
        round=round_title(match.section, match.round, last.get(match.section, 0), double=double),
        status=match.status,
        a_name=match.side_a.name,
        b_name=match.side_b.name,
        a_seed=seed_in(match, match.side_a),
        b_seed=seed_in(match, match.side_b),
        a_page=player_page(match.side_a),
        b_page=player_page(match.side_b),
        **extra,
    )
