"""How far a tournament's stages have got: the rounds a stage has played, which stage is
being played, whether a stage is played out, whether the last one is over and whether
players may still join. No writes; :func:`current_round`, :func:`current_stage` and
:func:`played_out` make no queries.

What this module does not do: rank anyone (:mod:`tournaments.stages.results` does)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..models import Match, Stage, Tournament


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


def played_out(stage: Stage, matches: Sequence[Match]) -> bool:
    """Every match of ``stage`` finished, and a Swiss stage's every round paired."""
    if any(m.status != Match.Status.COMPLETE for m in matches):
        return False
    return stage.kind != Stage.Kind.SWISS or current_round(matches) >= (stage.rounds or 0)


def finished(tournament: Tournament, matches: Sequence[Match]) -> bool:
    """Whether a staged tournament has played its last stage to the end."""
    last = Stage.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None or last.status == Stage.Status.PENDING:
        return False
    mine = [m for m in matches if m.stage_id == last.pk]
    return bool(mine) and played_out(last, mine)


def late_entries_open(tournament: Tournament) -> bool:
    """Players may still join: the first stage is a running Swiss stage."""
    first = Stage.objects.filter(tournament=tournament, number=1).first()
    return (
        first is not None
        and first.kind == Stage.Kind.SWISS
        and first.status == Stage.Status.RUNNING
        and Stage.objects.filter(tournament=tournament, number=2, status="running").count() == 0
    )
