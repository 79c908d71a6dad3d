"""Public tournament pages speak the tournament's language.

Order of preference: the language a visitor picked with the switcher (Django's language
cookie), then the tournament's language on its public pages, match sheets, table links,
projector and public PDFs, then the browser's preference (Django's LocaleMiddleware). The
director's own screens keep the director's language. The views that load their tournament
call :func:`use_tournament_language` themselves (``public.live``, ``tables.access``,
``printing.views``), which spares every request a query of its own.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def use_tournament_language(request: HttpRequest, language: str) -> None:
    """Speak ``language`` for this request unless the visitor chose one with the switcher."""
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language
