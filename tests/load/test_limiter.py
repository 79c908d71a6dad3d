"""The table-link guess limiter counts across gunicorn's workers, on both shared caches:
with 3 workers an address gets 20 wrong guesses in 15 minutes, not 20 per worker (about 60
with a cache of each worker's own), however many it sends at once (concurrent increments
of the file cache used to be lost), and the real link still opens from that address
afterwards. Behind a trusted proxy each phone has its own count; without one, and at the
venue server, X-Forwarded-For is ignored. gunicorn and the venue server run on scratch
databases of their own, Redis is a throwaway one, all on loopback."""

from __future__ import annotations

import os
import urllib.request

import pytest

from tables.access import TOKEN_FAILURE_LIMIT
from tools.load.limiter import guess, measure
from tools.load.servers import redis, redis_available, venue

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest


def test_three_workers_share_one_limit_and_a_real_link_still_opens():
    result = measure(workers=3, guesses=80)
    assert TOKEN_FAILURE_LIMIT == 20
    assert (result["got_through"], result["turned_away"]) == (20, 60), result
    assert result["real_link"] == 200, result


def test_concurrent_guesses_through_three_workers_get_no_more_through():
    result = measure(workers=3, guesses=120, threads=8)
    assert (result["got_through"], result["turned_away"]) == (20, 100), result
    assert result["real_link"] == 200, result


def test_the_same_holds_with_redis_as_the_shared_cache():
    problem = redis_available()
    if problem:
        pytest.skip(problem)
    with redis() as url:
        result = measure(workers=3, guesses=120, threads=8, redis_url=url)
    assert result["cache"] == "RedisCache"
    assert (result["got_through"], result["turned_away"]) == (20, 100), result
    assert result["real_link"] == 200, result


def test_behind_a_trusted_proxy_one_phones_guesses_lock_out_no_other_phone():
    result = measure(
        workers=3, guesses=40, threads=4, forwarded_for="203.0.113.5", trusted_proxies="127.0.0.1"
    )
    assert (result["got_through"], result["turned_away"]) == (20, 20), result
    assert result["real_link"] == 200, result
    assert result["another_phone"] == 404, result


def test_without_trusted_proxies_the_forwarded_header_is_ignored():
    # The proxy's own address is every phone's: the header cannot open a fresh count, and
    # the real link opens all the same.
    result = measure(workers=3, guesses=40, threads=4, forwarded_for="203.0.113.5")
    assert (result["got_through"], result["turned_away"]) == (20, 20), result
    assert result["real_link"] == 200, result
    assert result["another_phone"] == 429, result


def test_the_venue_server_reads_the_phones_own_address_whatever_the_header(tmp_path):
    # waitress drops X-Forwarded-For (clear_untrusted_proxy_headers) and no proxy is
    # trusted: a phone that writes a new address into each request gets no fresh count.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_TRUSTED_PROXIES")
    }
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with venue(env, data=tmp_path / "data", log=tmp_path / "venue.log") as base:
        statuses = [
            guess(opener, base, {"X-Forwarded-For": f"203.0.113.{n}"})
            for n in range(TOKEN_FAILURE_LIMIT + 5)
        ]
    assert statuses == [404] * TOKEN_FAILURE_LIMIT + [429] * 5
