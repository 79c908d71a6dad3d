"""The match sheet, hand entry and confirmation, for signed-in users and table links alike
(correcting and deleting a hand: :mod:`scoring.views.corrections`; a team match's sheet:
:mod:`scoring.views.teams`).

Each view is reached two ways (see :mod:`tables.access`): ``/t/<slug>/matches/<id>/…``
and ``/table/<token>/…``. Every page works without JavaScript; with htmx a POST returns
only the region it changed and the hand list reloads itself on the ``hand-recorded`` event.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from engine import MatchSheet, ScoringError
from tables import devices
from tables.access import MatchAccess, require_entry
from tournaments.models import Match
from web.pages import page
from web.submissions import (
    keeps_own_submissions,
    sent_elsewhere,
    submission_exempt,
    submission_id,
)

from .. import loading, services
from ..forms import HandForm, labelled_problem, sentence
from ..models import Hand
from ..presenters import describe, present
from ..versions import ScoreChanged
from .base import OUTCOME, REFUSALS, base_context, match_view, names_of, refusal_message
from .teams import team_page

TEMPLATE = "scoring/match.html"
HAND_RECORDED = "hand-recorded"
# A new hand refused by what was stored meanwhile: the score regions reload as after a save.
HAND_REFUSED = "hand-refused"
# OUTCOME says how a hand entry ended, for the phones' own script (a resend answers the
# same): saved, taken (the number holds another submission's hand), stale (the score
# changed since the page showed it), invalid (the form's own errors; nothing stored),
# queued (the match waits for a table: base.waiting_answer).


def sheet_context(
    access: MatchAccess,
    *,
    hands: list[Hand] | None = None,
    form: HandForm | None = None,
    sheet: MatchSheet | None = None,
) -> dict[str, Any]:
    """Everything the match page shows. Pass the ``sheet`` a service just computed to
    render without loading the hands again."""
    match = access.match
    waiting = match.is_queued
    if sheet is None:
        hands = loading.load_hands(match) if hands is None else hands
        sheet = loading.sheet_for(match, hands)
    entry_open = (
        access.can_enter
        and match.has_both_sides
        and match.status
        in (
            Match.Status.READY,
            Match.Status.IN_PLAY,
        )
        and not sheet.complete
        and not waiting
    )
    if form is None and entry_open:
        form = HandForm(match=match, hands=hands, next_number=len(sheet.hands) + 1)
    return {
        **base_context(access),
        "sheet": sheet,
        # Built only if the template asks: the entry region after a hand mostly does not.
        "view": SimpleLazyObject(lambda: present(sheet, names_of(match))),
        "form": form if entry_open else None,
        "awaiting": match.status == Match.Status.AWAITING,
        "waiting": waiting,
        "loser_name": match.side_name(match.loser_side) if match.winner_side else "",
        "hand_count": len(sheet.hands),
    }


def _page(request: HttpRequest, context: dict[str, Any], partial: str) -> HttpResponse:
    return page(request, TEMPLATE, context, partial=partial)


@require_GET
@match_view
def match_sheet(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The match sheet: public to read; the entry form for those allowed."""
    if access.tournament.ruleset.is_team:
        return team_page(request, access)
    region = "match-head" if request.GET.get("region") == "match-head" else "match-sheet"
    return _page(request, sheet_context(access), region)


