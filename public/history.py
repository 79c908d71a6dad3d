"""One player's finished matches as their page lists them (issue 28): stage by stage in
playing order, each stage with its summary, and the summary of them all.

A tournament of one bracket is one group without a name. In a staged tournament each
stage's rounds are named within that stage (its own last round makes "Semifinals";
Swiss rounds and knockout rounds each start from 1), and the stages come in their order.
A summary is added up from the matches listed (won, lost, games and points of the
matches played; byes and unplayed matches count for nothing), so it always agrees with
the list under it. A match decided on time says so, with its points as its sheet shows
them (:func:`standings.stats.points_shown`: the game being played when time was called
counts its points so far).

Like :mod:`public.players`, this works on :class:`standings.data.Results` already loaded
and makes no queries. What it does not do: decide what the player does next
(:mod:`public.players`) or rank anyone (:mod:`standings.standings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from standings.data import Results
from standings.standings import last_rounds
from standings.stats import COMPLETE, points_shown, seed_in
from tournaments.match_names import round_title
from tournaments.models import Match, Stage

Title = Callable[[Match], str]
Sheet = Any  # the engine's MatchSheet of the match, as standings.data loaded it


@dataclass(frozen=True, slots=True)
class Played:
    """A match the player has finished: from the player's side."""

    match_id: int
    key: str
    round: str
    outcome: str
    """"won", "lost", "bye" (went through without playing) or "void" (nobody played it)."""
    opponent: str = ""
    opponent_seed: int | None = None
    """The opponent's seed in that match (in a stage made by a cut, the cut's place)."""
    games_mine: int = 0
    games_theirs: int = 0
    points_mine: int = 0
    points_theirs: int = 0
    forfeit: bool = False
    table: int | None = None
    on_time: bool = False
    """Decided on time: its points are the sheet's at the call."""

    @property
    def played(self) -> bool:
        return self.outcome in ("won", "lost")

    @property
    def scored(self) -> bool:
        """Whether it has a score to show (a walkover before any hand has none)."""
        return self.played and not (self.forfeit and not (self.games_mine or self.games_theirs))


@dataclass(frozen=True, slots=True)
class Summary:
    """Matches won and lost, games (or columns) and points, of the matches listed."""

    matches_won: int = 0
    matches_lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def shown(self) -> bool:
        """Whether there is anything to add up (a bye alone has nothing)."""
        return bool(self.matches_won or self.matches_lost or self.games_won or self.games_lost)


@dataclass(frozen=True, slots=True)
class StageHistory:
    """The player's finished matches of one stage, in playing order, and their summary."""

    name: str
    """The stage's name; "" for a tournament of one bracket."""
    played: tuple[Played, ...]
    summary: Summary


class RoundNames:
    """What each match's round is called, within its own stage."""

    def __init__(self, data: Results) -> None:
        by_stage: dict[int | None, list[Match]] = {}
        for match in data.matches:
            by_stage.setdefault(match.stage_id, []).append(match)
        self._last = {stage_id: last_rounds(group) for stage_id, group in by_stage.items()}
        self._double = data.double

    def rounds(self, stage_id: int | None) -> int:
        """The highest round number of the stage's matches (0: none yet)."""
        return max(self._last.get(stage_id, {}).values(), default=0)

    def last(self, match: Match) -> dict[str, int]:
        """The last round of each section of the match's stage."""
        return self._last.get(match.stage_id, {})

    def double(self, match: Match) -> bool:
        if match.stage_id is None:
            return self._double
        return bool(match.stage.kind == Stage.Kind.DOUBLE_ELIMINATION)

    def title(self, match: Match) -> str:
        last = self.last(match).get(match.section, 0)
        return round_title(match.section, match.round, last, double=self.double(match))


