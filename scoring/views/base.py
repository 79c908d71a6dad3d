"""What every view of a match shares, under the match URL and the table link alike (see
:mod:`scoring.access`): :func:`match_view` resolves the match and the visitor's rights and
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
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from engine import ScoringError
from tournaments.match_names import parts_of
from tournaments.models import Match
from tournaments.movement import lock_tournament
from web.submissions import FIELD, by_link

from .. import access as access_module
from .. import devices, services, table_links
from ..access import MatchAccess, TableLinkClosed, TokenRateLimited, require_entry
from ..forms import sentence
from ..models import Hand


def match_view(
    view: Callable[..., HttpResponse] | None = None, *, write: bool = False, plays: bool = True
) -> Any:
    """Resolve the match and the visitor's rights; turn closed or guessed links into pages.

    ``plays`` (every POST of a match but the director's table-link button and the table's
    call to the director): a POST to a match waiting for a table is refused with where it
    stands in the queue (:func:`waiting_answer`), for everyone, before the view runs.

    A table link's answers give the phone its label (:mod:`scoring.devices`), and its
    POSTs keep their submission ids (:func:`web.submissions.by_link`).

    ``write=True`` runs the look-up and the view in one transaction with the match row
    locked from the start (``access.locked``), so the service need not read it again. The
    response renders after the transaction, and a refusal must not leave it broken: the
    services raise their refusals before their first write.
    """
    if view is None:
        return partial(match_view, write=write, plays=plays)
    played = _refused_while_queued(view) if plays else view

    @wraps(view)
    def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        where = {name: kwargs.pop(name) for name in ("slug", "match_id", "token") if name in kwargs}
        try:
            if write:
                response = _locked_call(played, request, where, kwargs)
            else:
                response = played(request, access_module.resolve(request, **where), **kwargs)
        except TokenRateLimited:
            context = {
                "reason": _("Too many wrong table links from this device. Try again later."),
                "table_link": True,
            }
            return render(request, "scoring/table_closed.html", context, status=429)
        except TableLinkClosed as closed:
            kept = _hand_already_kept(request, closed.match)
            if kept is not None:
                return kept
            reason = closed.reason
            if request.method == "POST" and closed.match.status == Match.Status.COMPLETE:
                # Sent from a page opened before the result was confirmed.
                reason = f"{_('The result was confirmed meanwhile; nothing was changed.')} {reason}"
            return render(
                request,
                "scoring/table_closed.html",
                {
                    "reason": reason,
                    "match": closed.match,
                    "match_name": _lazy_name(closed.match),
                    "table_link": True,
                },
                status=410,
            )
        patch_vary_headers(response, ("HX-Request",))
        if "token" in where:
            devices.remember(request, response)
        return response

    # A table link's writes keep their submission ids too (web.submissions).
    return by_link(wrapper)


def _refused_while_queued(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
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
        "sheet": "match-sheet",
        "entry": "match-entry",
        "confirm": "match-confirm",
        "create": "hand-create",
        "preview": "hand-preview",
    }

    def __init__(self, access: MatchAccess) -> None:
        super().__init__()
        self.access = access
        self.names = dict(self.NAMES)
        if access.can_direct and access.token is None:
            self.names["table_link"] = "table-link"

    def __missing__(self, key: str) -> str:
        if key not in self.names:
            raise KeyError(key)
        self[key] = url = self.access.url(self.names[key])
        return url

    def hand(self, action: str, number: int) -> str:
        """``hand-edit`` or ``hand-delete`` of hand ``number``, by ``action`` (edit, delete)."""
        return self.access.url(f"hand-{action}", number=number)


def _lazy_name(match: Match | None) -> Any:
    return SimpleLazyObject(lambda: match_name_html(match) if match is not None else "")


def match_name_html(match: Match) -> str:
    """The match's name, each part kept whole on a line of its own if need be."""
    parts = ((part,) for part in parts_of(match))
    return format_html_join(" · ", '<span class="nowrap">{}</span>', parts)


def base_context(access: MatchAccess) -> dict[str, Any]:
    context: dict[str, Any] = {
        "access": access,
        "match": access.match,
        "tournament": access.tournament,
        "urls": MatchUrls(access),
        # "Qualifying · Round 1 · Match 6", as every page names it (a query, if shown),
        # wrapping on a narrow phone between its parts only.
        "match_name": _lazy_name(access.match),
        # The players' pages (base.html): no log-in link or director navigation.
        "table_link": access.token is not None,
    }
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
