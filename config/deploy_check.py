"""``ginclub deploy-check``: what is wrong with this club server's settings for the
internet, one line each, or ``ready`` (issue 44; docs/club-server.md).

The checks are Django system checks registered for deployment (``register(deploy=True)``,
ids ``ginclub.W0nn``), run together with Django's own ``check --deploy`` ones: DEBUG, the
host names, the CSRF origins, secure cookies, the proxy's headers, SQLite, the cache
server, the backups' destination and the site's address. Each line names the
environment variable that sets it (``deploy/club/ginclub.env.example``). The command exits
with 1 when anything is wrong, 0 otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks

CACHE_SERVERS = ("redis", "memcached")


def _debug() -> str | None:
    if settings.DEBUG:
        return (
            "DJANGO_DEBUG: DEBUG is on (error pages would show anyone the site's insides); "
            "set DJANGO_DEBUG=0"
        )
    return None


def _hosts() -> str | None:
    hosts = list(settings.ALLOWED_HOSTS)
    if not hosts:
        return "DJANGO_ALLOWED_HOSTS: empty; name the site's host, e.g. gin.example.org"
    if "*" in hosts:
        return "DJANGO_ALLOWED_HOSTS: '*' accepts any host name; name the site's own"
    host = urlsplit(settings.SITE_URL).hostname
    if host and host not in hosts:
        return f"DJANGO_ALLOWED_HOSTS: lacks {host}, the host of SITE_URL"
    return None


def _csrf_origins() -> str | None:
    site = urlsplit(settings.SITE_URL)
    if not site.scheme or not site.netloc:
        return None  # said by _site_address
    origin = f"{site.scheme}://{site.netloc}"
    if origin not in settings.CSRF_TRUSTED_ORIGINS:
        return (
            f"DJANGO_CSRF_TRUSTED_ORIGINS: lacks {origin}, the site's address: its forms "
            "would be refused"
        )
    return None


def _cookies() -> str | None:
    if not (settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE):
        return "the session and CSRF cookies are not secure-only (they are with DJANGO_DEBUG=0)"
    return None


def _proxy() -> str | None:
    if not settings.SECURE_PROXY_SSL_HEADER:
        return (
            "no proxy SSL header: the site cannot tell HTTPS from HTTP behind the proxy "
            "(it reads X-Forwarded-Proto with DJANGO_DEBUG=0)"
        )
    if not settings.TRUSTED_PROXIES:
        return (
            "DJANGO_TRUSTED_PROXIES: empty; name the load balancer's address, or every phone "
            "counts as the proxy in the guess limiters"
        )
    return None


def _database() -> str | None:
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return "DATABASE_URL: the database is SQLite; a club's server uses PostgreSQL"
    return None


def _cache() -> str | None:
    backend = settings.CACHES["default"]["BACKEND"].lower()
    if not any(server in backend for server in CACHE_SERVERS):
        return (
            "REDIS_URL: not set: no cache server, so each node counts the guess limits and "
            "keeps the live pages on its own"
        )
    return None


def _backups() -> str | None:
    backups, data = Path(settings.BACKUP_DIR), Path(settings.DATA_DIR)
    if backups == data or data in backups.parents:
        return (
            "GINCLUB_BACKUP_DIR: not set apart: backups would go inside the data folder, "
            "lost with it; name another disk or machine"
        )
    return None


def _site_address() -> str | None:
    if not settings.SITE_URL:
        return (
            "SITE_URL: not set; the site's address, e.g. https://gin.example.org (QR codes, links)"
        )
    if urlsplit(settings.SITE_URL).scheme != "https":
        return f"SITE_URL: {settings.SITE_URL} is not https"
    return None


CHECKS: list[Callable[[], str | None]] = [
    _debug,
    _hosts,
    _csrf_origins,
    _cookies,
    _proxy,
    _database,
    _cache,
    _backups,
    _site_address,
]


@checks.register(checks.Tags.security, deploy=True)
def club_server(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """The club server's own deployment checks: one warning for each thing wrong."""
    found = []
    for number, check in enumerate(CHECKS, start=1):
        problem = check()
        if problem:
            found.append(checks.Warning(problem, id=f"ginclub.W{number:03d}"))
    return found


def problems() -> list[str]:
    """Every deployment warning, ours and Django's, as one line each."""
    messages = checks.run_checks(include_deployment_checks=True)
    lines = []
    for message in messages:
        if message.level < checks.WARNING or message.is_silenced():
            continue
        text = " ".join(str(message.msg).split())
        lines.append(text if message.id.startswith("ginclub.") else f"{text} ({message.id})")
    return lines


def main() -> int:
    """``ginclub deploy-check``: each problem on a line of its own (exit 1), or ``ready``."""
    import django

    django.setup()
    found = problems()
    for line in found or ["ready"]:
        sys.stdout.write(line + "\n")
    return 1 if found else 0
