"""seed_demo's team event: four teams of two, one semifinal confirmed, one decided."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from archive.verify import verify
from tournaments.models import Match, TeamMember, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_includes_a_partly_played_team_event():
    call_command("seed_demo", verbosity=0)
    event = Tournament.objects.get(name="Partnership night (demo)")
    assert event.ruleset.team_size == 2
    assert event.entries.count() == 4
    assert TeamMember.objects.filter(tournament=event).count() == 8
    statuses = sorted(event.matches.filter(round=1).values_list("status", flat=True))
    assert statuses == [Match.Status.AWAITING, Match.Status.COMPLETE]
    final = event.matches.get(round=2)
    assert final.side_a_id or final.side_b_id  # the confirmed winner moved on
    assert verify(event)[1] == []
