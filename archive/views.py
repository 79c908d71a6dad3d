"""The archive's one view: ``/t/<slug>/export.json`` (SPEC 8), for the tournament's
directors (with the contact details of only the players each may see)."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.permissions import can_direct, owns_player

from .export import dumps, export_tournament


@require_GET
@never_cache
def export_view(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/export.json``: the archive, for the tournament's directors only."""
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_direct(request.user, tournament):
        raise PermissionDenied
    # A director without the registrar role gets the contact details only of the players
    # they added (players.registry's ownership model).
    document = export_tournament(tournament, shows_private=lambda p: owns_player(request.user, p))
    response = HttpResponse(dumps(document), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response
