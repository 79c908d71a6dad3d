"""What a club player's public page shows, loaded in a fixed number of queries.

Tournaments played with placings, every match with its score, head-to-head against each
opponent, statistics over a period and the rating history. Names only: never the email,
phone, notes or club id. Queries do not grow with the number of tournaments: the
player's entries, every match of those tournaments (placings need the whole bracket), the
hands of the player's own matches, and the rating history (plus the rating check).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from engine import Side
from scoring.loading import load_inputs, score_matches
from standings.overall import overall
from standings.standings import compute
from tournaments.models import Entry, Match, Player, Stage, Tournament
from tournaments.stages.results import results_of_stages

from . import ratings
from .chart import Chart, rating_chart
from .models import RatingChange
from .rating import START_MU, START_SIGMA, provisional, shown, spread
from .stats import CareerStats, add_sheet

PRIVATE = ("email", "phone", "notes", "club_id", "created_by", "rating")


@dataclass(frozen=True, slots=True)
class Played:
    """One tournament the player entered."""

    tournament: Tournament
    place: int | None
    place_label: str
    progress: str
    matches_won: int
    matches_played: int
    rating_change: int | None
    out_in: str = ""
    """A staged tournament's earlier stage the player went out in ("" when the player
    reached its last stage, or it had one bracket)."""


@dataclass(frozen=True, slots=True)
class MatchLine:
    match: Match
    tournament: Tournament
    opponent_id: int
    opponent: str
    opponent_hidden: bool
    games_for: int
    games_against: int
    points_for: int
    points_against: int
    won: bool | None
    """None while the match is not decided."""
    rating_change: int | None


@dataclass(slots=True)
class HeadToHead:
    opponent_id: int
    opponent: str
    hidden: bool
    played: int = 0
    won: int = 0
    games_for: int = 0
    games_against: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    tournament: str
    opponent: str
    won: bool
    rating: int
    uncertainty: int
    change: int


@dataclass
class PlayerPage:
    player: Player
    tournaments: list[Played]
    matches: list[MatchLine]
    head_to_head: list[HeadToHead]
    stats: CareerStats
    period_from: datetime.date | None
    period_to: datetime.date | None
    rating: int | None
    uncertainty: int | None
    history: list[HistoryPoint] = field(default_factory=list)
    chart: Chart | None = None
    provisional: bool = False
    """The rating is still uncertain (:func:`club.rating.provisional`)."""


def _side(match: Match, entry_ids: set[int]) -> str:
    return "A" if match.side_a_id in entry_ids else "B"


def load(
    player: Player,
    *,
    period_from: datetime.date | None = None,
    period_to: datetime.date | None = None,
) -> PlayerPage:
    """The page of ``player`` (already checked visible); statistics over the period."""
    ratings.ensure_current()
    entries = _entries(player)
    entry_ids = {entry.pk for entry in entries}
    by_tournament, staged = _tournament_matches(entries)
    own = [
        m
        for matches in by_tournament.values()
        for m in matches
        if (m.side_a_id in entry_ids or m.side_b_id in entry_ids)
        and not m.is_bye
        and m.has_both_sides
    ]
    history = _rating_history(player)
    change_of = {row.match_id: shown(row.mu_after) - shown(row.mu_before) for row in history}
    record = _record(own, entry_ids, change_of, period_from, period_to)
    played = _tournaments_played(entries, by_tournament, staged, history, change_of)
    return _page(player, played, record, history, change_of, period_from, period_to)


def _entries(player: Player) -> list[Entry]:
    """The player's own entries (no teams) in tournaments already public, latest first
    (one query)."""
    return list(
        Entry.objects.filter(player=player, team_name="")  # a player's own record: no teams
        .exclude(tournament__status=Tournament.Status.DRAFT)  # not public yet
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament__pk")
    )


def _tournament_matches(
    entries: list[Entry],
) -> tuple[dict[int, list[Match]], dict[int, list[Stage]]]:
    """Every match of the tournaments of ``entries`` (placings need the whole bracket),
    players' names only, by tournament id in bracket order, each with its tournament and
    stage attached; and the stages of those played in stages (two queries, one without
    stages)."""
    tournament_ids = [entry.tournament_id for entry in entries]
    private = [f"{side}__player__{name}" for side in ("side_a", "side_b") for name in PRIVATE]
    every = list(
        Match.objects.filter(tournament_id__in=tournament_ids)
        .select_related("side_a__player", "side_b__player")
        .defer(*private)
        .order_by("tournament_id", "round", "section", "position", "pk")
    )
    tournaments = {entry.tournament_id: entry.tournament for entry in entries}
    by_tournament: dict[int, list[Match]] = defaultdict(list)
    staged = _stages(every)
    stage_of = {stage.pk: stage for stages in staged.values() for stage in stages}
    for match in every:
        match.tournament = tournaments[match.tournament_id]  # loaded already: no query
        if match.stage_id:
            match.stage = stage_of[match.stage_id]  # its rules: a longer final's, say
        by_tournament[match.tournament_id].append(match)
    return by_tournament, staged


def _rating_history(player: Player) -> list[RatingChange]:
    """The player's rating changes in the order played, with opponent and tournament
    names (one query)."""
    return list(
        RatingChange.objects.filter(player=player)
        .select_related("opponent", "tournament")
        .only("opponent__name", "tournament__name", *_HISTORY_FIELDS)
        .order_by("sequence")
    )


@dataclass
class _Record:
    """The player's own matches folded: one line each (latest first), the head-to-head
    against each opponent, and the statistics over the period."""

    lines: list[MatchLine] = field(default_factory=list)
    meetings: dict[int, HeadToHead] = field(default_factory=dict)
    stats: CareerStats = field(default_factory=CareerStats)


def _record(
    own: list[Match],
    entry_ids: set[int],
    change_of: dict[int, int],
    period_from: datetime.date | None,
    period_to: datetime.date | None,
) -> _Record:
    """Each of the player's own matches, latest first, as a line, a meeting and (in the
    period, once scored) statistics; the hands in one query, none without a match."""
    inputs = load_inputs(match__in=[m.pk for m in own]) if own else {}
    record = _Record()
    for match in sorted(own, key=_played_order, reverse=True):
        tournament = match.tournament
        mine = _side(match, entry_ids)
        theirs = "B" if mine == "A" else "A"
        opponent = match.entry(theirs).player
        decided = match.status == Match.Status.COMPLETE and bool(match.winner_side)
        won = match.winner_side == mine if decided else None
        games = (match.score_a, match.score_b) if mine == "A" else (match.score_b, match.score_a)
        points = (match.total_a, match.total_b) if mine == "A" else (match.total_b, match.total_a)
        record.lines.append(
            MatchLine(
                match,
                tournament,
                opponent.pk,
                opponent.name,
                opponent.hidden,
                *games,
                *points,
                won,
                change_of.get(match.pk),
            )
        )
        if decided:
            meeting = record.meetings.setdefault(
                opponent.pk, HeadToHead(opponent.pk, opponent.name, opponent.hidden)
            )
            meeting.played += 1
            meeting.won += bool(won)
            meeting.games_for += games[0]
            meeting.games_against += games[1]
        in_period = (period_from is None or tournament.date >= period_from) and (
            period_to is None or tournament.date <= period_to
        )
        if in_period and match.pk in inputs:
            sheet = score_matches(match.ruleset, [match], inputs).get(match.pk)
            if sheet is not None:
                add_sheet(record.stats, sheet, Side(mine))
    return record


def _tournaments_played(
    entries: list[Entry],
    by_tournament: dict[int, list[Match]],
    staged: dict[int, list[Stage]],
    history: list[RatingChange],
    change_of: dict[int, int],
) -> list[Played]:
    """Each tournament of ``entries``, latest first, with the place and what its matches
    changed in the rating (no query)."""
    tournament_change: dict[int, int] = defaultdict(int)
    for row in history:
        tournament_change[row.tournament_id] += change_of[row.match_id]
    return [
        _played(entry, by_tournament, staged, tournament_change.get(entry.tournament_id))
        for entry in entries
    ]


def _page(
    player: Player,
    played: list[Played],
    record: _Record,
    history: list[RatingChange],
    change_of: dict[int, int],
    period_from: datetime.date | None,
    period_to: datetime.date | None,
) -> PlayerPage:
    """The page: the folds above, the current rating and its history with the chart."""
    points = [(START_MU, 2 * START_SIGMA)] + [(r.mu_after, 2 * r.sigma_after) for r in history]
    last = history[-1] if history else None
    return PlayerPage(
        player=player,
        tournaments=played,
        matches=record.lines,
        head_to_head=sorted(record.meetings.values(), key=lambda h: (-h.played, h.opponent)),
        stats=record.stats,
        period_from=period_from,
        period_to=period_to,
        rating=shown(last.mu_after) if last else None,
        uncertainty=spread(last.sigma_after) if last else None,
        provisional=provisional(last.sigma_after) if last else False,
        history=[
            HistoryPoint(
                r.tournament.name,
                r.opponent.name,
                r.won,
                shown(r.mu_after),
                spread(r.sigma_after),
                change_of[r.match_id],
            )
            for r in history
        ],
        chart=rating_chart(points),
    )


def _stages(matches: list[Match]) -> dict[int, list[Stage]]:
    """The stages of the tournaments played in stages, by tournament id (one query; none
    when no match belongs to a stage)."""
    if not any(m.stage_id for m in matches):
        return {}
    ids = {m.tournament_id for m in matches if m.stage_id}
    found: dict[int, list[Stage]] = defaultdict(list)
    for stage in Stage.objects.filter(tournament_id__in=ids).order_by("tournament_id", "number"):
        found[stage.tournament_id].append(stage)
    return found


def _played(
    entry: Entry,
    by_tournament: dict[int, list[Match]],
    staged: dict[int, list[Stage]],
    change: int | None,
) -> Played:
    """Where ``entry`` finished (or stands) in its tournament: the same place and
    progress as the tournament's standings (a staged event's ranks every entrant)."""
    tournament = entry.tournament
    matches = by_tournament.get(entry.tournament_id, [])
    stages = staged.get(entry.tournament_id, [])
    if stages:
        standings = overall(tournament, results_of_stages(stages, matches), matches, {})
    else:
        standings = compute(tournament, matches, {})
    row = next((r for r in standings.rows if r.stats.entry_id == entry.pk), None)
    progress = row.progress if row else ""
    if tournament.status == Tournament.Status.FINISHED and (row is None or row.place is None):
        progress = ""  # never "Still in" once the tournament is over
    out_in = ""
    if row is not None and stages and row.stage_reached != stages[-1].name:
        out_in = row.stage_reached
    return Played(
        tournament,
        row.place if row else None,
        row.place_label if row else "",
        progress,
        row.stats.matches_won if row else 0,
        row.stats.matches_played if row else 0,
        change,
        out_in,
    )


_HISTORY_FIELDS = (
    "match_id",
    "tournament_id",
    "player_id",
    "opponent_id",
    "sequence",
    "won",
    "mu_before",
    "mu_after",
    "sigma_after",
)


def _played_order(match: Match) -> tuple[datetime.date, datetime.datetime, int]:
    completed = match.completed_at or datetime.datetime.max.replace(tzinfo=datetime.UTC)
    return (match.tournament.date, completed, match.pk)
