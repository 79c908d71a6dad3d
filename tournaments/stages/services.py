"""Running a tournament in stages: adding stages, starting the first, pairing Swiss rounds,
closing a stage and cutting its top players into the next, a lucky loser.

A tournament with no :class:`~tournaments.models.Stage` rows is one bracket, run by
:mod:`tournaments.draw` as always. Once it has stages, :func:`start` begins stage 1 with
the registered players (seed order), and :func:`close_stage` takes who advances from a
finished stage's results (:mod:`tournaments.stages.results`: ranked by its tiebreaks, the
top K overall or of each pool) and begins the next stage with them: a Swiss stage is paired
round by round (:mod:`pairing.swiss`, from a recorded seed), pools and knockouts are
generated whole (:mod:`pairing.brackets`). The matches are stored and moved through
by the same :class:`~tournaments.movement.Board` as a one-bracket tournament's, so hand
entry, table links, confirmations, walkovers and withdrawals are unchanged.

Like the other services, each function is keyword-only, atomic and audited, and a
user's mistake raises ``ValidationError`` with a translated message, changing nothing.

What this module does not do: permission checks (views), scoring (the scoring app), or
deciding matches on time (:mod:`scoring.timing`, which needs the engine's sheets).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import ScoringError, resolve_rules
from pairing.tiebreaks import Tiebreak

from .. import audit
from ..draw import check_enough_players, playing_entries, start_running
from ..models import Decision, Entry, Match, Stage, Tournament
from ..movement import Board, lock_tournament
from ..public_version import changed
from .matches import FINAL, begin, pair_swiss
from .progress import current_round
from .results import stage_results

__all__ = [
    "add_stage",
    "advancing",
    "close_stage",
    "lucky_loser",
    "pair_next_round",
    "remove_stage",
    "set_start_points",
    "start",
    "start_clock",
]

Kind = Stage.Kind
Status = Match.Status


# -- setting stages up -----------------------------------------------------------------------


def add_stage(
    *,
    tournament: Tournament,
    user: Any,
    kind: str,
    name: str = "",
    rounds: int | None = None,
    pool_size: int | None = None,
    advance: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    rules: dict[str, Any] | None = None,
    round_rules: dict[str, dict[str, Any]] | None = None,
    third_place: bool = False,
    bracket_reset: bool = True,
) -> Stage:
    """Add a stage after the others. Refused once the tournament is finished or was
    generated as one bracket."""
    with transaction.atomic():
        lock_tournament(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise ValidationError(_("This tournament is finished."))
        if Match.objects.filter(tournament=tournament, stage__isnull=True).exists():
            raise ValidationError(
                _("The bracket has been generated as one stage: clear it to play in stages.")
            )
        if kind not in Kind.values:
            raise ValidationError(_("Unknown stage kind %(kind)s.") % {"kind": kind})
        if kind == Kind.SWISS and not rounds:
            raise ValidationError(_("A Swiss stage needs a number of rounds."))
        if kind == Kind.ROUND_ROBIN and not pool_size:
            raise ValidationError(_("Round-robin pools need a pool size."))
        order = _check_tiebreaks(tiebreaks)
        rules = _check_rules(tournament, rules or {})
        round_rules = {
            _round_key(r): _check_rules(tournament, {**rules, **knobs})
            for r, knobs in (round_rules or {}).items()
        }
        number = (tournament.stages.aggregate(n=Max("number"))["n"] or 0) + 1
        stage = Stage.objects.create(
            tournament=tournament,
            number=number,
            name=name or str(Kind(kind).label),
            kind=kind,
            rounds=rounds if kind == Kind.SWISS else None,
            pool_size=pool_size if kind == Kind.ROUND_ROBIN else None,
            advance=advance,
            tiebreaks=order,
            rules=rules,
            round_rules={r: _changed_knobs(rules, knobs) for r, knobs in round_rules.items()},
            third_place=third_place,
            bracket_reset=bracket_reset,
        )
        audit.record(
            tournament=tournament,
            action="stage added",
            obj=stage,
            after=_stage_state(stage),
            user=user,
        )
        changed(tournament)
    return stage


def remove_stage(*, stage: Stage, user: Any) -> None:
    """Remove the last stage while it has not started."""
    with transaction.atomic():
        lock_tournament(stage.tournament)
        last = stage.tournament.stages.order_by("-number").first()
        if stage.status != Stage.Status.PENDING or last is None or last.pk != stage.pk:
            raise ValidationError(_("Only the last stage can be removed, before it starts."))
        audit.record(
            tournament=stage.tournament,
            action="stage removed",
            before=_stage_state(stage),
            user=user,
        )
        stage.delete()
        changed(stage.tournament)


def _round_key(round_: object) -> str:
    """A round number, or "final": a knockout's final, its round known only at the cut."""
    if round_ == FINAL:
        return FINAL
    try:
        number = int(str(round_))
    except ValueError:
        number = 0
    if number < 1:
        raise ValidationError(_("A round is a number from 1."))
    return str(number)


