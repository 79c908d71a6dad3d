"""Calling time on a round: unfinished matches decided from their hands.

The director picks the procedure when calling time (:func:`call_time`):

``leader``
    Players finish the hand in play and enter it; then :func:`decide` gives every
    unfinished match to the side leading on time (:func:`engine.time_leader`:
    games won, then the current game's points, then total points).
``extra_hands``
    Each unfinished match plays N more hands from the moment time is called; a match
    is decided once it has them (or has finished by itself meanwhile).

A match level on time is left to the director: :func:`rule_level` gives it to the side
the director picks (after a cut of the cards, say), or the director gives a walkover; a
match without both players is left alone. Each decision goes through
:func:`tournaments.services.decide_on_time`, so the match records that it was decided on
time, the decision is stored (:class:`tournaments.models.Decision`: by whom, when, the
hands it read and its basis: the procedure and the score at the call, and a ruling's
reason) for ``verify_tournament`` and the archive to replay, and the bracket moves on as
after a confirmation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import score_played, time_basis, time_leader
from tournaments import audit
from tournaments import services as tournament_services
from tournaments.models import Match, Stage

from .loading import load_inputs, score_matches

PROCEDURES = ("leader", "extra_hands")
MAX_EXTRA_HANDS = 10
MAX_REASON = 200
OPEN = (Match.Status.READY, Match.Status.IN_PLAY)


class ClockRunning(Exception):
    """Time called while the round clock still runs, without ``early=True``: nothing is
    recorded; the director is asked first (``seconds`` left on the clock). Not a
    ValidationError: it is a question, not a refusal."""

    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def seconds_left(stage: Stage) -> int | None:
    """Whole seconds left on the stage's round clock; None once it ran out or if none runs."""
    ends = stage.clock_ends_at
    if ends is None:
        return None
    left = int((ends - timezone.now()).total_seconds())
    return left if left > 0 else None


@dataclass
class TimeReport:
    decided: list[Match] = field(default_factory=list)
    level: list[Match] = field(default_factory=list)
    waiting: list[Match] = field(default_factory=list)


def call_time(
    *, stage: Stage, procedure: str, extra_hands: int = 0, user: Any, early: bool = False
) -> Stage:
    """Time is called on the stage's round: the procedure is recorded, with how many hands
    each unfinished match had. Before the round clock runs out it takes ``early=True`` (the
    director said yes to "0:13 left on the clock: decide these matches now?"), else
    :class:`ClockRunning`, recording nothing."""
    if procedure not in PROCEDURES:
        raise ValidationError(_("Choose how unfinished matches are decided."))
    if procedure == "extra_hands" and not 1 <= extra_hands <= MAX_EXTRA_HANDS:
        raise ValidationError(_("Extra hands: 1 to %(most)d.") % {"most": MAX_EXTRA_HANDS})
    left = seconds_left(stage)
    if left is not None and not early:
        raise ClockRunning(left)
    with transaction.atomic():
        unfinished = list(Match.objects.filter(stage=stage, status__in=OPEN))
        inputs = load_inputs(match__in=[m.pk for m in unfinished])
        stage.time_procedure = procedure
        stage.time_extra_hands = extra_hands if procedure == "extra_hands" else 0
        stage.time_called = {str(m.pk): len(inputs.get(m.pk, [])) for m in unfinished}
        stage.save(update_fields=["time_procedure", "time_extra_hands", "time_called"])
        audit.record(
            tournament=stage.tournament,
            action="time called",
            obj=stage,
            after={"procedure": procedure, "extra_hands": stage.time_extra_hands},
            user=user,
        )
    return stage


def decide(*, stage: Stage, user: Any) -> TimeReport:
    """Decide every unfinished match of the stage that the procedure allows now."""
    if not stage.time_procedure:
        raise ValidationError(_("Call time first."))
    report = TimeReport()
    matches = list(
        Match.objects.filter(stage=stage, status__in=OPEN).select_related(
            "side_a__player", "side_b__player"
        )
    )
    inputs = load_inputs(match__in=[m.pk for m in matches])
    for match in matches:
        match.stage = stage
    sheets = {}
    for match in matches:
        sheets.update(score_matches(match.ruleset, [match], inputs))
    for match in sorted(matches, key=lambda m: (m.round, m.position)):
        if not match.has_both_sides:
            continue
        played = len(inputs.get(match.pk, []))
        at_call = int(stage.time_called.get(str(match.pk), 0))
        if stage.time_procedure == "extra_hands" and played < at_call + stage.time_extra_hands:
            report.waiting.append(match)
            continue
        sheet = sheets.get(match.pk)
        leader = time_leader(sheet) if sheet is not None else None
        if leader is None:
            report.level.append(match)
            continue
        tournament_services.decide_on_time(
            match=match,
            winner_side=str(leader),
            user=user,
            via=_("time called"),
            hands=played,
            basis=_basis(stage, match, played, sheet),
        )
        report.decided.append(match)
    return report


def _basis(stage: Stage, match: Match, played: int, sheet: Any) -> dict[str, Any]:
    """What a decision on time read: the procedure, the hands at the call, the score."""
    return {
        "procedure": stage.time_procedure,
        "extra_hands": stage.time_extra_hands,
        "hands_at_call": int(stage.time_called.get(str(match.pk), 0)),
        # No hands yet: the engine's reading of none (0–0; a current game unless Hollywood),
        # as verify_tournament replays it.
        **time_basis(sheet if sheet is not None else score_played(match.ruleset, [], None)),
    }


def rule_level(*, match: Match, winner_side: str, user: Any, reason: str = "") -> Match:
    """The director's ruling on a match level on time: ``winner_side`` wins it. Refused
    unless time was called with the match unfinished, it has played any extra hands, and
    it is level (games won, the current game's points, total points)."""
    if winner_side not in ("A", "B"):
        raise ValidationError(_("Choose the player who wins the match."))
    reason = reason.strip()[:MAX_REASON]
    stage = Stage.objects.filter(pk=match.stage_id).first()  # as it is now: time called?
    if stage is None or not stage.time_procedure or str(match.pk) not in stage.time_called:
        raise ValidationError(_("Call time first."))
    if match.status not in OPEN or not match.has_both_sides:
        raise ValidationError(_("Only a match still being played can be ruled on."))
    stage.tournament = match.tournament
    match.stage = stage
    inputs = load_inputs(match=match)
    played = len(inputs.get(match.pk, []))
    at_call = int(stage.time_called.get(str(match.pk), 0))
    if stage.time_procedure == "extra_hands" and played < at_call + stage.time_extra_hands:
        raise ValidationError(_("This match is still playing its extra hands."))
    sheet = score_matches(match.ruleset, [match], inputs).get(match.pk)
    leader = time_leader(sheet) if sheet is not None else None
    if leader is not None:
        raise ValidationError(
            _("%(player)s leads on time: decide the match on time instead.")
            % {"player": match.side_name(str(leader))}
        )
    basis = {**_basis(stage, match, played, sheet), "reason": reason}
    return tournament_services.decide_on_time(
        match=match, winner_side=winner_side, user=user, ruling=True, hands=played, basis=basis
    )
