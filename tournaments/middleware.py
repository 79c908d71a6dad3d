"""Public tournament pages speak the tournament's language.

Order of preference: the language a visitor picked with the switcher (Django's language
cookie), then the tournament's language on its public pages, match sheets, table links and
projector, then the browser's preference (Django's LocaleMiddleware). The director's own
screens keep the director's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .models import Tournament

# Match sheets and table links (namespace "scoring") load their tournament anyway and call
# use_tournament_language themselves, which saves the hot hand-entry path a query.
PUBLIC_NAMESPACES = {"public"}


def use_tournament_language(request: HttpRequest, language: str) -> None:
    """Speak ``language`` for this request unless the visitor chose one with the switcher."""
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language


class TournamentLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        if match is None or match.namespace not in PUBLIC_NAMESPACES:
            return
        if settings.LANGUAGE_COOKIE_NAME in request.COOKIES or "slug" not in kwargs:
            return
        language = (
            Tournament.objects.filter(slug=kwargs["slug"])
            .values_list("language", flat=True)
            .first()
        )
        if language:
            use_tournament_language(request, language)