def _check_tiebreaks(names: Sequence[str] | None) -> list[str]:
    names = list(names) if names else list(Stage().tiebreak_names)
    known = set(Tiebreak)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValidationError(_("Unknown tiebreak %(name)s.") % {"name": unknown[0]})
    if len(set(names)) != len(names):
        raise ValidationError(_("A tiebreak is chosen twice."))
    return names


def _check_rules(tournament: Tournament, knobs: dict[str, Any]) -> dict[str, Any]:
    try:
        resolve_rules({**tournament.rules, **knobs})
    except ScoringError as error:
        raise ValidationError(str(error)) from error
    return dict(knobs)


def _changed_knobs(base: dict[str, Any], knobs: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in knobs.items() if base.get(name) != value}


def _stage_state(stage: Stage) -> dict[str, Any]:
    return {
        "number": stage.number,
        "name": stage.name,
        "kind": stage.kind,
        "rounds": stage.rounds,
        "pool_size": stage.pool_size,
        "advance": stage.advance,
        "tiebreaks": stage.tiebreaks,
        "rules": stage.rules,
        "round_rules": stage.round_rules,
    }


# -- playing ---------------------------------------------------------------------------------


def start(*, tournament: Tournament, user: Any) -> Stage:
    """Begin stage 1 with the registered players (seed order; withdrawn and, when check-in
    is used, absent players left out)."""
    with transaction.atomic():
        lock_tournament(tournament)
        first = tournament.stages.order_by("number").first()
        if first is None:
            raise ValidationError(_("Add a stage first."))
        if first.status != Stage.Status.PENDING:
            raise ValidationError(_("The first stage has already started."))
        if Match.objects.filter(tournament=tournament).exists():
            raise ValidationError(_("The bracket has already been generated."))
        playing, _left_out = playing_entries(tournament)
        check_enough_players(playing)
        matches = begin(first, [e.pk for e in playing], user)
        start_running(
            tournament,
            action="stage started",
            obj=first,
            after={
                "stage": first.name,
                "players": len(playing),
                "matches": len(matches),
                "pairing_seed": first.pairing_seed,
            },
            user=user,
        )
        changed(tournament)
    return first


