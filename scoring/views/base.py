"""What every view of a match shares, under the match URL and the table link alike (see
:mod:`tables.access`): :func:`match_view` resolves the match and the visitor's rights and
turns closed or guessed links into pages, :func:`base_context` is what every match page
shows, :func:`correction_allowed` who may correct a hand or a deal, and
:data:`REFUSALS` / :func:`refusal_message` what a hand write may refuse and how it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial, wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from engine import ScoringError
from tables import access as access_module
from tables import table_links
from tables.access import MatchAccess, require_entry
from tables.views.links import link_context, link_view
from tournaments.models import Match
from tournaments.movement import lock_tournament
from web.submissions import FIELD

from .. import services
from ..forms import sentence
from ..models import Hand


def match_view(
    view: Callable[..., HttpResponse] | None = None, *, write: bool = False, plays: bool = True
) -> Any:
    """Resolve the match and the visitor's rights; turn closed or guessed links into pages
    (:func:`tables.views.links.link_view`, which also gives a table link's phone its label
    and keeps its POSTs' submission ids).

    ``plays`` (every POST of a match but the director's table-link button and the table's
    call to the director): a POST to a match waiting for a table is refused with where it
    stands in the queue (:func:`waiting_answer`), for everyone, before the view runs.

    ``write=True`` runs the look-up and the view in one transaction with the match row
    locked from the start (``access.locked``), so the service need not read it again. The
    response renders after the transaction, and a refusal must not leave it broken: the
    services raise their refusals before their first write.

    A hand resent to a link that closed meanwhile is answered as stored
    (:func:`_hand_already_kept`).
    """
    if view is None:
        return partial(match_view, write=write, plays=plays)
    played = _refused_while_queued(view) if plays else view
    return link_view(played, call=_locked_call if write else None, kept=_hand_already_kept)


def _refused_while_queued(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def guarded(request: HttpRequest, access: MatchAccess, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and access.match.is_queued:
            return waiting_answer(request, access)
        return view(request, access, **kwargs)

    return guarded


# How a refused write tells the phone's outbox (static/js/outbox.js) what became of it.
OUTCOME = "Submission-Outcome"


def waiting_answer(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """A hand, a deal, a correction or a confirmation sent to a match waiting for a table:
    nothing is stored, and the answer says where the match stands in the queue. Definitive
    (outcome ``queued``): the phone's outbox shows it and does not send it again. htmx gets
    the entry region (200, as a refused hand's); a whole page answers 409."""
    context = {**base_context(access), "waiting": True, "refused": True}
    if request.htmx and request.headers.get("HX-Target") == "match-entry":
        response = render(request, "scoring/partials/waiting_region.html", context)
        if access.token is not None:
            response["HX-Reswap"] = "outerHTML show:window:top"
    else:
        response = render(request, "scoring/waiting.html", context, status=409)
    response[OUTCOME] = "queued"
    return response


def _locked_call(
    view: Callable[..., HttpResponse], request: HttpRequest, where: dict, kwargs: dict
) -> HttpResponse:
    """The view in a transaction that locked the match row first. The tournament's first
    hand also writes the tournament row, which the lock order (tournaments.movement) wants
    locked before the match: then the service says so before writing anything, and this
    starts again with the tournament locked first."""
    tournament_id = None
    while True:
        try:
            with transaction.atomic():
                if tournament_id is not None:
                    lock_tournament(tournament_id)
                access = access_module.resolve(request, lock=True, **where)
                if tournament_id is not None:
                    access = replace(access, tournament_locked=True)
                return view(request, access, **kwargs)
        except services.TournamentLockNeeded as needed:
            if tournament_id is not None:
                raise
            tournament_id = needed.tournament_id


def _hand_already_kept(request: HttpRequest, match: Match) -> HttpResponse | None:
    """A hand resent after its link closed (its answer was lost, then the result was
    confirmed from the other phone) is the hand already stored: answer "saved", as the
    first answer did, and send the phone to the sheet. None for anything else."""
    submission = request.POST.get(FIELD, "") if request.method == "POST" else ""
    if not submission:
        return None
    hand = Hand.objects.filter(match=match, submission=submission).only("number").first()
    if hand is None:
        return None
    messages.success(
        request,
        _("Hand %(number)s saved. The result has since been confirmed.") % {"number": hand.number},
    )
    sheet = reverse(
        "scoring:match-sheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )
    response: HttpResponse
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=200, headers={"HX-Redirect": sheet})
    else:
        response = HttpResponseRedirect(sheet)
    response["Submission-Outcome"] = "saved"
    return response


# What a hand write may refuse with: numbering, the rules, a later match in the way.
REFUSALS = (services.HandConflict, ScoringError, ValidationError)


def refusal_message(error: Exception) -> str:
    """One translated line for any of REFUSALS."""
    if isinstance(error, ScoringError):
        return sentence(error.render(_))
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


def names_of(match: Match) -> dict[str, str]:
    return {"A": match.side_name("A"), "B": match.side_name("B")}


class MatchUrls(dict[str, str]):
    """The URLs a match page links to, reversed only when a template asks for one (a hand
    entry's response shows two of them)."""

    NAMES = {
        "sheet": "scoring:match-sheet",
        "entry": "scoring:match-entry",
        "confirm": "scoring:match-confirm",
        "create": "scoring:hand-create",
        "preview": "scoring:hand-preview",
    }

    def __init__(self, access: MatchAccess) -> None:
        super().__init__()
        self.access = access
        self.names = dict(self.NAMES)
        if access.can_direct and access.token is None:
            self.names["table_link"] = "tables:table-link"

    def __missing__(self, key: str) -> str:
        if key not in self.names:
            raise KeyError(key)
        self[key] = url = self.access.url(self.names[key])
        return url

    def hand(self, action: str, number: int) -> str:
        """``hand-edit`` or ``hand-delete`` of hand ``number``, by ``action`` (edit, delete)."""
        return self.access.url(f"scoring:hand-{action}", number=number)


def base_context(access: MatchAccess) -> dict[str, Any]:
    context: dict[str, Any] = {**link_context(access), "urls": MatchUrls(access)}
    if access.can_direct and access.token is None:
        match, request = access.match, access.request
        context["table_url"] = SimpleLazyObject(lambda: table_links.table_url(match, request))
    return context


def correction_allowed(access: MatchAccess) -> None:
    """Refuse (403) a correction or deletion of a hand or a deal by someone who may not
    enter hands here, or, once the match is complete, by anyone but a director."""
    require_entry(access)
    if access.match.status == Match.Status.COMPLETE and not access.can_direct:
        raise PermissionDenied(_("This match is complete; only a director can correct it."))
