"""The match sheet, hand entry and confirmation, for signed-in users and table links alike
(correcting and deleting a hand: :mod:`scoring.corrections`).

Each view is reached two ways (see :mod:`scoring.access`): ``/t/<slug>/matches/<id>/…``
and ``/table/<token>/…``. Every page works without JavaScript; with htmx a POST returns
only the region it changed and the hand list reloads itself on the ``hand-recorded`` event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial, wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from engine import MatchSheet, ScoringError
from tournaments.models import Match
from tournaments.movement import lock_tournament
from tournaments.submissions import submission_exempt

from . import access as access_module
from . import services
from .access import MatchAccess, TableLinkClosed, TokenRateLimited, require_entry
from .forms import HandForm, labelled_problem, sentence
from .models import Hand
from .presenters import present

TEMPLATE = "scoring/match.html"
HAND_RECORDED = "hand-recorded"


def match_view(view: Callable[..., HttpResponse] | None = None, *, write: bool = False) -> Any:
    """Resolve the match and the visitor's rights; turn closed or guessed links into pages.

    ``write=True`` runs the look-up and the view in one transaction with the match row
    locked from the start (``access.locked``), so the service need not read it again. The
    response renders after the transaction, and a refusal must not leave it broken: the
    services raise their refusals before their first write.
    """
    if view is None:
        return partial(match_view, write=write)

    @wraps(view)
    def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        where = {name: kwargs.pop(name) for name in ("slug", "match_id", "token") if name in kwargs}
        try:
            if write:
                response = _locked_call(view, request, where, kwargs)
            else:
                response = view(request, access_module.resolve(request, **where), **kwargs)
        except TokenRateLimited:
            context = {
                "reason": _("Too many wrong table links from this device. Try again later."),
                "table_link": True,
            }
            return render(request, "scoring/table_closed.html", context, status=429)
        except TableLinkClosed as closed:
            reason = closed.reason
            if request.method == "POST" and closed.match.status == Match.Status.COMPLETE:
                # Sent from a page opened before the result was confirmed.
                reason = f"{_('The result was confirmed meanwhile; nothing was changed.')} {reason}"
            return render(
                request,
                "scoring/table_closed.html",
                {"reason": reason, "match": closed.match, "table_link": True},
                status=410,
            )
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def _locked_call(
    view: Callable[..., HttpResponse], request: HttpRequest, where: dict, kwargs: dict
) -> HttpResponse:
    """The view in a transaction that locked the match row first. The tournament's first
    hand also writes the tournament row, which the lock order (tournaments.routing) wants
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


def base_context(access: MatchAccess) -> dict[str, Any]:
    context: dict[str, Any] = {
        "access": access,
        "match": access.match,
        "tournament": access.tournament,
        "urls": MatchUrls(access),
        # The players' pages (base.html): no log-in link or director navigation.
        "table_link": access.token is not None,
    }
    if access.can_direct and access.token is None:
        match, request = access.match, access.request
        context["table_url"] = SimpleLazyObject(lambda: table_url(match, request))
    return context


def table_url(match: Match, request: HttpRequest | None = None) -> str:
    """The absolute table link printed as a QR code (SITE_URL, else the request's host)."""
    from django.conf import settings

    path = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + path
    return request.build_absolute_uri(path) if request is not None else path


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
    if sheet is None:
        hands = services.load_hands(match) if hands is None else hands
        sheet = services.sheet_for(match, hands)
    entry_open = (
        access.can_enter
        and match.has_both_sides
        and match.status
        in (
            Match.Status.READY,
            Match.Status.IN_PLAY,
        )
        and not sheet.complete
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
        "loser_name": match.side_name(match.loser_side) if match.winner_side else "",
        "hand_count": len(sheet.hands),
    }


def _page(request: HttpRequest, context: dict[str, Any], partial: str) -> TemplateResponse:
    template = f"{TEMPLATE}#{partial}" if request.htmx else TEMPLATE
    return TemplateResponse(request, template, context)


@require_GET
@match_view
def match_sheet(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The match sheet: public to read; the entry form for those allowed."""
    if access.tournament.ruleset.is_team:
        from .team_views import team_page

        return team_page(request, access)
    region = "match-head" if request.GET.get("region") == "match-head" else "match-sheet"
    return _page(request, sheet_context(access), region)


@require_GET
@match_view
def match_entry(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The entry region alone (form, or the confirmation box once the match is decided)."""
    if access.tournament.ruleset.is_team:
        from .team_views import team_page

        return team_page(request, access)
    return _page(request, sheet_context(access), "match-entry")


@require_POST
@match_view(write=True)
def hand_create(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """Save the next hand. The service checks its number and its rules in one transaction,
    so the engine runs once; a preview request ("Show points" without JavaScript) only
    scores it."""
    require_entry(access)
    match = access.match
    previewing = "preview" in request.POST
    hands = services.load_hands(match) if previewing else None
    form = HandForm(request.POST, match=match, hands=hands)
    recorded: MatchSheet | None = None
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
            )
        except ScoringError as error:
            field = error.field if error.field in form.fields else None
            problem = labelled_problem(error, form.fields) if field else error.render(_)
            form.add_error(field, sentence(problem))
        except REFUSALS as error:
            form.add_error(None, refusal_message(error))
    if recorded is not None:
        if not request.htmx:
            messages.success(
                request, _("Hand %(number)d saved.") % {"number": form.cleaned_data["number"]}
            )
            return HttpResponseRedirect(access.url("match-sheet"))
        context = sheet_context(access, sheet=recorded)
        # Said to a screen reader, and the focus on the next hand's first question.
        context["saved_number"] = form.cleaned_data["number"]
        response = _page(request, context, "match-entry")
        if access.token is not None:
            # On the players' phone, Save sits below the fold: bring the new score and the
            # next hand's first question back into view.
            response["HX-Reswap"] = "outerHTML show:window:top"
        return trigger_client_event(response, HAND_RECORDED)
    context = sheet_context(access, hands=hands, form=form)
    if context["form"] is None:  # entry has closed (the match is decided): still say why
        context["entry_errors"] = form.non_field_errors()
    response = _page(request, context, "match-entry")
    if not request.htmx:
        response.status_code = 400
    return response


@submission_exempt
@require_http_methods(["GET", "POST"])
@match_view
def hand_preview(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """What the hand in the form would score, shown before it is saved."""
    require_entry(access)
    hands = services.load_hands(access.match)
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
    return HttpResponseRedirect(access.url("match-sheet"))


@require_POST
@match_view
def table_link(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """A director switches the table link off, or issues a new one (the old one dies)."""
    if access.token is not None or not access.can_direct:
        raise PermissionDenied(_("Only a director manages table links."))
    # Exactly one known action: QueryDict.get would quietly take the last of several.
    actions = request.POST.getlist("action")
    if len(actions) != 1 or actions[0] not in services.TABLE_LINK_ACTIONS:
        # 400.html shows the messages, so the director reads what was wrong.
        message = _("Choose either “Switch off table link” or “Issue a new table link”.")
        messages.error(request, message)
        raise BadRequest(message)
    services.set_table_link(match=access.match, action=actions[0], user=access.user)
    messages.success(request, _("Table link updated."))
    return HttpResponseRedirect(access.url("match-sheet"))
