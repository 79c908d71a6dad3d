"""The Directors page: the club's administrator makes further accounts that may create
tournaments (a new person by name and email, with a one-time set-password link, or an
existing account by username), and sees who may."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.views.base import club_admin_view
from web.pages import page
from web.qr import qr_svg
from web.submissions import shows_a_secret

from .. import services as accounts
from ..forms import DirectorForm, NewDirectorForm

TEMPLATE = "accounts/directors.html"


def _context(**extra: Any) -> dict[str, Any]:
    everyone = accounts.directors()
    return {
        "directors": everyone,
        "awaiting_password": accounts.directors_awaiting_password(everyone),
        "new_form": NewDirectorForm(),
        "form": DirectorForm(),
        "section": "directors",
        **extra,
    }


def _shown(request: HttpRequest, **extra: Any) -> HttpResponse:
    """The page with a new link on it: never a redirect (the link must not sit in the
    session or the history)."""
    return page(request, TEMPLATE, _context(**extra), partial="director-list")


@require_GET
@club_admin_view
def directors(request: HttpRequest) -> HttpResponse:
    return page(request, TEMPLATE, _context(), partial="director-list")


def _link_shown(request: HttpRequest, director: Any) -> dict[str, Any]:
    url = accounts.set_password_url(director, request)
    return {"member": director, "url": url, "qr": qr_svg(url)}


@require_POST
@club_admin_view
@shows_a_secret
def director_create(request: HttpRequest) -> HttpResponse:
    form = NewDirectorForm(request.POST)
    if form.is_valid():
        try:
            director = accounts.create_director(
                name=form.cleaned_data["name"],
                email=form.cleaned_data["email"],
                user=request.user,
            )
        except ValidationError as exc:
            form.add_error("email", exc)
        else:
            notice = _("Account %(username)s made for %(name)s: they may create tournaments.") % {
                "username": director.get_username(),
                "name": form.cleaned_data["name"],
            }
            return _shown(request, notice=notice, new_link=_link_shown(request, director))
    return _shown(request, new_form=form)


@require_POST
@club_admin_view
def director_add(request: HttpRequest) -> HttpResponse:
    form = DirectorForm(request.POST)
    if form.is_valid():
        try:
            director = accounts.make_director(
                username=form.cleaned_data["username"], user=request.user
            )
        except ValidationError as exc:
            form.add_error("username", exc)
        else:
            notice = _("%(username)s may create tournaments.") % {
                "username": director.get_username()
            }
            if request.htmx:
                return _shown(request, notice=notice)
            messages.success(request, notice)
            return redirect("accounts:directors")
    if request.htmx:
        return _shown(request, form=form)
    messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("accounts:directors")


@require_POST
@club_admin_view
@shows_a_secret
def director_link(request: HttpRequest) -> HttpResponse:
    """A fresh set-password link for a director made here who has no password yet."""
    waiting = {str(d.pk): d for d in accounts.directors_awaiting_password(accounts.directors())}
    director = waiting.get(request.POST.get("user", ""))
    if director is None:
        error = _("That account has chosen its password already, or was not made here.")
        if request.htmx:
            return _shown(request, error=error)
        messages.error(request, error)
        return redirect("accounts:directors")
    return _shown(request, new_link=_link_shown(request, director))
