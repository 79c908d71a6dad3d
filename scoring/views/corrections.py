"""Correcting and deleting a hand: the pages behind a row's Edit and Delete links.

A hand is found by its number in the URL to show the page; the form then names the hand by
its id and the version that page showed (:mod:`scoring.versions`), so a double tap, a
second tab or an earlier hand deleted meanwhile never makes a change land on another
hand, or on one that changed since. Such a form is answered 409 with the hand as it is
now, and nothing is changed. Served under the match URL and the table link alike
(:func:`scoring.views.base.match_view`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tables.access import MatchAccess
from tournaments.models import Match
from tournaments.services import blocking_match

from .. import loading, services
from ..forms import HandForm
from ..models import Hand
from ..presenters import describe
from ..versions import HandChanged, StaleForm, hand_version, seen_hand
from .base import (
    REFUSALS,
    base_context,
    correction_allowed,
    match_view,
    names_of,
    refusal_message,
)


def _hand(access: MatchAccess, hands: list[Hand], number: int) -> Hand:
    if not 1 <= number <= len(hands):
        raise Http404(_("There is no hand %(number)d in this match.") % {"number": number})
    return hands[number - 1]


def _seen(request: HttpRequest) -> dict[str, Any]:
    """What a correction or deletion form says its page showed (see scoring.versions)."""
    try:
        hand_id: int | None = int(request.POST.get("hand", ""))
    except ValueError:
        hand_id = None
    return {
        "hand_id": hand_id,
        "version": request.POST.get("version", ""),
        "complete": request.POST.get("complete") == "1",
    }


def _shown(access: MatchAccess, hand: Hand) -> dict[str, Any]:
    """The hidden fields of a correction or deletion form: the hand as this page shows it."""
    complete = access.match.status == Match.Status.COMPLETE
    return {"hand": hand.pk, "version": hand_version(hand), "complete": "1" if complete else ""}


def _carried(request: HttpRequest) -> dict[str, str]:
    """The same fields, as the form sent them: a page shown again keeps what was first seen."""
    return {name: request.POST.get(name, "") for name in ("hand", "version", "complete")}


def _edit_page(
    request: HttpRequest,
    access: MatchAccess,
    hand: Hand,
    form: HandForm,
    shown: dict[str, Any],
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        **base_context(access),
        "form": form,
        "hand": hand,
        "number": hand.number,
        "shown": shown,
        "action": access.url("scoring:hand-edit", number=hand.number),
        "blocking": blocking_match(access.match),
        "confirming": form.is_bound and not form.errors and not error,
        "error": error,
    }
    return TemplateResponse(request, "scoring/hand_edit.html", context, status=status)


def _delete_page(
    request: HttpRequest,
    access: MatchAccess,
    hands: list[Hand],
    hand: Hand,
    shown: dict[str, Any],
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    sheet = loading.sheet_for(access.match, hands)
    context = {
        **base_context(access),
        "hand": hand,
        "number": hand.number,
        "shown": shown,
        "action": access.url("scoring:hand-delete", number=hand.number),
        "text": describe(sheet.hands[hand.number - 1], names_of(access.match)),
        "scored": sheet.hands[hand.number - 1],
        "error": error,
    }
    return TemplateResponse(request, "scoring/hand_delete.html", context, status=status)


def _initial(hand: Hand) -> dict[str, Any]:
    return {"number": hand.number, **{name: getattr(hand, name) for name in loading.HAND_FIELDS}}


def _stale(
    request: HttpRequest, access: MatchAccess, stale: StaleForm, action: str, number: int
) -> HttpResponse:
    """A correction or deletion whose page was out of date: nothing was changed; show the
    hand it named as it is now (409), or say that it is gone."""
    match = access.match
    hands = loading.load_hands(match)
    hand_id = _seen(request)["hand_id"]
    hand = next((h for h in hands if h.pk == hand_id), None)
    if hand is None and hand_id is None and 1 <= number <= len(hands):
        hand = hands[number - 1]  # the form named no hand: the one at its address
    if hand is None or (isinstance(stale, HandChanged) and stale.gone):
        context = {**base_context(access), "error": str(stale)}
        return TemplateResponse(request, "scoring/hand_gone.html", context, status=409)
    shown = _shown(access, hand)
    if action == "delete":
        return _delete_page(request, access, hands, hand, shown, error=str(stale), status=409)
    form = HandForm(initial=_initial(hand), match=match, hands=hands, replacing=hand.number)
    return _edit_page(request, access, hand, form, shown, error=str(stale), status=409)


@require_http_methods(["GET", "POST"])
@match_view
def hand_edit(request: HttpRequest, access: MatchAccess, number: int) -> HttpResponse:
    """Correct a hand in two steps (check, then confirm). The form names the hand by its
    id and the version its page showed: a hand changed since is shown again, not changed."""
    correction_allowed(access)
    match = access.match
    hands = loading.load_hands(match)
    if request.method == "GET":
        hand = _hand(access, hands, number)
        form = HandForm(initial=_initial(hand), match=match, hands=hands, replacing=number)
        return _edit_page(request, access, hand, form, _shown(access, hand))
    seen = _seen(request)
    try:
        hand = seen_hand(match, hands, **seen)  # checked again under lock when saving
    except StaleForm as stale:
        return _stale(request, access, stale, "edit", number)
    form = HandForm(request.POST, match=match, hands=hands, replacing=hand.number)
    if form.is_valid() and "confirm" in request.POST:
        try:
            services.correct_hand(
                match=match, data=form.hand_data(), user=access.actor, via=access.via, **seen
            )
        except StaleForm as stale:
            return _stale(request, access, stale, "edit", number)
        except REFUSALS as error:
            form.add_error(None, refusal_message(error))
        else:
            messages.success(request, _("Hand %(number)d corrected.") % {"number": hand.number})
            return HttpResponseRedirect(access.url("scoring:match-sheet"))
    return _edit_page(request, access, hand, form, _carried(request))


@require_http_methods(["GET", "POST"])
@match_view
def hand_delete(request: HttpRequest, access: MatchAccess, number: int) -> HttpResponse:
    """Delete a hand, once asked. The form names the hand by its id and the version its
    page showed: a double tap deletes one hand, and a hand changed since is shown again."""
    correction_allowed(access)
    match = access.match
    hands = loading.load_hands(match)
    if request.method == "GET":
        hand = _hand(access, hands, number)
        return _delete_page(request, access, hands, hand, _shown(access, hand))
    seen = _seen(request)
    try:
        services.delete_hand(match=match, user=access.actor, via=access.via, **seen)
    except StaleForm as stale:
        return _stale(request, access, stale, "delete", number)
    except REFUSALS as problem:  # e.g. a later match has started: say so on the same page
        error = refusal_message(problem)
        hand = next((h for h in hands if h.pk == seen["hand_id"]), None)
        if hand is None:
            return _stale(request, access, StaleForm(error), "delete", number)
        shown = _carried(request)
        return _delete_page(request, access, hands, hand, shown, error=error, status=400)
    messages.success(request, _("Hand %(number)d deleted.") % {"number": number})
    return HttpResponseRedirect(access.url("scoring:match-sheet"))
