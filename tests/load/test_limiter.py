"""The table-link guess limiter counts across gunicorn's workers, on both shared caches:
with 3 workers an address gets 20 wrong guesses in 15 minutes, not 20 per worker (about 60
with a cache of each worker's own), however many it sends at once (concurrent increments
of the file cache used to be lost), and the real link still opens from that address
afterwards. gunicorn runs on a scratch database of its own, Redis is a throwaway one,
all on loopback."""

from __future__ import annotations

import pytest

from scoring.access import TOKEN_FAILURE_LIMIT
from tests.load.limiter import measure
from tests.load.servers import redis, redis_available


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
