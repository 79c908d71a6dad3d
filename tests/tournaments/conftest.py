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
