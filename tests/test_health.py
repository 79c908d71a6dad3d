"""The load balancer's health check (config/health.py, issue 44): 200 when the node
reaches its database and cache, 503 otherwise, saying nothing else; over plain HTTP on a
club's server, where everything else is sent to HTTPS."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import RequestFactory, override_settings
from django.utils import translation

from config import health
from config.version import VERSION
from tests.test_deploy import PRODUCTION, run

# A Redis no one listens on: the cache server is unreachable.
NO_CACHE_SERVER = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


class Unreachable:
    """A database connection whose server is gone."""

    def cursor(self):
        raise OperationalError("connection to server at 10.0.0.7, port 5432 failed: refused")

    def is_usable(self):
        return False


class Locked:
    """A database connection that answers, after an error of its own (SQLite's lock)."""

    def is_usable(self):
        return True


@pytest.mark.django_db
def test_a_node_that_reaches_its_database_and_cache_is_healthy(client):
    answer = client.get("/health/")
    assert answer.status_code == 200
    assert answer.content == b"ok\n"
    assert "no-cache" in answer["Cache-Control"] and "max-age=0" in answer["Cache-Control"]


@pytest.mark.django_db
def test_without_its_database_it_is_unavailable_and_says_nothing_more(client, monkeypatch):
    monkeypatch.setattr(health, "connection", Unreachable())
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.content == b"unavailable\n"
    assert b"5432" not in answer.content and VERSION.encode() not in answer.content


@pytest.mark.django_db
def test_without_its_cache_server_it_is_unavailable(client):
    with override_settings(CACHES=NO_CACHE_SERVER):
        answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.content == b"unavailable\n"


def test_a_view_that_finds_no_database_answers_503_for_the_balancer_to_retry(monkeypatch):
    monkeypatch.setattr(health, "connection", Unreachable())
    request = RequestFactory().get("/t/club-night/")
    middleware = health.DatabaseGone(lambda request: None)
    answer = middleware.process_exception(request, OperationalError("server closed the connection"))
    assert answer is not None and answer.status_code == 503
    assert answer["Retry-After"] == "10"
    assert b"server closed" not in answer.content
    # Any other error is Django's own 500, as before.
    assert middleware.process_exception(request, ValueError("a bug")) is None


def test_a_database_error_on_a_connection_that_still_answers_is_the_usual_500(monkeypatch):
    monkeypatch.setattr(health, "connection", Locked())
    middleware = health.DatabaseGone(lambda request: None)
    request = RequestFactory().post("/table/abc/")
    assert middleware.process_exception(request, OperationalError("database is locked")) is None


def test_on_a_club_server_the_check_is_plain_http_and_everything_else_goes_to_https(tmp_path):
    script = (
        "import django; django.setup(); from django.test import Client; c = Client(); "
        "h = c.get('/health/', HTTP_HOST='gin.example.org'); "
        "p = c.get('/', HTTP_HOST='gin.example.org'); "
        "print(h.status_code, h.content.decode().strip(), p.status_code, p['Location'])"
    )
    done = run(["-c", script], **PRODUCTION, GINCLUB_DATA_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["200", "ok", "301", "https://gin.example.org/"]


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "briefly unavailable"), ("es", "no está disponible"), ("af", "nie beskikbaar nie")],
)
def test_the_503_speaks_the_visitors_language(monkeypatch, language, words):
    monkeypatch.setattr(health, "connection", Unreachable())
    middleware = health.DatabaseGone(lambda request: None)
    with translation.override(language):
        answer = middleware.process_exception(RequestFactory().get("/"), OperationalError())
    assert answer is not None and words in answer.content.decode()
