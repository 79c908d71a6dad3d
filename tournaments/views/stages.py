"""The stages page: a tournament's stages, their standings by tiebreaks, and the moves
that run them (start, pair the next Swiss round, close and cut, the round clock, a
lucky loser). Every move is one service call in :mod:`tournaments.stages.services`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from engine import resolve_rules
from web import repeats
from web.numbers import integer_in
from web.pages import page

from ..match_names import names_for
from ..models import AuditEntry, Entry, Match, Stage, Tournament
from ..models.stages import MAX_SWISS_ROUNDS
from ..rules_text import rules_summary
from ..stages import services as stage_services
from ..stages.forms import (
    ClockForm,
    LateEntryForm,
    LuckyLoserForm,
    StageForm,
    tiebreak_choices,
)
from ..stages.progress import current_stage
from ..stages.results import results_of_stages
from .base import manage_url, manage_view, message_text

TEMPLATE = "tournaments/stages.html"


def clock_left(stage: Stage | None) -> int | None:
    """Seconds left on the stage's round clock (negative: over time), None if not running."""
    if stage is None or stage.clock_started_at is None or not stage.clock_minutes:
        return None
    elapsed = (timezone.now() - stage.clock_started_at).total_seconds()
    return int(stage.clock_minutes * 60 - elapsed)


def stages_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    stages = list(tournament.stages.all())
    for stage in stages:
        stage.tournament = tournament
    matches = list(
        Match.objects.filter(tournament=tournament, stage__isnull=False).select_related(
            "side_a__player", "side_b__player"
        )
    )
    by_pk = {stage.pk: stage for stage in stages}
    for match in matches:
        match.stage = by_pk[match.stage_id]
    names_for(tournament, matches).name_all(matches)  # "Knockout · Quarterfinals · Match 1"
    names = dict(tournament.entries.values_list("pk", "player__name"))
    current = current_stage(stages)
    labels = dict(tiebreak_choices())
    tables: list[dict[str, Any]] = []
    for results in results_of_stages(stages, matches):
        stage, mine = results.stage, list(results.matches)
        qualifying = stage.entrants and not stage.is_knockout  # a knockout has its bracket
        ranked = results.tables if qualifying else ()
        tables.append(
            {
                "stage": stage,
                "played": results.rounds_played,
                "unfinished": results.unfinished,
                "pools": [[(row, names.get(row.player, "?")) for row in rows] for rows in ranked],
                "labels": [labels.get(name, name) for name in stage.tiebreak_names],
                "rules": rules_summary(stage.ruleset_for_round(None)),
                "final_rules": _final_rules(stage),
                "ready_knockout": [
                    m for m in mine if stage.is_knockout and m.status == Match.Status.READY
                ],
                "to_rule": _to_rule(stage, mine),
            }
        )
    left = clock_left(current)
    candidates = Entry.objects.none()
    if current is not None and current.is_knockout and current.number > 1:
        previous = next(s for s in stages if s.number == current.number - 1)
        candidates = (
            tournament.entries.filter(pk__in=previous.entrants, withdrawn=False)
            .exclude(pk__in=current.entrants)
            .select_related("player")
        )
    return {
        "tournament": tournament,
        "section": "stages",
        "stage_tables": tables,
        "current": current,
        "one_bracket": Match.objects.filter(tournament=tournament, stage__isnull=True).exists(),
        "form": extra.pop("form", None) or StageForm(),
        "clock_form": ClockForm(),
        "clock_left": left,
        "clock_text": f"{max(left, 0) // 60}:{max(left, 0) % 60:02d}" if left is not None else "",
        "lucky_form": LuckyLoserForm(candidates=candidates),
        "late_form": LateEntryForm(candidates=_late_candidates(tournament, current)),
        "has_candidates": candidates.exists(),
        **extra,
    }


