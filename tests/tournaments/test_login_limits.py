"""Log-in limits (django-axes): wrong passwords for one username from one device are
turned away after AXES_FAILURE_LIMIT, on the site's log-in page and the admin's alike,
for AXES_COOLOFF_TIME; the same username from another device, and other usernames from
the same device, are not. The multi-worker figures are in tests/load/test_logins.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import PASSWORD, make_director, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


def limit() -> int:
    return settings.AXES_FAILURE_LIMIT


def log_in(client, username, password, path=LOGIN, **extra):
    return client.post(path, {"username": username, "password": password}, **extra)


def guesses(client, username, count, path=LOGIN, **extra) -> list[int]:
    return [log_in(client, username, f"guess-{n}", path, **extra).status_code for n in range(count)]


def paused_after(count: int) -> list[int]:
    """What ``count`` wrong passwords answer: the form again until the limit, whose own
    (checked, wrong) password pauses the pair and gets the pause page, as all after it."""
    return [200] * (limit() - 1) + [429] * (count - limit() + 1)


def test_the_configuration_is_the_documented_one():
    assert settings.AXES_FAILURE_LIMIT == 10
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_wrong_passwords_pause_that_username_on_that_device(client):
    make_director(username="director")
    assert guesses(client, "director", limit() + 3) == paused_after(limit() + 3)
    # Not even the right password is checked now.
    response = log_in(client, "director", PASSWORD)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many wrong passwords for director from this device." in page
    assert "Try again in 15 minutes." in page
    assert "_auth_user_id" not in client.session


def test_another_device_and_another_username_can_still_log_in(client):
    make_director(username="director")
    make_user(username="keeper")
    player = {"REMOTE_ADDR": "192.0.2.10"}
    assert guesses(client, "director", limit() + 1, **player)[-1] == 429
    laptop = Client()
    assert log_in(laptop, "director", PASSWORD, REMOTE_ADDR="192.0.2.11").status_code == 302
    assert log_in(Client(), "keeper", PASSWORD, **player).status_code == 302


def test_the_admin_log_in_is_limited_and_shares_the_count(client):
    make_user(username="boss", is_staff=True, is_superuser=True)
    half = limit() // 2
    assert guesses(client, "boss", half) + guesses(client, "boss", half, ADMIN_LOGIN) == (
        paused_after(2 * half)
    )
    assert log_in(client, "boss", PASSWORD, ADMIN_LOGIN).status_code == 429
    assert log_in(client, "boss", PASSWORD).status_code == 429


def test_a_successful_log_in_clears_the_count(client):
    make_director(username="director")
    guesses(client, "director", limit() - 1)
    assert log_in(client, "director", PASSWORD).status_code == 302
    client.logout()
    assert guesses(client, "director", limit() + 1) == paused_after(limit() + 1)


def test_the_pause_ends_after_the_cool_off(client):
    from axes.models import AccessAttempt

    make_director(username="director")
    guesses(client, "director", limit())
    assert log_in(client, "director", PASSWORD).status_code == 429
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=16)
        attempt.save()
    assert log_in(client, "director", PASSWORD).status_code == 302


def test_behind_a_trusted_proxy_each_device_counts_apart(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    make_director(username="director")
    phone = {"HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert guesses(client, "director", limit() + 1, **phone)[-1] == 429
    laptop = {"HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    assert log_in(Client(), "director", PASSWORD, **laptop).status_code == 302


def test_attempts_during_the_pause_write_nothing(client):
    from axes.models import AccessAttempt

    make_director(username="director")
    guesses(client, "director", limit())
    row = AccessAttempt.objects.get()
    guesses(client, "director", 20)
    again = AccessAttempt.objects.get()
    assert again.failures_since_start == row.failures_since_start == limit()
    assert (again.post_data, again.attempt_time) == (row.post_data, row.attempt_time)
