"""The one choice every page with regions makes: for htmx, only the region asked for (a
``{% partialdef %}`` of the page's template, named by its element's id); otherwise, and for
htmx restoring a page from its history, the whole page. Either way the answer varies on
``HX-Request``, so no cache hands one to the other."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def wants_region(request: HttpRequest) -> bool:
    """An htmx request for one region (not htmx restoring a page from its history)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def template_for(request: HttpRequest, template: str, partial: str | None) -> str:
    """``template#partial`` for an htmx request for a region, else ``template``."""
    return f"{template}#{partial}" if partial and wants_region(request) else template


def page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or only ``partial`` for htmx; varies on HX-Request either way."""
    response = render(request, template_for(request, template, partial), context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