def pair_next_round(*, stage: Stage, user: Any, seen_round: int | None = None) -> list[Match]:
    """Pair the next round of a running Swiss stage once every match of the last is done.
    ``seen_round``: the round the page offered to pair; paired meanwhile (another tab), the
    refusal says so."""
    with transaction.atomic():
        lock_tournament(stage.tournament)
        stage.refresh_from_db()
        if stage.kind != Kind.SWISS or stage.status != Stage.Status.RUNNING:
            raise ValidationError(_("Only a running Swiss stage is paired round by round."))
        mine = list(Match.objects.filter(stage=stage))
        played = current_round(mine)
        if seen_round is not None and played >= seen_round:
            raise ValidationError(
                _(
                    "Round %(round)d was just paired elsewhere (another tab or device): here "
                    "is the stage as it is now."
                )
                % {"round": seen_round}
            )
        if played >= (stage.rounds or 0):
            raise ValidationError(
                _("All %(rounds)d rounds of this stage are paired.") % {"rounds": stage.rounds}
            )
        _require_complete(mine)
        matches = pair_swiss(stage, mine, played + 1, user)
        audit.record(
            tournament=stage.tournament,
            action="round paired",
            obj=stage,
            after={"round": played + 1, "matches": len(matches), "seed": stage.pairing_seed},
            user=user,
        )
        changed(stage.tournament)
    return matches


def close_stage(*, stage: Stage, user: Any) -> Stage | None:
    """Close a finished stage and begin the next with its top players; returns the next
    stage (``None`` when this was the last)."""
    tournament = stage.tournament
    with transaction.atomic():
        lock_tournament(tournament)
        stage.refresh_from_db()
        if stage.status == Stage.Status.CLOSED:
            raise ValidationError(
                _(
                    "%(name)s was just closed elsewhere (another tab or device): here is the "
                    "stage as it is now."
                )
                % {"name": stage}
            )
        if stage.status != Stage.Status.RUNNING:
            raise ValidationError(_("This stage is not running."))
        mine = list(Match.objects.filter(stage=stage))
        _require_complete(mine)
        if stage.kind == Kind.SWISS and current_round(mine) < (stage.rounds or 0):
            raise ValidationError(
                _("Round %(round)d of %(rounds)d has been played: pair the next round first.")
                % {"round": current_round(mine), "rounds": stage.rounds}
            )
        following = tournament.stages.filter(number=stage.number + 1).first()
        qualified: list[int] = []
        if following is not None:
            qualified = advancing(stage, mine)
        stage.status = Stage.Status.CLOSED
        stage.save(update_fields=["status"])
        audit.record(
            tournament=tournament,
            action="stage closed",
            obj=stage,
            after={"qualified": _names(qualified)},
            user=user,
        )
        if following is not None:
            begin(following, qualified, user)
            audit.record(
                tournament=tournament,
                action="stage started",
                obj=following,
                after={"stage": following.name, "players": len(qualified)},
                user=user,
            )
        elif tournament.status != Tournament.Status.FINISHED:
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
            tournament.status = Tournament.Status.FINISHED
        changed(tournament)
    return following


def advancing(stage: Stage, matches: Sequence[Match]) -> list[int]:
    """Who goes on from ``stage``, in the next stage's seed order; refused when the stage
    says no number or has too few players."""
    if not stage.advance:
        raise ValidationError(_("Say how many players advance from %(stage)s.") % {"stage": stage})
    withdrawn = set(
        Entry.objects.filter(tournament=stage.tournament, withdrawn=True).values_list(
            "pk", flat=True
        )
    )
    try:
        return stage_results(stage, matches).advancing(withdrawn)
    except ValueError as error:
        raise ValidationError(
            _("%(count)d cannot advance from %(stage)s: %(problem)s")
            % {"count": stage.advance, "stage": stage, "problem": error}
        ) from error