def summary(played: Sequence[Played]) -> Summary:
    counted = [p for p in played if p.played]
    return Summary(
        matches_won=sum(1 for p in counted if p.outcome == "won"),
        matches_lost=sum(1 for p in counted if p.outcome == "lost"),
        games_won=sum(p.games_mine for p in counted),
        games_lost=sum(p.games_theirs for p in counted),
        points_for=sum(p.points_mine for p in counted),
        points_against=sum(p.points_theirs for p in counted),
    )


def history(
    data: Results, entry_id: int, mine: Sequence[Match], names: RoundNames
) -> tuple[tuple[StageHistory, ...], Summary]:
    """The player's finished matches (``mine``: all of the player's matches) by stage in
    the stages' order (stages with none finished left out), and the summary of them all."""
    numbers = {stage.pk: stage.number for stage in data.stages}
    stage_names = {stage.pk: stage.name for stage in data.stages}
    groups: dict[int | None, list[Match]] = {}
    for match in mine:
        groups.setdefault(match.stage_id, []).append(match)
    found: list[StageHistory] = []
    for stage_id in sorted(groups, key=lambda pk: numbers.get(pk, 0) if pk is not None else 0):
        finished = [m for m in in_order(groups[stage_id], entry_id) if m.status == COMPLETE]
        if not finished:
            continue
        played = tuple(
            played_from(m, entry_id, names.title, data.sheets.get(m.pk)) for m in finished
        )
        name = stage_names.get(stage_id, "") if stage_id is not None else ""
        found.append(StageHistory(name, played, summary(played)))
    return tuple(found), summary([p for group in found for p in group.played])


def in_order(matches: Sequence[Match], entry_id: int) -> list[Match]:
    """One player's matches in the order they are played: each decided one sends the player
    on, the winner one way and the loser another, to the next (round numbers alone would
    not do: a double elimination numbers its losers' rounds apart from the winners').
    Matches no route links come in the order given."""
    by_id = {m.pk: m for m in matches}
    then: dict[int, Match] = {}
    for m in matches:
        if m.status == COMPLETE and m.winner_side:
            won = m.winner_side == side_of(m, entry_id)[0]
            target = by_id.get((m.next_match_id if won else m.loser_next_match_id) or 0)
            if target is not None:
                then[m.pk] = target
    fed = {target.pk for target in then.values()}
    order: list[Match] = []
    seen: set[int] = set()
    for start in matches:
        current = None if start.pk in fed else start
        while current is not None and current.pk not in seen:
            seen.add(current.pk)
            order.append(current)
            current = then.get(current.pk)
    return order + [m for m in matches if m.pk not in seen]


def side_of(match: Match, entry_id: int) -> tuple[str, str]:
    """(the player's side, the opponent's side)."""
    return ("A", "B") if match.side_a_id == entry_id else ("B", "A")


def played_from(match: Match, entry_id: int, title: Title, sheet: Sheet | None = None) -> Played:
    """``match`` from the player's side; ``sheet``, the engine's (for a match decided on
    time, whose points are the sheet's at the call)."""
    side, other = side_of(match, entry_id)
    if match.is_bye:
        outcome = "bye" if match.winner_side == side else "void"
        return Played(match.pk, match.key, title(match), outcome)
    opponent = match.entry(other)
    scores = (match.score_a, match.score_b, *points_shown(match, sheet))
    games_mine, games_theirs, points_mine, points_theirs = (
        scores if side == "A" else (scores[1], scores[0], scores[3], scores[2])
    )
    return Played(
        match_id=match.pk,
        key=match.key,
        round=title(match),
        outcome="won" if match.winner_side == side else "lost",
        opponent=opponent.name if opponent is not None else "",
        opponent_seed=seed_in(match, opponent) if opponent is not None else None,
        games_mine=games_mine,
        games_theirs=games_theirs,
        points_mine=points_mine,
        points_theirs=points_theirs,
        forfeit=match.forfeit,
        table=match.table,
        on_time=match.decided_on_time and not match.forfeit,
    )
