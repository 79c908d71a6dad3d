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


def kept_by_venues(tournament_ids: list[int]) -> dict[int, str]:
    """Of these tournaments, the mirrors, each with its venue's name (the finder of
    :mod:`tournaments.kept_elsewhere`; no query where nothing is mirrored)."""
    if not mirrored():
        return {}
    rows = Mirror.objects.filter(tournament_id__in=tournament_ids)
    return dict(rows.values_list("tournament_id", "venue"))


def read_only_message(request: HttpRequest) -> str:
    """What a page of a mirrored tournament says instead of its write controls (the
    refusal, naming the venue); "" on any other page."""
    found = request.resolver_match
    # A season's slug is not a tournament's; a mirror's table links are revoked
    # (archive.restore.write_copy), so none of its /table/ URLs opens.
    if found is None or not found.route.startswith("t/<slug:slug>/"):
        return ""
    venue = mirrored().get(found.kwargs["slug"])
    return "" if venue is None else refusal(venue)


def read_only(request: HttpRequest) -> dict[str, str]:
    """The context processor: ``read_only``, that sentence, which a page of a mirrored
    tournament shows in place of every form that would write to it (templates read
    ``{% if not read_only %}``; the middleware below refuses the write anyway)."""
    return {"read_only": read_only_message(request)}


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
        message = read_only_message(request)
        if not message:
            return None
        if request.headers.get("HX-Request") or "json" in request.headers.get("Accept", ""):
            return JsonResponse({"error": message}, status=403)
        return render(request, "publishing/read_only.html", {"message": message}, status=403)
