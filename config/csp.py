"""The Content-Security-Policy header, from one setting (``SECURE_CSP``).

Django 5.2 has no CSP support of its own; 6.0 adds ``ContentSecurityPolicyMiddleware``
configured by a ``SECURE_CSP`` dict of directive → sources. This middleware reads a
setting of the same name and shape, so moving to Django 6 is swapping one line of
``MIDDLEWARE``. It adds no nonces: the site has no inline script or style to allow, and
htmx is told not to inject its indicator ``<style>`` (the ``htmx-config`` meta tag in
``base.html`` and ``public/display.html``; ``static/css/site.css`` carries those rules).

Like Django's, it leaves a response that already has the header alone. With DEBUG on it
also leaves error responses alone: Django's technical 404 and 500 pages style and script
themselves inline (development only; DEBUG is off on the venue server and in the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy_header(policy: Mapping[str, Sequence[str] | str]) -> str:
    """``{"default-src": ["'self'"], …}`` as a header value: ``default-src 'self'; …``."""
    parts = []
    for directive, sources in policy.items():
        values = [sources] if isinstance(sources, str) else list(sources)
        parts.append(" ".join([directive, *values]))
    return "; ".join(parts)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "SECURE_CSP", None)
        if settings.DEBUG and response.status_code >= 400:
            return response
        if policy and HEADER not in response.headers:
            response.headers[HEADER] = policy_header(policy)
        return response
