"""Calling the director: the table link's form (``/table/<token>/call/``) and the
director's answer on Round control ("On my way", "Close"). The writes are
:mod:`tables.calls`'; the tags that show them, :mod:`tables.templatetags.table_calls`.

The table's form works without JavaScript (a POST, then the match page with a message);
with htmx it answers its own region, which also polls for the call's state. A guessed or
closed link is refused as every table-link page is (:func:`~tables.views.links.link_view`).
The director's buttons are the tournament's directors' only (``manage_view``, on the
server); they answer Round control.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.models import Tournament
from tournaments.views.base import manage_view

from .. import calls, devices
from ..access import MatchAccess
from ..models import DirectorCall
from .links import link_context, link_view

REGION = "tables/partials/call_director.html"


@require_http_methods(["GET", "POST"])
@link_view
def call_director(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The table's call: its state (GET, the region's poll), or a new call (POST)."""
    error = ""
    if request.method == "POST":
        try:
            calls.make(
                match=access.match,
                reason=request.POST.get("reason", ""),
                note=request.POST.get("note", ""),
                device=devices.device_of(request),
                via=access.via,
            )
        except ValidationError as refused:
            error = " ".join(refused.messages)
        if not request.htmx:
            if error:
                messages.error(request, error)
            else:
                messages.success(request, _("The director has been called."))
            return HttpResponseRedirect(access.url("scoring:match-sheet") + "#director-call")
    context = {**link_context(access), "call_error": error}
    return TemplateResponse(request, REGION, context)


def _call(tournament: Tournament, call_id: int) -> DirectorCall:
    return get_object_or_404(
        DirectorCall.objects.select_related("match__tournament"),
        pk=call_id,
        match__tournament=tournament,
    )


def _done(request: HttpRequest, tournament: Tournament, action: object) -> HttpResponse:
    try:
        action()  # type: ignore[operator]
    except ValidationError as refused:
        if not request.htmx:
            messages.error(request, " ".join(refused.messages))
    return HttpResponseRedirect(reverse("tournaments:round-control", args=[tournament.slug]))


@require_POST
@manage_view
def call_answer(request: HttpRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    """The director is on the way to the table."""
    call = _call(tournament, call_id)
    return _done(request, tournament, lambda: calls.answer(call, user=request.user))


@require_POST
@manage_view
def call_close(request: HttpRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    """The call is dealt with."""
    call = _call(tournament, call_id)
    return _done(request, tournament, lambda: calls.close(call, user=request.user))
