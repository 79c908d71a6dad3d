"""The table-link guess limiter: wrong links from one address are turned away after
TOKEN_FAILURE_LIMIT (429, saying until when, with Retry-After), a real link always opens,
and the count holds under concurrent guesses (the multi-process figures are in
tests/load/test_limiter.py)."""

from __future__ import annotations

import datetime
import html
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format

from scoring.models import Hand
from tables import access
from tests.scoring.helpers import knock, post_data, ready_match
from tournaments.models import Match
from web import limiter

pytestmark = pytest.mark.django_db


def table_url(match, name="match-sheet", **kwargs):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token, **kwargs})


def wrong_link() -> str:
    return f"/table/{secrets.token_urlsafe(32)}/"


def use_up_the_limit(client, **headers):
    statuses = [client.get(wrong_link(), **headers).status_code for _ in range(25)]
    assert statuses == [404] * access.TOKEN_FAILURE_LIMIT + [429] * 5


def test_a_real_link_opens_whatever_its_address_guessed_before(client):
    match = ready_match()
    use_up_the_limit(client)
    assert client.get(table_url(match)).status_code == 200
    response = client.post(table_url(match, "hand-create"), post_data(1, knock()))
    assert response.status_code == 302
    assert Hand.objects.filter(match=match).count() == 1
    # Opening the real link does not reset the count: guessing stays turned away.
    assert client.get(wrong_link()).status_code == 429


UNTIL = {
    "en": "wrong ones are refused until {time}",
    "es": "los erróneos se rechazan hasta las {time}",
    "af": "verkeerde skakels word tot {time} geweier",
}


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_a_wrong_link_past_the_limit_says_until_when_and_when_to_retry(
    client, monkeypatch, language
):
    """Issue 43: the 429 says until when (a minute up, so never too early), in the
    visitor's language, and carries Retry-After; the right link still opens meanwhile."""
    first = datetime.datetime(2026, 12, 7, 19, 30, 20, tzinfo=datetime.UTC).timestamp()
    now = [first]
    monkeypatch.setattr(time, "time", lambda: now[0])
    match = ready_match()
    use_up_the_limit(client)
    now[0] += 5 * 60
    response = client.get(wrong_link(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 429
    assert response["Retry-After"] == str(10 * 60)  # the window: 15 minutes from the first
    ends = timezone.localtime(datetime.datetime.fromtimestamp(first + 15 * 60, tz=datetime.UTC))
    with translation.override(language):
        shown = time_format(ends.replace(second=0) + datetime.timedelta(minutes=1))
    assert UNTIL[language].format(time=shown) in html.unescape(response.content.decode())
    now[0] += 9 * 60 + 59
    assert client.get(wrong_link())["Retry-After"] == "1"
    assert client.get(table_url(match)).status_code == 200


def test_a_closed_real_link_still_says_why_after_the_limit(client):
    match = ready_match()
    Match.objects.filter(pk=match.pk).update(token_revoked=True)
    use_up_the_limit(client)
    response = client.get(table_url(match))
    assert response.status_code == 410
    assert "switched off this table link" in response.content.decode()


def test_the_limit_is_per_address(client):
    use_up_the_limit(client, REMOTE_ADDR="192.0.2.10")
    assert client.get(wrong_link(), REMOTE_ADDR="192.0.2.11").status_code == 404


@pytest.mark.django_db(transaction=True)  # each thread reads the database on its own connection
def test_concurrent_guesses_cannot_slip_past_the_limit():
    from django.db import connection
    from django.test import Client

    def guesses(_: int) -> list[int]:
        try:
            own = Client()
            return [own.get(wrong_link()).status_code for _ in range(6)]
        finally:
            connection.close()

    with ThreadPoolExecutor(16) as pool:
        statuses = [status for batch in pool.map(guesses, range(16)) for status in batch]
    assert statuses.count(404) == access.TOKEN_FAILURE_LIMIT
    assert statuses.count(429) == len(statuses) - access.TOKEN_FAILURE_LIMIT


def test_the_count_lasts_the_whole_window_from_the_first_wrong_link(client, monkeypatch):
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    for _ in range(access.TOKEN_FAILURE_LIMIT - 1):
        assert client.get(wrong_link()).status_code == 404
    now[0] += 10 * 60
    assert client.get(wrong_link()).status_code == 404  # the last one within the limit
    now[0] += 4 * 60  # 14 minutes after the first: still turned away
    assert client.get(wrong_link()).status_code == 429
    now[0] += 61  # the window has passed: a fresh count
    assert client.get(wrong_link()).status_code == 404


# -- the counter itself, on both shared caches ----------------------------------------------


@pytest.fixture(scope="module")
def redis_url():
    from tools.load.servers import redis, redis_available

    problem = redis_available()
    if problem:
        pytest.skip(problem)
    with redis() as url:
        yield url


def count_at_once(address: str, times: int) -> list[int]:
    with ThreadPoolExecutor(16) as pool:
        return sorted(pool.map(lambda _: limiter.add_failure(address, window=900), range(times)))


def test_the_file_cache_counts_every_concurrent_failure():
    assert count_at_once("192.0.2.1", 64) == list(range(1, 65))
    assert limiter.failures("192.0.2.1") == 64
    assert limiter.failures("192.0.2.2") == 0


def test_a_count_says_when_its_window_ends_whatever_comes_after(monkeypatch):
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    assert limiter.window_end("192.0.2.1") is None
    limiter.add_failure("192.0.2.1", window=900)
    now[0] += 300
    limiter.add_failure("192.0.2.1", window=900)
    assert limiter.window_end("192.0.2.1") == now[0] - 300 + 900
    now[0] += 601
    assert limiter.window_end("192.0.2.1") is None


@pytest.mark.server  # a throwaway Redis
def test_redis_counts_every_concurrent_failure_within_one_window(settings, redis_url):
    import redis

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": secrets.token_hex(4),  # tests share the server
        }
    }
    assert count_at_once("192.0.2.1", 64) == list(range(1, 65))
    assert limiter.failures("192.0.2.1") == 64
    server = redis.Redis.from_url(redis_url)
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    (key,) = server.keys(f"{prefix}:*:{limiter.TABLE_LINKS}:192.0.2.1")
    assert 890 < server.ttl(key) <= 900  # from the first failure, kept by INCR
    # Beside it, when its window ends (Redis's expiry is not Django's to read).
    assert 0 <= time.time() + 900 - limiter.window_end("192.0.2.1") < 10
    # A key left without an expiry (INCR makes one afresh when the key expired between
    # Django's existence check and the INCR): the count that reaches 1 gives it one.
    server.set(key, 0)
    assert server.ttl(key) == -1
    assert limiter.add_failure("192.0.2.1", window=900) == 1
    assert 890 < server.ttl(key) <= 900


# -- which address: behind the club server's proxy, and at the venue ------------------------


def test_behind_a_trusted_proxy_each_phone_has_its_own_count(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    match = ready_match()
    use_up_the_limit(client, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert client.get(wrong_link(), HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 404
    # Writing another address into the header does not reset one's own count.
    spoofed = "198.51.100.1, 203.0.113.5"
    assert client.get(wrong_link(), HTTP_X_FORWARDED_FOR=spoofed).status_code == 429
    assert client.get(table_url(match), HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 200


def test_without_trusted_proxies_the_header_changes_nothing(client, settings):
    settings.TRUSTED_PROXIES = []
    statuses = [
        client.get(wrong_link(), HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(access.TOKEN_FAILURE_LIMIT + 1)
    ]
    assert statuses == [404] * access.TOKEN_FAILURE_LIMIT + [429]
