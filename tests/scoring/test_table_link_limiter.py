"""The table-link guess limiter: wrong links from one address are turned away after
TOKEN_FAILURE_LIMIT, a real link always opens, and the count holds under concurrent
guesses (the multi-process figures are in tests/load/test_limiter.py)."""

from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from scoring import access
from scoring.models import Hand
from tournaments.models import Match

from .helpers import knock, post_data, ready_match

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
