"""Fixtures the director's screens' tests share."""

from __future__ import annotations

import pytest

from tests.factories import make_director


@pytest.fixture
def director(client):
    """A director, "dora", logged in on ``client``."""
    user = make_director(username="dora")
    client.force_login(user)
    return user


@pytest.fixture
def director_client(client):
    """``client`` logged in as a new director, who is ``client.user``."""
    user = make_director()
    client.force_login(user)
    client.user = user
    return client
