"""Standings with tiebreaks, chosen and ordered per stage: pure Python, standard library only.

Input: the players (ids, in the stage's seed order) and the finished matches of the
stage, each with who played whom, the winner, games won and points scored on each side;
a bye is a match with nobody on side B. Output: one :class:`StandingRow` per player,
sorted by the tiebreaks in the order the stage chose, each row carrying every chosen
tiebreak's value.

The tiebreaks (their names are stable: they are the ``"tiebreaks"`` list of
``standings.json``)
------------------------------------------------------------------------------------
``match_points``
    Matches won, a bye counting as a win (gin matches have no draws).
``buchholz``
    Opponents' match wins: the sum of the match points of every opponent the player
    actually met (once per meeting), their byes included. **A bye adds nothing**: it
    has no opponent whose strength it could measure, and inventing a virtual one (as
    FIDE's chess rules do) would credit the bye's receiver, usually the lowest-ranked
    player, with a strength of schedule nobody played. This is also how the
    opponents' match-win percentage of card-game organisers leaves bye rounds out.
``games_won``
    Games won over all matches (a Hollywood column counts as a game). A bye wins no
    games.
``point_margin``
    Points scored minus points conceded over all matches played. A bye adds nothing.
``head_to_head``
    Among exactly the players still tied when it applies (equal on every tiebreak
    before it in the order), the matches each won against the others of that group.
    A player nobody is tied with at that point has ``None``: the tiebreak did not
    apply to them. First in the order, everyone is tied, so it counts all wins.
``total_points``
    Points scored over all matches played. A bye adds nothing.

Higher is better for every tiebreak. Players equal on every chosen tiebreak share a
place (1, 2, 2, 4 …) and stay in seed order.

What this module does not do: know about Django, decide who won a match (the scoring
engine does), or pair anyone (:mod:`pairing.swiss`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["MatchResult", "StandingRow", "Tiebreak", "standings"]


class Tiebreak(StrEnum):
    MATCH_POINTS = "match_points"
    BUCHHOLZ = "buchholz"
    GAMES_WON = "games_won"
    POINT_MARGIN = "point_margin"
    HEAD_TO_HEAD = "head_to_head"
    TOTAL_POINTS = "total_points"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match: ``b`` is ``None`` for a bye (then ``winner`` is ``a``)."""

    a: int
    b: int | None
    winner: int
    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0

    def __post_init__(self) -> None:
        if self.b is None:
            if self.winner != self.a or self.games_a or self.games_b or self.points_a:
                raise ValueError(f"a bye is won by its player, with no games or points: {self}")
        elif self.winner not in (self.a, self.b):
            raise ValueError(f"the winner must be one of the players: {self}")
        elif self.a == self.b:
            raise ValueError(f"a player cannot play themselves: {self}")


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line: ``place`` (shared when tied on everything) and the value of
    each chosen tiebreak, in the chosen order; also matches won, lost and byes."""

    player: int
    place: int
    values: tuple[tuple[Tiebreak, int | None], ...]
    won: int
    lost: int
    byes: int

    def value(self, tiebreak: Tiebreak) -> int | None:
        return dict(self.values)[tiebreak]

    def as_dict(self) -> dict[str, int | None]:
        """The tiebreak values by their stable names, as ``standings.json`` shows them."""
        return {str(name): value for name, value in self.values}


def standings(
    players: Sequence[int], results: Iterable[MatchResult], order: Sequence[Tiebreak]
) -> list[StandingRow]:
    """The standings of ``players`` (in seed order) after ``results``, by ``order``."""
    order = [Tiebreak(name) for name in order]
    if not order:
        raise ValueError("choose at least one tiebreak")
    if len(set(order)) != len(order):
        raise ValueError(f"a tiebreak appears twice in {[str(t) for t in order]}")
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    results = list(results)
    known = set(players)
    for result in results:
        if result.a not in known or (result.b is not None and result.b not in known):
            raise ValueError(f"{result} names a player who is not in the standings")

    totals = _totals(players, results)
    values: dict[int, dict[Tiebreak, int | None]] = {p: {} for p in players}
    groups = [list(players)]
    for tiebreak in order:
        refined: list[list[int]] = []
        for group in groups:
            if tiebreak is Tiebreak.HEAD_TO_HEAD:
                scores = _head_to_head(group, results) if len(group) > 1 else {}
                for p in group:
                    values[p][tiebreak] = scores.get(p)
            else:
                for p in group:
                    values[p][tiebreak] = totals[tiebreak][p]
            refined += _split(group, {p: values[p][tiebreak] or 0 for p in group})
        groups = refined

    rows: list[StandingRow] = []
    for group in groups:
        place = len(rows) + 1
        for p in group:
            rows.append(
                StandingRow(
                    player=p,
                    place=place,
                    values=tuple((t, values[p][t]) for t in order),
                    won=totals[Tiebreak.MATCH_POINTS][p],
                    lost=totals["lost"][p],
                    byes=totals["byes"][p],
                )
            )
    return rows


def _totals(players: Sequence[int], results: Sequence[MatchResult]) -> dict[str, Counter[int]]:
    """Every tiebreak that does not depend on who else is tied, for every player."""
    wins: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    games: Counter[int] = Counter()
    scored: Counter[int] = Counter()
    conceded: Counter[int] = Counter()
    for r in results:
        wins[r.winner] += 1
        if r.b is None:
            byes[r.a] += 1
            continue
        lost[r.b if r.winner == r.a else r.a] += 1
        games[r.a] += r.games_a
        games[r.b] += r.games_b
        scored[r.a] += r.points_a
        scored[r.b] += r.points_b
        conceded[r.a] += r.points_b
        conceded[r.b] += r.points_a
    buchholz: Counter[int] = Counter()
    for r in results:
        if r.b is not None:
            buchholz[r.a] += wins[r.b]
            buchholz[r.b] += wins[r.a]
    margin: Counter[int] = Counter({p: scored[p] - conceded[p] for p in players})
    return {
        Tiebreak.MATCH_POINTS: wins,
        Tiebreak.BUCHHOLZ: buchholz,
        Tiebreak.GAMES_WON: games,
        Tiebreak.POINT_MARGIN: margin,
        Tiebreak.TOTAL_POINTS: scored,
        "lost": lost,
        "byes": byes,
    }


def _head_to_head(group: Sequence[int], results: Sequence[MatchResult]) -> dict[int, int]:
    """Matches each player of ``group`` won against the others of ``group``."""
    inside = set(group)
    won = dict.fromkeys(group, 0)
    for r in results:
        if r.b is not None and r.a in inside and r.b in inside:
            won[r.winner] += 1
    return won


def _split(group: list[int], key: dict[int, int]) -> list[list[int]]:
    """``group`` sorted by ``key`` (higher first, stable) and cut where the key changes."""
    ordered = sorted(group, key=lambda p: -key[p])
    out: list[list[int]] = []
    for p in ordered:
        if out and key[out[-1][0]] == key[p]:
            out[-1].append(p)
        else:
            out.append([p])
    return out
