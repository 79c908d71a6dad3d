"""Co-directors and scorekeepers, and the audit log."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import audit_log as audit_log_module
from .. import setup
from ..forms import RoleForm
from ..models import AuditEntry, Entry, Match, Tournament
from ..models.audit import ACTION_LABELS
from ..rounds import play_order
from .base import (
    manage_url,
    manage_view,
    message_text,
    page,
)

# -- roles -----------------------------------------------------------------------------------


def _roles_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "co_directors": tournament.co_directors.order_by("username"),
        "scorekeepers": tournament.scorekeepers.order_by("username"),
        "form": RoleForm(),
        "section": "roles",
        **extra,
    }


@require_GET
@manage_view
def roles(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(request, "tournaments/roles.html", _roles_context(tournament), partial="role-list")


@require_POST
@manage_view
def role_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoleForm(request.POST)
    error = ""
    ok = ""
    if form.is_valid():
        try:
            member = setup.add_role(
                tournament=tournament,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                user=request.user,
            )
        except ValidationError as exc:
            form.add_error("username", exc)
        else:
            ok = _("%(username)s added.") % {"username": member.get_username()}
            form = RoleForm()
    if not form.is_valid() and form.is_bound:
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    if request.htmx:
        context = _roles_context(tournament, form=form, notice=ok)
        return page(request, "tournaments/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("roles", tournament))


@require_POST
@manage_view
def role_remove(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        user_id = int(request.POST.get("user", ""))
        setup.remove_role(
            tournament=tournament,
            user_id=user_id,
            role=request.POST.get("role", ""),
            user=request.user,
        )
    except ValueError:
        error, ok = _("Choose an account to remove."), ""
    except ValidationError as exc:
        error, ok = message_text(exc), ""
    else:
        error, ok = "", _("Role removed.")
    if request.htmx:
        context = _roles_context(tournament, notice=ok, error=error)
        return page(request, "tournaments/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    return redirect(manage_url("roles", tournament))


# -- audit log -------------------------------------------------------------------------------


@require_GET
@manage_view
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The log as sentences, newest first, filtered by match, player and kind."""
    action = request.GET.get("action", "").strip()[:80]
    matches = list(
        Match.objects.filter(tournament=tournament)
        .exclude(side_a=None, side_b=None)
        .annotate(**Match.side_names())
    )
    matches.sort(key=lambda m: (play_order(m.section, m.round), m.position))
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__name")
    )
    match = next((m for m in matches if m.key == request.GET.get("match")), None)
    player_id = request.GET.get("player", "")
    player = next((e for e in entries if str(e.pk) == player_id), None)
    rows = audit_log_module.filtered(tournament, match=match, player=player, action=action)
    paginator = Paginator(rows, 100)
    shown = paginator.get_page(request.GET.get("page"))
    query = {
        k: v
        for k, v in (
            ("match", match.key if match else ""),
            ("player", str(player.pk) if player else ""),
            ("action", action),
        )
        if v
    }
    context = {
        "tournament": tournament,
        "entries": shown,
        "lines": audit_log_module.lines(tournament, shown.object_list),
        "actions": [
            (code, ACTION_LABELS.get(code, code))
            for code in AuditEntry.objects.filter(tournament=tournament)
            .order_by("action")
            .values_list("action", flat=True)
            .distinct()
        ],
        "matches": matches,
        "players": entries,
        "action": action,
        "match": match,
        "player": player,
        "query": urlencode(query),
        "section": "audit",
    }
    return page(request, "tournaments/audit.html", context, partial="audit-list")
