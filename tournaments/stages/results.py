"""A stage's results, computed once: :class:`StageResults`, the one object every surface
reads a stage's standings from. The director's stages page, the Swiss pairing and the cut
read it here; the public page, ``standings.json``, the projector, the PDFs and the exports
read it through :mod:`standings.data`, which computes it once per request for every
stage (:func:`results_of_stages`).

A stage's standings are its finished matches ranked by the stage's tiebreaks
(:mod:`pairing.tiebreaks`): one table, or one per pool; a late entry's starting points
count as byes won. Everything here works on stages and matches already loaded and makes
no queries.

What this module does not do: load or write anything, score a match from its hands (its
stored games and points are what the tiebreaks read), or word anything for a page
(:mod:`standings.stage_views` shows a stage, :mod:`standings.overall` ranks a staged
event's every entrant).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pairing import cut
from pairing.tiebreaks import MatchResult, StandingRow, Tiebreak, standings

from ..models import Match, Stage
from .progress import current_round, played_out


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's line in a stage's standings: their place there (shared from ``place`` to
    ``last``), their pool's number (None when the stage has no pools) and every tiebreak's
    value (``row``)."""

    row: StandingRow
    last: int
    pool: int | None

    @property
    def entry_id(self) -> int:
        return self.row.player

    @property
    def place(self) -> int:
        return self.row.place


@dataclass(frozen=True, slots=True)
class StageResults:
    """One stage's results: its matches, its standings by its tiebreaks (``tables``: one,
    or one per pool, each in place order) and every player's line of them (``placings``,
    pool by pool)."""

    stage: Stage
    matches: tuple[Match, ...]
    tables: tuple[tuple[StandingRow, ...], ...]
    placings: tuple[Placing, ...]

    @property
    def pooled(self) -> bool:
        return len(self.tables) > 1

    @property
    def rounds_played(self) -> int:
        return current_round(self.matches)

    @property
    def unfinished(self) -> int:
        return sum(m.status != Match.Status.COMPLETE for m in self.matches)

    @property
    def played_out(self) -> bool:
        return played_out(self.stage, self.matches)

    def levels(self, members: Collection[int]) -> list[list[Placing]]:
        """The placings of ``members`` in the stage's order, in groups of players level on
        everything: by place, and across pools by the tiebreaks' values after it."""

        def key(placing: Placing) -> tuple[Any, ...]:
            if not self.pooled:
                return (placing.place,)
            return (placing.place, *(-(value or 0) for _name, value in placing.row.values))

        found = sorted((p for p in self.placings if p.entry_id in members), key=key)
        groups: list[list[Placing]] = []
        for index, placing in enumerate(found):
            if index and key(placing) == key(found[index - 1]):
                groups[-1].append(placing)
            else:
                groups.append([placing])
        return groups

    def advancing(self, withdrawn: Collection[int]) -> list[int]:
        """Who goes on into the next stage, in its seed order: the top ``stage.advance``
        overall, or of each pool (pools in the order of their winners, compared by their
        own tiebreak values: pool winners never met one another); nobody who withdrew.
        ``ValueError`` when the stage has too few players (:func:`pairing.cut.qualifiers`)."""
        ranked = list(self.tables)
        if self.pooled:
            ranked.sort(
                key=lambda rows: tuple(value or 0 for _n, value in rows[0].values) if rows else (),
                reverse=True,
            )
        tables = [[row.player for row in rows if row.player not in withdrawn] for rows in ranked]
        return cut.qualifiers(tables, self.stage.advance or 0)


def stage_results(stage: Stage, matches: Iterable[Match]) -> StageResults:
    """``stage``'s results from ``matches`` (the tournament's, or the stage's own)."""
    mine = tuple(m for m in matches if m.stage_id == stage.pk)
    tables = tuple(tuple(table) for table in _tables(stage, mine))
    return StageResults(stage, mine, tables, _placings(tables))


def results_of_stages(stages: Sequence[Stage], matches: Iterable[Match]) -> list[StageResults]:
    """Every stage's results, in the order of ``stages``."""
    by_stage: dict[int, list[Match]] = {stage.pk: [] for stage in stages}
    for match in matches:
        if match.stage_id in by_stage:
            by_stage[match.stage_id].append(match)
    return [stage_results(stage, by_stage[stage.pk]) for stage in stages]


def _tables(stage: Stage, mine: Sequence[Match]) -> list[list[StandingRow]]:
    order = [Tiebreak(name) for name in stage.tiebreak_names]
    if stage.kind == Stage.Kind.ROUND_ROBIN and stage.pools:
        tables = []
        for pool in stage.pools:
            members = [int(pk) for pk in pool]
            inside = set(members)
            pool_matches = [m for m in mine if m.side_a_id in inside or m.side_b_id in inside]
            tables.append(standings(members, _match_results(pool_matches), order))
        return tables
    # Late entries' starting points: byes won before they came (a bye adds to match points
    # and nothing else, as the director's score should).
    extra = [
        MatchResult(a=int(pk), b=None, winner=int(pk))
        for pk, points in (stage.start_points or {}).items()
        for _n in range(int(points))
    ]
    return [standings(_players(stage, mine), [*_match_results(mine), *extra], order)]


def _placings(tables: Sequence[Sequence[StandingRow]]) -> tuple[Placing, ...]:
    pooled = len(tables) > 1
    placings = []
    for number, table in enumerate(tables, start=1):
        sharing = Counter(row.place for row in table)
        for row in table:
            last = row.place + sharing[row.place] - 1
            placings.append(Placing(row, last, number if pooled else None))
    return tuple(placings)


def _match_results(matches: Iterable[Match]) -> list[MatchResult]:
    """The finished matches as the tiebreaks read them (skipped byes left out)."""
    results = []
    for m in matches:
        if m.status != Match.Status.COMPLETE or not m.winner_side:
            continue
        winner = m.entry_id(m.winner_side)
        if m.is_bye or not m.has_both_sides:
            results.append(MatchResult(a=winner, b=None, winner=winner))
            continue
        results.append(
            MatchResult(
                a=m.side_a_id,
                b=m.side_b_id,
                winner=winner,
                games_a=0 if m.forfeit else m.score_a,
                games_b=0 if m.forfeit else m.score_b,
                points_a=0 if m.forfeit else m.total_a,
                points_b=0 if m.forfeit else m.total_b,
            )
        )
    return results


def _players(stage: Stage, matches: Iterable[Match]) -> list[int]:
    """Everyone in the stage, in seed order: its entrants, then anyone else who played."""
    players = [int(pk) for pk in stage.entrants]
    known = set(players)
    for m in matches:
        for pk in (m.side_a_id, m.side_b_id):
            if pk is not None and pk not in known:
                players.append(pk)
                known.add(pk)
    return players
