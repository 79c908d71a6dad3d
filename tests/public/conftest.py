"""Fixtures shared by the public pages' tests."""

from __future__ import annotations

import pytest

from tests.factories import make_bracket
from tests.scoring.helpers import gin, knock, play
from tests.standings.test_standings import better_seed, play_match, playable, quick_match


@pytest.fixture
def running_eight():
    """Quarterfinals done but one; one of them half played at its table."""
    t = make_bracket(players=8)
    for match in playable(t)[:3]:
        play_match(match, better_seed(match), quick_match)
    live = playable(t)[0]
    play(live, [gin("A"), gin("A"), gin("A"), knock("B", 3, 40)])
    t.refresh_from_db()
    return t
