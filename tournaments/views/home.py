"""The home page and the director's dashboard."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.pages import page

from ..models import Tournament
from ..permissions import is_club_admin, is_director, is_registrar
from .base import login_redirect

# -- home and dashboard ----------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public: the tournaments that are open, running or finished (no personal data)."""
    tournaments = Tournament.objects.exclude(status=Tournament.Status.DRAFT).order_by(
        "-date", "name"
    )[:50]
    return render(request, "home.html", {"tournaments": tournaments})


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    user = request.user
    directing = (
        Tournament.objects.filter(Q(owner=user) | Q(co_directors=user)).distinct()
        if not user.is_superuser
        else Tournament.objects.all()
    )
    scorekeeping = Tournament.objects.filter(scorekeepers=user).exclude(
        pk__in=directing.values("pk")
    )
    context = {
        "directing": directing.select_related("owner")
        .annotate(players=Count("entries", filter=Q(entries__withdrawn=False), distinct=True))
        .order_by("-date", "name"),
        "scorekeeping": scorekeeping.order_by("-date", "name"),
        "is_director": is_director(user),
        "is_registrar": is_registrar(user),
        "is_club_admin": is_club_admin(user),
    }
    return page(request, "tournaments/dashboard.html", context)
