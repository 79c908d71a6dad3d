"""The log-in limit holds across gunicorn's workers: the attempts are rows in the database
they share, so 3 workers check AXES_FAILURE_LIMIT wrong passwords for the director from
one address, not that many each. Real password hashing, a scratch database, loopback."""

from __future__ import annotations

import pytest
from django.conf import settings

from tools.load.logins import measure

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest


def test_three_workers_check_the_limit_of_wrong_passwords_and_no_more():
    result = measure(workers=3, seconds=120, threads=1, attempts=16)
    limit = settings.AXES_FAILURE_LIMIT
    assert (result["attempts"], result["got_through"]) == (16, limit), result
    assert result["turned_away"] == 16 - limit + 1, result  # the limit's own guess included


def test_the_admin_log_in_page_too():
    result = measure(workers=3, seconds=120, threads=1, attempts=12, path="/admin/login/")
    assert result["got_through"] == settings.AXES_FAILURE_LIMIT, result