def lucky_loser(*, match: Match, side: str, entry: Entry, user: Any) -> Match:
    """Put ``entry`` (a player of the previous stage who did not qualify) into ``side`` of a
    knockout match nobody has played into, in place of a player who did not come."""
    tournament = match.tournament
    with transaction.atomic():
        board = Board.load(tournament, focus=match)
        current = board.get(match)
        stage = current.stage
        if stage is None or not stage.is_knockout:
            raise ValidationError(_("A lucky loser comes into a knockout stage's match."))
        if current.status != Status.READY or side not in ("A", "B"):
            raise ValidationError(_("A lucky loser can only replace a player before play."))
        previous = tournament.stages.filter(number=stage.number - 1).first()
        in_stage = {int(pk) for pk in stage.entrants}
        if (
            previous is None
            or entry.pk in in_stage
            or entry.withdrawn
            or entry.pk not in {int(pk) for pk in previous.entrants}
        ):
            raise ValidationError(
                _("%(player)s did not play the previous stage or is already in this one.")
                % {"player": entry}
            )
        replaced = current.entry_id(side)
        board.set_slot(current, side, entry.pk)
        board.save()
        Decision.objects.create(
            tournament=tournament,
            match=current,
            kind=Decision.Kind.LUCKY_LOSER,
            side=side,
            entry=entry,
            replaced_id=replaced,
            basis={"stage": previous.number},
            decided_by=user if getattr(user, "is_authenticated", False) else None,
        )
        stage.entrants = [entry.pk if int(pk) == replaced else pk for pk in stage.entrants]
        stage.save(update_fields=["entrants"])
        audit.record(
            tournament=tournament,
            action="lucky loser",
            obj=current,
            before={"side": side, "player": _names([replaced])[0] if replaced else None},
            after={"side": side, "player": entry.player.name},
            user=user,
        )
        changed(tournament)
        match.side_a_id, match.side_b_id = current.side_a_id, current.side_b_id
    return match


def set_start_points(*, stage: Stage, entry: Entry, points: int, user: Any) -> Stage:
    """A late entry joins a running Swiss first stage with the match points the director
    gives (0 to the rounds played); they count in the standings and score groups as wins
    without an opponent, adding nothing to anyone's Buchholz."""
    with transaction.atomic():
        lock_tournament(stage.tournament)
        stage.refresh_from_db()
        played = current_round(Match.objects.filter(stage=stage))
        if stage.kind != Kind.SWISS or stage.number != 1 or stage.status != Stage.Status.RUNNING:
            raise ValidationError(_("Late entries join a running Swiss first stage."))
        if entry.tournament_id != stage.tournament_id or entry.withdrawn:
            raise ValidationError(_("%(player)s cannot join this stage.") % {"player": entry})
        if not 0 <= points <= played:
            raise ValidationError(
                _("A late entry starts with 0 to %(most)d match points.") % {"most": played}
            )
        if entry.pk not in {int(pk) for pk in stage.entrants}:
            stage.entrants = [*stage.entrants, entry.pk]
        stage.start_points = {**stage.start_points, str(entry.pk): points}
        stage.save(update_fields=["entrants", "start_points"])
        audit.record(
            tournament=stage.tournament,
            action="late entry points",
            obj=stage,
            after={"player": entry.player.name, "points": points},
            user=user,
        )
        changed(stage.tournament)
    return stage


def start_clock(*, stage: Stage, minutes: int, user: Any) -> Stage:
    """Start the current round's clock now, running ``minutes``."""
    if not 1 <= minutes <= 600:
        raise ValidationError(_("A round lasts 1 to 600 minutes."))
    with transaction.atomic():
        lock_tournament(stage.tournament)
        stage.clock_started_at = timezone.now()
        stage.clock_minutes = minutes
        stage.save(update_fields=["clock_started_at", "clock_minutes"])
        audit.record(
            tournament=stage.tournament,
            action="round clock started",
            obj=stage,
            after={"minutes": minutes, "started": stage.clock_started_at},
            user=user,
        )
        changed(stage.tournament)
    return stage


def _require_complete(matches: Iterable[Match]) -> None:
    unfinished = [m for m in matches if m.status != Status.COMPLETE]
    if unfinished:
        raise ValidationError(_("%(match)s is not finished yet.") % {"match": unfinished[0].label})


def _names(entry_ids: Sequence[int]) -> list[str]:
    names = dict(Entry.objects.filter(pk__in=entry_ids).values_list("pk", "player__name"))
    return [names.get(pk, "") for pk in entry_ids]