def _to_rule(stage: Stage, matches: list[Match]) -> list[Match]:
    """The matches time was called on that are still unfinished: level on time (or still
    playing their extra hands), for the director's ruling (the service checks which)."""
    if not stage.time_procedure or stage.status != Stage.Status.RUNNING:
        return []
    called = stage.time_called or {}
    playing = (Match.Status.READY, Match.Status.IN_PLAY)
    return sorted(
        (m for m in matches if str(m.pk) in called and m.status in playing and m.has_both_sides),
        key=lambda m: (m.round, m.position),
    )


def _late_candidates(tournament: Tournament, current: Stage | None) -> Any:
    """Who may be given starting points: the active entries, while a Swiss first stage
    runs (the service says why anyone else is refused)."""
    if current is None or current.number != 1 or current.kind != "swiss":
        return Entry.objects.none()
    return tournament.entries.filter(withdrawn=False).select_related("player").order_by("-pk")


def _final_rules(stage: Stage) -> str:
    """The final's match length when it differs from the stage's."""
    final = (stage.round_rules or {}).get("final")
    if final is None and stage.is_knockout and stage.round_rules:
        last = max(stage.round_rules, key=lambda r: int(r) if r.isdigit() else 0)
        final = stage.round_rules[last]
    if not final:
        return ""
    spec = {**stage.rules_for_round(None), **final}
    return rules_summary(resolve_rules(spec))


@require_GET
@manage_view
def stages_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(request, TEMPLATE, stages_context(tournament), partial="stages")


def result(
    request: HttpRequest, tournament: Tournament, run: Callable[[], str], **extra: Any
) -> HttpResponse:
    """Run one service call; the page (htmx: its region) with its message, or a redirect."""
    try:
        ok, error = run(), ""
    except ValidationError as failure:
        ok, error = "", message_text(failure)
    if request.htmx:
        context = stages_context(tournament, notice=ok, error=error, **extra)
        return page(request, TEMPLATE, context, partial="stages")
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    return redirect(manage_url("stages", tournament))


def stage_of(tournament: Tournament, stage_id: int) -> Stage:
    stage = get_object_or_404(Stage, pk=stage_id, tournament=tournament)
    stage.tournament = tournament
    return stage


@require_POST
@manage_view
def stage_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = StageForm(request.POST)
    if not form.is_valid():
        if request.htmx:
            context = stages_context(tournament, form=form)
            return page(request, TEMPLATE, context, partial="stages", status=422)
        return page(request, TEMPLATE, stages_context(tournament, form=form), status=422)

    arguments = form.service_arguments()

    def find(seen: int) -> repeats.Made | None:
        return _same_stage(tournament, request.user, arguments, seen)

    def run() -> str:
        with repeats.guard(Stage, seen=repeats.besides(request), find=find):
            stage = stage_services.add_stage(tournament=tournament, user=request.user, **arguments)
        return _("Stage %(number)d added: %(name)s.") % {"number": stage.number, "name": stage}

    try:
        return result(request, tournament, run)
    except repeats.Repeat as repeat:
        context = stages_context(tournament, form=form, **repeats.question(repeat.made))
        return page(request, TEMPLATE, context, partial="stages")


IDENTICAL = ("kind", "rounds", "pool_size", "advance", "third_place", "tiebreaks")
"""What makes two stages of a tournament the same stage added twice, with the name."""


def _same_stage(
    tournament: Tournament, user: Any, arguments: dict[str, Any], seen: int
) -> repeats.Made | None:
    """The newest stage of ``tournament`` added lately (after ``seen``) as ``arguments``
    would add it. A stage keeps no creation time: its audit row has it, and who added it."""
    added = AuditEntry.objects.filter(
        tournament=tournament, action="stage added", object_type="stage", at__gte=repeats.since()
    ).values_list("object_id", "at", "user_id", "user__username")
    rows = {int(pk): row for pk, *row in added if pk.isdigit() and int(pk) > seen}
    kind = Stage.Kind(arguments["kind"])
    expected = {
        **arguments,
        "rounds": arguments["rounds"] if kind == Stage.Kind.SWISS else None,
        "pool_size": arguments["pool_size"] if kind == Stage.Kind.ROUND_ROBIN else None,
    }
    name = arguments["name"] or str(kind.label)
    for stage in tournament.stages.filter(pk__in=rows, name=name).order_by("-pk"):
        if all(getattr(stage, field) == expected[field] for field in IDENTICAL):
            at, by_id, by_name = rows[stage.pk]
            return repeats.Made(
                pk=stage.pk,
                name=stage.name,
                at=at,
                url=f"{manage_url('stages', tournament)}#stage-{stage.number}",
                by="" if by_id == user.pk else (by_name or ""),
            )
    return None


