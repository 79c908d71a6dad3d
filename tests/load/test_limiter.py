"""The table-link guess limiter counts across gunicorn's workers: with 3 workers, an
address gets 20 wrong guesses in 15 minutes, not 20 per worker (about 60 with a cache of
each worker's own), and the real link still opens from that address afterwards. gunicorn
runs on a scratch database of its own, on loopback."""

from __future__ import annotations

from scoring.access import TOKEN_FAILURE_LIMIT
from tests.load.limiter import measure


def test_three_workers_share_one_limit_and_a_real_link_still_opens():
    result = measure(workers=3, guesses=80)
    assert TOKEN_FAILURE_LIMIT == 20
    assert (result["got_through"], result["turned_away"]) == (20, 60), result
    assert result["real_link"] == 200, result
