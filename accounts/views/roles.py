"""The Roles page: a tournament's co-directors and scorekeepers, existing accounts or new
people given a one-time link to choose a password."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import organising
from tournaments.models import Tournament
from tournaments.views.base import manage_view, message_text
from web.pages import page
from web.qr import qr_svg
from web.submissions import shows_a_secret

from .. import services as accounts
from ..forms import NewMemberForm, RoleForm


def _roles_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "co_directors": tournament.co_directors.order_by("username"),
        "scorekeepers": tournament.scorekeepers.order_by("username"),
        "form": RoleForm(),
        "new_form": NewMemberForm(),
        "awaiting_password": accounts.awaiting_password(tournament),
        "section": "roles",
        **extra,
    }


def _link_shown(request: HttpRequest, member: Any) -> dict[str, Any]:
    url = accounts.set_password_url(member, request)
    return {"member": member, "url": url, "qr": qr_svg(url)}


def _roles_result(
    request: HttpRequest, tournament: Tournament, *, ok: str = "", error: str = "", **extra: Any
) -> HttpResponse:
    """The role list again; a new link is shown on the page itself, never in a redirect
    (it must not sit in the session or the history)."""
    if request.htmx or "new_link" in extra or "new_form" in extra:
        context = _roles_context(tournament, notice=ok, error=error, **extra)
        return page(request, "accounts/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect("accounts:roles", slug=tournament.slug)


@require_POST
@manage_view
@shows_a_secret
def role_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A new account for a person by name and email, with a role and a set-password link."""
    form = NewMemberForm(request.POST)
    if form.is_valid():
        try:
            member = accounts.create_member(
                tournament=tournament,
                name=form.cleaned_data["name"],
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                user=request.user,
            )
        except ValidationError as exc:
            form.add_error("email", exc)
        else:
            ok = _("Account %(username)s made for %(name)s.") % {
                "username": member.get_username(),
                "name": form.cleaned_data["name"],
            }
            return _roles_result(request, tournament, ok=ok, new_link=_link_shown(request, member))
    return _roles_result(request, tournament, new_form=form)


@require_POST
@manage_view
@shows_a_secret
def role_link(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A fresh set-password link for a member who has not chosen a password yet."""
    waiting = {str(m.pk): m for m in accounts.awaiting_password(tournament)}
    member = waiting.get(request.POST.get("user", ""))
    if member is None:
        error = _("That account has chosen its password already, or has no role here.")
        return _roles_result(request, tournament, error=error)
    return _roles_result(request, tournament, new_link=_link_shown(request, member))


@require_GET
@manage_view
def roles(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(request, "accounts/roles.html", _roles_context(tournament), partial="role-list")


@require_POST
@manage_view
def role_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoleForm(request.POST)
    error = ""
    ok = ""
    if form.is_valid():
        try:
            member = organising.add_role(
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
        return page(request, "accounts/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect("accounts:roles", slug=tournament.slug)


@require_POST
@manage_view
def role_remove(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        user_id = int(request.POST.get("user", ""))
        organising.remove_role(
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
        return page(request, "accounts/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    return redirect("accounts:roles", slug=tournament.slug)
