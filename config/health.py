"""Is this node fit to serve? The load balancer asks (docs/club-server.md, issue 44).

``GET /health/`` answers 200 ``ok`` when the node reaches its database and its cache, 503
``unavailable`` otherwise, and nothing more: no version, no error text (the reason goes
to the node's log). HAProxy checks it over plain HTTP with the site's own name as the
Host header: it is exempt from the HTTPS redirect (``SECURE_REDIRECT_EXEMPT``) and never
cached.

:class:`DatabaseGone` answers a request whose view found the database (or the cache
server) unreachable with a 503 rather than a 500: HAProxy sends such a request once more,
to another node (``retry-on ... 503``), while its health check takes this one out; a
request that found no database wrote nothing, so repeating it is safe.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)

try:  # the cache server's own "cannot reach it", when Redis is the cache
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    CACHE_GONE: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError)
except ImportError:  # pragma: no cover - redis is a dependency
    CACHE_GONE = ()


def _database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache_answers() -> None:
    key = f"health:{secrets.token_hex(8)}"
    cache.set(key, "1", timeout=5)
    if cache.get(key) != "1":
        raise ConnectionError("the cache did not keep a value")
    cache.delete(key)


@require_safe
@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """200 ``ok`` when the database and the cache answer; 503 ``unavailable`` otherwise."""
    for name, probe in (("database", _database_answers), ("cache", _cache_answers)):
        try:
            probe()
        except (DatabaseError, ConnectionError, *CACHE_GONE) as error:
            log.warning("health check: the %s does not answer: %s", name, error)
            return HttpResponse("unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


class DatabaseGone:
    """A view that found the database or the cache server unreachable: 503, not 500.
    Any other database error (SQLite's "database is locked" at a venue, say: the
    connection still answers) is Django's 500, as before."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    @staticmethod
    def unreachable(exception: Exception) -> bool:
        if isinstance(exception, CACHE_GONE):
            return True
        if isinstance(exception, (OperationalError, InterfaceError)):
            return not connection.is_usable()
        return False

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not self.unreachable(exception):
            return None
        log.error(
            "%s %s: the database or cache is unreachable: %s",
            request.method,
            request.path,
            exception,
        )
        response = HttpResponse(
            _("The site is briefly unavailable: try again in a minute.") + "\n",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = "10"
        return response
