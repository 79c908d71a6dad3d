"""Reading a tournament's stages: their results as the tiebreaks read them, the standings
by each stage's tiebreaks (one list, or one per pool), which stage is being played and
whether the last one is over. No writes; :func:`stage_standings` and the helpers before
it make no queries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pairing.tiebreaks import MatchResult, StandingRow, Tiebreak, standings

from ..models import Match, Stage, Tournament

Kind = Stage.Kind
Status = Match.Status


def stage_results(matches: Iterable[Match]) -> list[MatchResult]:
    """The finished matches of a stage as the tiebreaks read them (skipped byes left out)."""
    results = []
    for m in matches:
        if m.status != Status.COMPLETE or not m.winner_side:
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


def stage_players(stage: Stage, matches: Iterable[Match]) -> list[int]:
    """Everyone in the stage, in seed order: its entrants, then anyone else who played."""
    players = [int(pk) for pk in stage.entrants]
    known = set(players)
    for m in matches:
        for pk in (m.side_a_id, m.side_b_id):
            if pk is not None and pk not in known:
                players.append(pk)
                known.add(pk)
    return players


def stage_standings(stage: Stage, matches: Sequence[Match]) -> list[list[StandingRow]]:
    """The stage's standings by its tiebreaks: one list, or one per pool."""
    order = [Tiebreak(name) for name in stage.tiebreak_names]
    mine = [m for m in matches if m.stage_id == stage.pk]
    if stage.kind == Kind.ROUND_ROBIN and stage.pools:
        tables = []
        for pool in stage.pools:
            members = [int(pk) for pk in pool]
            inside = set(members)
            pool_matches = [m for m in mine if m.side_a_id in inside or m.side_b_id in inside]
            tables.append(standings(members, stage_results(pool_matches), order))
        return tables
    rows = standings(stage_players(stage, mine), stage_results(mine), order)
    if stage.start_points:
        rows = _with_start_points(stage, rows, mine, order)
    return [rows]


def _with_start_points(
    stage: Stage, rows: list[StandingRow], mine: Sequence[Match], order: list[Tiebreak]
) -> list[StandingRow]:
    """Late entries' starting points: counted as byes won before they came (a bye adds to
    match points and nothing else, as the director's score should)."""
    players = stage_players(stage, mine)
    extra = [
        MatchResult(a=int(pk), b=None, winner=int(pk))
        for pk, points in stage.start_points.items()
        for _n in range(int(points))
    ]
    return standings(players, [*stage_results(mine), *extra], order)


def current_round(matches: Iterable[Match]) -> int:
    return max((m.round for m in matches), default=0)


def current_stage(stages: Sequence[Stage]) -> Stage | None:
    """The stage being played: the running one, else the last closed, else the first."""
    for stage in stages:
        if stage.status == Stage.Status.RUNNING:
            return stage
    closed = [s for s in stages if s.status == Stage.Status.CLOSED]
    if closed:
        return closed[-1]
    return stages[0] if stages else None


def finished(tournament: Tournament, matches: Sequence[Match]) -> bool:
    """Whether a staged tournament has played its last stage to the end."""
    last = Stage.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None or last.status == Stage.Status.PENDING:
        return False
    mine = [m for m in matches if m.stage_id == last.pk]
    if not mine or any(m.status != Status.COMPLETE for m in mine):
        return False
    return last.kind != Kind.SWISS or current_round(mine) >= (last.rounds or 0)


def late_entries_open(tournament: Tournament) -> bool:
    """Players may still join: the first stage is a running Swiss stage."""
    first = Stage.objects.filter(tournament=tournament, number=1).first()
    return (
        first is not None
        and first.kind == Kind.SWISS
        and first.status == Stage.Status.RUNNING
        and Stage.objects.filter(tournament=tournament, number=2, status="running").count() == 0
    )