@require_POST
@manage_view
def stage_remove(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = stage_of(tournament, stage_id)

    def run() -> str:
        stage_services.remove_stage(stage=stage, user=request.user)
        return _("Stage removed: %(name)s.") % {"name": stage}

    return result(request, tournament, run)


@require_POST
@manage_view
def stages_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def run() -> str:
        stage = stage_services.start(tournament=tournament, user=request.user)
        return _("%(name)s has started.") % {"name": stage}

    return result(request, tournament, run)


@require_POST
@manage_view
def stage_pair(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = stage_of(tournament, stage_id)

    try:  # the round the page offered to pair (web.numbers)
        seen: int | None = integer_in(request.POST.get("round", ""), low=1, high=MAX_SWISS_ROUNDS)
    except ValueError:
        seen = None

    def run() -> str:
        matches = stage_services.pair_next_round(stage=stage, user=request.user, seen_round=seen)
        count = sum(1 for m in matches if m.has_both_sides)
        return ngettext(
            "Round %(round)d is paired: %(count)d table.",
            "Round %(round)d is paired: %(count)d tables.",
            count,
        ) % {"round": matches[0].round if matches else 0, "count": count}

    return result(request, tournament, run)


@require_POST
@manage_view
def stage_close(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = stage_of(tournament, stage_id)

    def run() -> str:
        following = stage_services.close_stage(stage=stage, user=request.user)
        if following is None:
            return _("%(name)s is closed: the tournament is over.") % {"name": stage}
        return _("%(name)s is closed; %(next)s has started with %(count)d players.") % {
            "name": stage,
            "next": following,
            "count": len(following.entrants),
        }

    return result(request, tournament, run)


@require_POST
@manage_view
def stage_clock(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = stage_of(tournament, stage_id)
    form = ClockForm(request.POST)

    def run() -> str:
        if not form.is_valid():
            raise ValidationError(_("A round lasts 1 to 600 minutes."))
        minutes = form.cleaned_data["minutes"]
        stage_services.start_clock(stage=stage, minutes=minutes, user=request.user)
        return ngettext(
            "The round clock runs: %(minutes)d minute.",
            "The round clock runs: %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}

    return result(request, tournament, run)


@require_POST
@manage_view
def match_lucky_loser(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id, tournament=tournament)
    match.tournament = tournament
    candidates = tournament.entries.select_related("player")
    form = LuckyLoserForm(request.POST, candidates=candidates)

    def run() -> str:
        if not form.is_valid():
            raise ValidationError(_("Choose the side and the lucky loser."))
        entry = form.cleaned_data["entry"]
        stage_services.lucky_loser(
            match=match, side=form.cleaned_data["side"], entry=entry, user=request.user
        )
        return _("%(player)s comes in as a lucky loser.") % {"player": entry}

    return result(request, tournament, run)


@require_POST
@manage_view
def stage_late_entry(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = stage_of(tournament, stage_id)
    form = LateEntryForm(request.POST, candidates=_late_candidates(tournament, stage))

    def run() -> str:
        if not form.is_valid():
            raise ValidationError(_("Choose the late entry and their starting match points."))
        entry, points = form.cleaned_data["entry"], form.cleaned_data["points"]
        stage_services.set_start_points(stage=stage, entry=entry, points=points, user=request.user)
        return ngettext(
            "%(player)s starts with %(points)d match point.",
            "%(player)s starts with %(points)d match points.",
            points,
        ) % {"player": entry, "points": points}

    return result(request, tournament, run)
