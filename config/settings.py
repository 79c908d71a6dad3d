"""Settings for the gin rummy club site: one file, driven by the environment.

Three ways to run it:

- **Venue** (``ginclub venue``, ``make run``; ``GINCLUB_VENUE=1``): a laptop on the venue
  Wi-Fi serves the room over plain HTTP. DEBUG off, a secret key generated once and kept in
  the data folder, the laptop's own addresses and names allowed, and no HTTPS-only cookies,
  redirects or HSTS (a venue LAN has no certificates: they would lock the phones out).
- **Development** (``ginclub dev``, ``make dev``, and the default): DEBUG on, a throwaway key.
- **Club server** (``DJANGO_DEBUG=0``): ``DJANGO_SECRET_KEY``, ``DJANGO_ALLOWED_HOSTS`` and
  usually ``DATABASE_URL`` (PostgreSQL), behind a TLS proxy; see docs/club-server.md.

Data (the SQLite database, the secret key, the shared cache) lives in ``GINCLUB_DATA_DIR``
(default: the user's own data folder when installed, ``data/`` in a checkout; see
:mod:`config.paths`), backups in ``GINCLUB_BACKUP_DIR`` (default ``<data>/backups``; point it
at a USB stick). Templates, static files and translations are read from
:data:`config.paths.SITE_FOLDER`: the installed package's own copy, or the checkout.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import network, paths, version

# The folder of the templates, static files and translations (config/paths.py): the
# installed package's own copy, or the checkout. BASE_DIR is Django's usual name for it.
SITE_FOLDER = BASE_DIR = paths.SITE_FOLDER
# Which build this is (ginclub --version; the footer; export.json's ginclub_version).
GINCLUB_VERSION = version.VERSION


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def venue_secret_key(path: Path) -> str:
    """The venue's secret key, made on first start and kept beside the database, so that
    sessions (a director's log-in) survive a restart. Never in the repository."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "x") as handle:  # two processes starting at once: one key wins
            handle.write(secrets.token_urlsafe(50))
    except FileExistsError:
        pass
    return path.read_text().strip()


DATA_DIR = Path(os.environ.get("GINCLUB_DATA_DIR") or paths.data_folder()).resolve()
BACKUP_DIR = Path(os.environ.get("GINCLUB_BACKUP_DIR", DATA_DIR / "backups")).resolve()
# Backups kept in BACKUP_DIR (the oldest go first), and the longest wait between two.
BACKUP_KEEP = int(os.environ.get("GINCLUB_BACKUP_KEEP", "30"))
BACKUP_INTERVAL = int(os.environ.get("GINCLUB_BACKUP_INTERVAL", "300"))

VENUE = env_bool("GINCLUB_VENUE", False)
VENUE_PORT = int(os.environ.get("GINCLUB_PORT", "8000"))
VENUE_ADDRESSES = network.lan_addresses() if VENUE else []

DEBUG = env_bool("DJANGO_DEBUG", not VENUE)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY and VENUE:
    SECRET_KEY = venue_secret_key(DATA_DIR / "secret_key.txt")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0.")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
if VENUE:
    # Phones use the laptop's LAN address (or its name); the director may use either.
    venue_hosts = [*LOCAL_HOSTS, *VENUE_ADDRESSES, *network.host_names()]
    ALLOWED_HOSTS = [*venue_hosts, *env_list("DJANGO_ALLOWED_HOSTS")]
    CSRF_TRUSTED_ORIGINS = [f"http://{host}:{VENUE_PORT}" for host in venue_hosts]
else:
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ",".join(LOCAL_HOSTS) if DEBUG else "")
    CSRF_TRUSTED_ORIGINS = []
CSRF_TRUSTED_ORIGINS += env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "web",
    "tournaments",
    "accounts",
    "players",
    "tables",
    "scoring",
    "standings",
    "money",
    "public",
    "printing",
    "archive",
    "backups",
    "club",
    "publishing",
    "demo",
]

# The parts of the tournament archive kept by apps above it (archive.sections): the
# archive imports none of them, these settings name them (top-level key: module).
ARCHIVE_SECTIONS = {"money": "money.copies", "seasons": "club.copies"}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A view that found the database or cache unreachable: 503, which HAProxy retries.
    "config.health.DatabaseGone",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A tournament mirrored from a venue is read-only here (publishing).
    "publishing.mirrors.ReadOnlyMirrorMiddleware",
    # A form's submission id: a double tap writes once and answers as the first did.
    "web.submissions.SubmissionMiddleware",
    # Last, as django-axes asks: turns a paused log-in into its page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_FOLDER / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.version.context",
                # read_only: a mirrored tournament's pages show no write control.
                "publishing.mirrors.read_only",
            ],
            "builtins": ["web.templatetags.submissions"],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"