@require_GET
@match_view
def match_entry(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The entry region alone (form, or the confirmation box once the match is decided)."""
    if access.tournament.ruleset.is_team:
        return team_page(request, access)
    return _page(request, sheet_context(access), "match-entry")


@keeps_own_submissions
@require_POST
@match_view(write=True)
def hand_create(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """Save the next hand. The service checks its number and its rules in one transaction,
    so the engine runs once; a preview request ("Show points" without JavaScript) only
    scores it.

    The hand keeps its form's submission id: a resend (a double tap, a phone whose answer
    was lost) finds its own hand at that number and answers as the save did, with the
    score as it is now; nothing is written twice."""
    require_entry(access)
    match = access.match
    previewing = "preview" in request.POST
    hands = loading.load_hands(match) if previewing else None
    form = HandForm(request.POST, match=match, hands=hands)
    recorded: MatchSheet | None = None
    resent = False
    if form.is_valid() and not previewing:
        try:
            recorded = services.record_hand(
                match=match,
                number=form.cleaned_data["number"],
                data=form.hand_data(),
                user=access.actor,
                via=access.via,
                dealer=form.cleaned_data.get("first_dealer"),
                locked=access.locked,
                tournament_locked=access.tournament_locked,
                seen=_seen(request),
                device=devices.device_of(request) if access.token else "",
                submission=submission_id(request) or "",
            )
        except services.HandResent:
            resent = True
            if access.token is not None:
                devices.note(request, match.pk, "resent")  # for the director's device board
        except IntegrityError:
            # The id is another match's hand's (a replay from another link): nothing kept.
            return sent_elsewhere()
        except services.HandTaken as taken:
            if access.token is not None:
                return _refused(request, access, "taken", _taken_message(request, access, taken))
            form.add_error(None, refusal_message(taken))
        except ScoreChanged as stale:
            return _refused(request, access, "stale", str(stale))
        except ScoringError as error:
            field = error.field if error.field in form.fields else None
            problem = labelled_problem(error, form.fields) if field else error.render(_)
            form.add_error(field, sentence(problem))
        except REFUSALS as error:
            form.add_error(None, refusal_message(error))
    if recorded is not None or resent:
        if not request.htmx:
            messages.success(
                request, _("Hand %(number)d saved.") % {"number": form.cleaned_data["number"]}
            )
            response: HttpResponse = HttpResponseRedirect(access.url("scoring:match-sheet"))
            response[OUTCOME] = "saved"
            return response
        context = sheet_context(access, sheet=recorded)
        # Said to a screen reader, and the focus on the next hand's first question.
        context["saved_number"] = form.cleaned_data["number"]
        response = _page(request, context, "match-entry")
        response[OUTCOME] = "saved"
        if access.token is not None:
            # On the players' phone, Save sits below the fold: bring the new score and the
            # next hand's first question back into view.
            response["HX-Reswap"] = "outerHTML show:window:top"
        return trigger_client_event(response, HAND_RECORDED)
    context = sheet_context(access, hands=hands, form=form)
    if context["form"] is None:  # entry has closed (the match is decided): still say why
        context["entry_errors"] = form.non_field_errors()
    response = _page(request, context, "match-entry")
    response[OUTCOME] = "invalid"
    if not request.htmx:
        response.status_code = 400
    return response


def _seen(request: HttpRequest) -> int | None:
    """The :attr:`Match.version` the entering page showed (its ``seen`` field), if it said."""
    seen = request.POST.get("seen", "")
    return int(seen) if seen.isdigit() and len(seen) < 10 else None


def _taken_message(request: HttpRequest, access: MatchAccess, taken: services.HandTaken) -> str:
    """What the hand number already holds, and from where it came."""
    match = access.match
    hands = loading.load_hands(match)
    stored = next(hand for hand in hands if hand.number == taken.number)
    scored = loading.sheet_for(match, hands).hands[taken.number - 1]
    where = devices.entered_from(
        request, stored.device, stored.entered_by_id is not None, match.table
    )
    return _(
        "Hand %(number)d was already entered from %(where)s: %(hand)s. Yours was not saved."
    ) % {
        "number": taken.number,
        "where": where,
        "hand": describe(scored, names_of(match)),
    }


def _refused(request: HttpRequest, access: MatchAccess, outcome: str, message: str) -> HttpResponse:
    """A new hand refused by what was stored meanwhile (``taken`` or ``stale``): the page
    as it is now (the score, the next hand's form) and why; nothing was written. The whole
    page answers 409; htmx gets the entry region and the score regions reload."""
    if access.token is not None:
        devices.note(request, access.match.pk, outcome)  # for the director's device board
    context = sheet_context(access)
    context["entry_errors"] = message
    response = _page(request, context, "match-entry")
    response[OUTCOME] = outcome
    if not request.htmx:
        response.status_code = 409
        return response
    if access.token is not None:
        response["HX-Reswap"] = "outerHTML show:window:top"
    return trigger_client_event(response, HAND_REFUSED)


@submission_exempt
@require_http_methods(["GET", "POST"])
@match_view
def hand_preview(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """What the hand in the form would score, shown before it is saved."""
    require_entry(access)
    hands = loading.load_hands(access.match)
    form = HandForm(request.POST or request.GET, match=access.match, hands=hands)
    form.is_valid()
    form.live_preview = True
    context = {**base_context(access), "form": form}
    return TemplateResponse(request, f"{TEMPLATE}#hand-preview", context)


@require_POST
@match_view
def match_confirm(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The losing side (at the table) or a director signs off the result."""
    require_entry(access)
    if access.token is None and not access.can_direct:
        raise PermissionDenied(_("Only a director or the players at the table confirm results."))
    try:
        services.confirm_result(
            match=access.match,
            user=access.actor,
            via=access.via,
            version=request.POST.get("version", ""),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Result confirmed. Thank you!"))
    if access.token is not None and access.match.status == Match.Status.COMPLETE:
        return HttpResponseRedirect(
            reverse(
                "scoring:match-sheet",
                kwargs={"slug": access.tournament.slug, "match_id": access.match.pk},
            )
        )
    return HttpResponseRedirect(access.url("scoring:match-sheet"))
