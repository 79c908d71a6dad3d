"""Plumbing shared by the director's views: page rendering, permission decorators, URLs."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from ..models import Match, Tournament
from ..permissions import can_direct, is_club_admin, is_director

Status = Match.Status
# htmx events: other regions of the registration page reload themselves on these.
ENTRIES_CHANGED = "entries-changed"
PLAYER_REGISTERED = "player-registered"


# -- plumbing --------------------------------------------------------------------------------


def message_text(error: ValidationError) -> str:
    return " ".join(str(m) for m in error.messages)


def login_redirect(request: HttpRequest) -> HttpResponse:
    """To the login page, and back to this page once logged in: what every director's
    view answers an anonymous visitor (the decorators here, the dashboard)."""
    return redirect_to_login(request.get_full_path())


def director_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the club-wide screens (registry, new tournament): directors only."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not is_director(request.user):
            raise PermissionDenied(_("Only tournament directors can do this."))
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def club_admin_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The club's administrator only (:func:`tournaments.permissions.is_club_admin`)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not is_club_admin(request.user):
            raise PermissionDenied(_("Only the club's administrator can make directors."))
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def manage_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For ``/t/<slug>/manage/…``: the tournament's owner and co-directors only."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament.objects.select_related("owner"), slug=slug)
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not can_direct(request.user, tournament):
            raise PermissionDenied(_("You do not direct this tournament."))
        response = view(request, tournament, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def manage_url(name: str, tournament: Tournament, **kwargs: Any) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug, **kwargs})