# SQLite is the zero-setup default. WAL lets readers (projector, phones) carry on while a
# hand is written; IMMEDIATE transactions take the write lock up front so two writers queue
# on the busy timeout instead of failing with "database is locked" halfway through.
def sqlite_database(name: str) -> dict[str, object]:
    """An SQLite database's settings, however it was named (``SQLITE_PATH`` or a
    ``sqlite://`` ``DATABASE_URL``): without these options it locks under load.

    Connections are kept between requests (``CONN_MAX_AGE``), one per server thread:
    opening one costs about a millisecond (the file, the pragmas below, the functions
    Django registers), as much as a whole poll of a live page answered from the cache."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": name,
        "CONN_MAX_AGE": 600,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL;"
                "PRAGMA synchronous=NORMAL;"
                "PRAGMA busy_timeout=20000;"
                "PRAGMA foreign_keys=ON;"
            ),
        },
        # A file, not the in-memory default: tests of concurrent entry need real WAL locking
        # (shared-cache memory databases lock whole tables and ignore the busy timeout).
        # One per process, so two test runs in one checkout never share a database.
        "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"ginclub-test-{os.getpid()}.sqlite3")},
    }


if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES = {"default": sqlite_database(DATABASES["default"]["NAME"])}
    # Behind a transaction-pooling pgbouncer, server-side cursors (the public pages stream
    # their hands with .iterator()) must be off.
    if os.environ.get("DATABASE_DISABLE_SERVER_SIDE_CURSORS") == "1":
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
else:
    DATABASES = {
        "default": sqlite_database(os.environ.get("SQLITE_PATH", str(DATA_DIR / "db.sqlite3")))
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Log-in limits (django-axes), on the site's log-in page and the admin's: after
# AXES_FAILURE_LIMIT wrong passwords for one username from one device (its address, read
# as the table-link limiter reads it), that pair is paused for AXES_COOLOFF_TIME, without
# the password being checked (429, registration/locked_out.html). The same username from
# another device, and other usernames, are not: a player cannot lock the director out.
# Attempts are rows in the database every worker shares (admin: "Access attempts"), or
# counts in Redis when REDIS_URL is set (AXES_HANDLER, below with the cache).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A paused pair's further attempts are not written: each would append its request to the
# attempt's row (a flood would grow it without end), and the pause ends 15 minutes after
# the failure that started it, as the page says.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "web.clients.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.views.lockout.locked_out"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:dashboard"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# Date formats for a language Django has none for (Afrikaans): config/formats/<code>/.
FORMAT_MODULE_PATH = ["config.formats"]
# The site's languages: a new one is its catalogue (locale/<code>/LC_MESSAGES) and one
# line here. Tournaments, the switcher and the tests all read this list.
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("af", _("Afrikaans")),
]
LOCALE_PATHS = [SITE_FOLDER / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [SITE_FOLDER / "static"]
STATIC_ROOT = DATA_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# One cache every server process shares (the table-link guess limiter counts across all
# gunicorn workers): files in the data folder, or Redis when REDIS_URL is set. With Redis
# (a club's server, possibly on several machines) the log-in limiter counts there too:
# every node sees the same wrong passwords, and a flood of them writes no database rows
# (the admin's "Access attempts" then stays empty; `axes_reset_ip_username ADDRESS
# USERNAME` lifts a pause early). Without it the limiter keeps its rows in the database.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
        }
    }
    AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
        }
    }
    AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"


def trusted_proxies(name: str) -> list[str]:
    """The proxies (addresses or networks) whose X-Forwarded-For names the client, for the
    limiters (see web/clients.py). None by default: REMOTE_ADDR only."""
    items = env_list(name)
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not an IP address or network (such as 127.0.0.1 or "
                "10.0.0.0/8)."
            ) from None
    return items


# A club server behind a TLS proxy on the same machine: DJANGO_TRUSTED_PROXIES=127.0.0.1.
TRUSTED_PROXIES = trusted_proxies("DJANGO_TRUSTED_PROXIES")

# Production hardening behind TLS; all of it is what `manage.py check --deploy` asks for.
# The venue server speaks plain HTTP on the LAN, so it keeps only what works without TLS.
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (config/csp.py; the shape of Django 6.0's setting of the same
# name). Everything comes from the site itself: no inline script or style (htmx's indicator
# style is in site.css), no eval (htmx is told so), no framing. object-src stays at
# default-src's 'self' rather than 'none': the scoresheets open inline in the browsers' own
# PDF viewers (Chromium's was seen to show them either way; Safari's was not tried).
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
if not DEBUG and not VENUE:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The load balancer's health check comes over plain HTTP (config/health.py).
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Where table links (QR codes) point. The venue server points them at the laptop's LAN
# address, whatever address the director's own browser uses; otherwise they follow the
# address the request came in on.
SITE_URL = os.environ.get("SITE_URL", "")
if VENUE and not SITE_URL and VENUE_ADDRESSES:
    SITE_URL = f"http://{VENUE_ADDRESSES[0]}:{VENUE_PORT}"

# A set-password link a director hands a new co-director or scorekeeper (tournaments/
# accounts/services.py) works once, for a day; the site has no other use for password resets.
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24

LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Refusals (403, a refused Host header) in one line, without a traceback (config/logs.py).
    "filters": {
        "refusals": {"()": "config.logs.ExpectedRefusals"},
        # waitress's "Task queue depth is N", said in words at most once a minute.
        "busy": {"()": "config.logs.BusyServer"},
        # A table link's or a set-password link's secret in a logged path, as "…".
        "secrets": {"()": "config.logs.SecretsInPaths"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals", "secrets"]},
        # The development server's request lines, as Django prints them, without secrets.
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["secrets"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's own console handler as well would print every record twice under DEBUG.
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        "waitress.queue": {"filters": ["busy"]},
    },
}
