"""At the club's server: a mirrored tournament is read-only (every write is the venue's),
and says how fresh it is (:mod:`.lag`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .kept import Kept
from .models import Mirror

SAFE = ("GET", "HEAD", "OPTIONS", "TRACE")


def refusal(venue: str) -> str:
    if venue:
        return _("This tournament is published from the venue “%(venue)s”: make changes there.") % {
            "venue": venue
        }
    return _("This tournament is published from its venue: make changes there.")


MIRRORED = "publishing:mirrored"


mirrored = Kept(MIRRORED, lambda: dict(Mirror.objects.values_list("tournament__slug", "venue")))
"""The slugs of the mirrored tournaments here, with their venues (a venue has none; a
write there pays no query), forgotten whenever a mirror is made or deleted."""


def forget_mirrored(**_signal: Any) -> None:
    """After a mirror is made or deleted (a mirror saved again, at each word from its
    venue, changes nothing the map holds)."""
    if _signal.get("created") is not False:
        mirrored.forget()


class ReadOnlyMirrorMiddleware:
    """Refuses any write to a URL of a mirrored tournament (one naming its slug, or a
    table link of one of its matches), before the view or a recorded answer runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        if request.method in SAFE:
            return None
        route = request.resolver_match.route if request.resolver_match else ""
        if not route.startswith("t/<slug:slug>/"):  # a season's slug is not a tournament's
            return None  # (a mirror's table links are revoked: archive.restore.write_copy)
        venue = mirrored().get(kwargs["slug"])
        if venue is None:
            return None
        message = refusal(venue)
        if request.headers.get("HX-Request") or "json" in request.headers.get("Accept", ""):
            return JsonResponse({"error": message}, status=403)
        return render(request, "publishing/read_only.html", {"message": message}, status=403)
