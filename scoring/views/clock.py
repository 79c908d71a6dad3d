"""Calling time on a stage's round, and the director's ruling on a match level on time,
from the director's Stages page: the page and its moves are
:mod:`tournaments.views.stages`; these views live here because deciding a match on time
reads its hands (:mod:`scoring.timing`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.models import Match, Stage, Tournament
from tournaments.views.base import manage_view
from tournaments.views.stages import result, stage_of, stages_context
from web.pages import page

from .. import timing


@require_POST
@manage_view
def stage_time(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Call time (``leader``: decide now; ``extra_hands``: N more hands each), or
    ``decide`` the matches that have played their extra hands. Before the round clock runs
    out, calling time first answers a confirmation (:func:`_confirm_early`); its form
    says ``early`` and calls it."""
    stage = stage_of(tournament, stage_id)
    procedure = request.POST.get("procedure", "")
    try:
        extra = int(request.POST.get("extra_hands") or 0)
    except ValueError:
        extra = 0

    def run() -> str:
        if procedure != "decide":
            timing.call_time(
                stage=stage,
                procedure=procedure,
                extra_hands=extra,
                user=request.user,
                early=request.POST.get("early") == "1",
            )
            if procedure == "extra_hands":
                return ngettext(
                    "Time called: each unfinished match plays %(n)d more hand.",
                    "Time called: each unfinished match plays %(n)d more hands.",
                    extra,
                ) % {"n": extra}
        report = timing.decide(stage=stage, user=request.user)
        return _(
            "Decided on time: %(decided)d; level, for you to decide: %(level)d; "
            "still playing their extra hands: %(waiting)d."
        ) % {
            "decided": len(report.decided),
            "level": len(report.level),
            "waiting": len(report.waiting),
        }

    try:
        return result(request, tournament, run)
    except timing.ClockRunning as running:
        return _confirm_early(request, tournament, stage, running.seconds, procedure, extra)


def _confirm_early(
    request: HttpRequest,
    tournament: Tournament,
    stage: Stage,
    seconds: int,
    procedure: str,
    extra: int,
) -> HttpResponse:
    """The Stages page (htmx: its region) asking "0:13 left on the clock: decide these
    matches now?", with the unfinished matches and a form that calls time anyway."""
    unfinished = Match.objects.filter(stage=stage, status__in=timing.OPEN).select_related(
        "side_a__player", "side_b__player"
    )
    left = f"{seconds // 60}:{seconds % 60:02d}"
    if procedure == "leader":
        question = _("%(left)s left on the clock: decide these matches now?")
    else:
        question = _("%(left)s left on the clock: call time on these matches now?")
    confirm = {
        "stage": stage,
        "question": question % {"left": left},
        "matches": sorted(unfinished, key=lambda m: (m.round, m.position)),
        "procedure": procedure,
        "extra_hands": extra,
    }
    context = stages_context(tournament, time_confirm=confirm)
    return page(request, "tournaments/stages.html", context, partial="stages")


@require_POST
@manage_view
def match_ruling(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """The director gives a match level on time to ``winner_side`` (with a ``reason``)."""
    match = get_object_or_404(Match, pk=match_id, tournament=tournament)
    match.tournament = tournament
    winner = request.POST.get("winner_side", "")
    reason = request.POST.get("reason", "")

    def run() -> str:
        if winner not in ("A", "B"):
            raise ValidationError(_("Choose the player who wins the match."))
        timing.rule_level(match=match, winner_side=winner, user=request.user, reason=reason)
        return _("%(match)s: %(player)s wins on your ruling.") % {
            "match": match.label,
            "player": match.side_name(winner),
        }

    return result(request, tournament, run)
