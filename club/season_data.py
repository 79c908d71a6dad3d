"""A season's table from the database: each tournament's standings as its public page
computes them (:mod:`standings.data`), then :func:`club.seasons.table`. Two queries per
tournament in the season plus two; names only, no personal data."""

from __future__ import annotations

from dataclasses import dataclass

from standings.data import load
from tournaments.models import Tournament

from .models import Season
from .seasons import Event, EventResult, Rules, SeasonRow, table


@dataclass(frozen=True, slots=True)
class SeasonTable:
    season: Season
    tournaments: tuple[Tournament, ...]
    rows: tuple[SeasonRow, ...]
    rules: Rules
    hidden: frozenset[int]


def rules_of(season: Season) -> Rules:
    return Rules(
        scoring=season.scoring,
        placing_points=tuple(int(p) for p in season.placing_points or ()),
        points_per_win=season.points_per_win,
        best_of=season.best_of,
    )


def event_of(tournament: Tournament) -> tuple[Event, set[int]]:
    data = load(tournament)
    players: dict[int, tuple[int, bool]] = {}
    for match in data.matches:
        for entry in (match.side_a, match.side_b):
            if entry is not None:
                players[entry.pk] = (entry.player_id, entry.player.hidden)
    for entry in data.entries:
        players[entry.pk] = (entry.player_id, entry.player.hidden)
    results = []
    hidden = set()
    for row in data.standings.rows:
        player_id, is_hidden = players[row.stats.entry_id]
        if is_hidden:
            hidden.add(player_id)
        results.append(EventResult(player_id, row.stats.name, row.place, row.stats.matches_won))
    return Event(tournament.pk, tournament.name, tuple(results)), hidden


def season_table(season: Season) -> SeasonTable:
    # A draft in the season is not public yet: it counts once it is.
    tournaments = tuple(
        season.tournaments.exclude(status=Tournament.Status.DRAFT).order_by("date", "pk")
    )
    events = []
    hidden: set[int] = set()
    for tournament in tournaments:
        event, hid = event_of(tournament)
        events.append(event)
        hidden |= hid
    rules = rules_of(season)
    return SeasonTable(season, tournaments, tuple(table(events, rules)), rules, frozenset(hidden))
