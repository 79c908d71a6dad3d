"""seed_demo's second tournament: a Swiss stage cut into a knockout that has begun."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_loads_a_swiss_stage_cut_into_a_knockout(client):
    call_command("seed_demo", stdout=io.StringIO())
    assert Tournament.objects.filter(name="Swiss Open (demo)").count() == 1
    staged = Tournament.objects.get(name="Swiss Open (demo)")
    swiss, knockout = staged.stages.order_by("number")
    assert (swiss.kind, swiss.status, len(swiss.entrants)) == ("swiss", "closed", 16)
    played = Match.objects.filter(stage=swiss, status="complete").values_list("round", flat=True)
    assert len(set(played)) >= 3
    assert knockout.is_knockout and knockout.status == "running"
    assert len(knockout.entrants) == 8
    assert Match.objects.filter(stage=knockout, status="complete", is_bye=False).exists()
    assert Match.objects.filter(stage=knockout, status="in_play").exists()
    assert swiss.rules_locked_at is not None and knockout.rules_locked_at is not None
    payload = client.get(f"/t/{staged.slug}/standings.json").json()
    assert [s["kind"] for s in payload["stages"]] == ["swiss", "single_elimination"]
    # Every entrant is ranked (issue 28): the two quarterfinal losers share 5–8 already,
    # the eight who missed the cut take 9–16 in the Swiss order.
    rows = payload["standings"]
    assert len(rows) == 16
    out = [r for r in rows if r["stage_reached"] == "Qualifying"]
    assert len(out) == 8 and all(r["place"] is not None and r["place"] >= 9 for r in out)
    assert out == rows[8:] and "Out in Qualifying" in out[-1]["progress"]
    assert [r["place_label"] for r in rows if r["progress"].startswith("Out in:")] == ["5–8"] * 2
    assert client.get(f"/t/{staged.slug}/").status_code == 200
    assert client.get(f"/t/{staged.slug}/display/").status_code == 200


def test_the_demo_swiss_open_verifies_after_time_is_called_on_its_knockout(director):
    """Issue 28, item 2, as reported on the demo: time called on the quarterfinals, the
    match in play is decided on time and verify_tournament agrees."""
    from scoring import timing
    from tests.archive.test_verify import verify
    from tournaments.models import Decision

    call_command("seed_demo", stdout=io.StringIO())
    staged = Tournament.objects.get(name="Swiss Open (demo)")
    knockout = staged.stages.get(number=2)
    # The demo's round clock still runs: the director said yes to calling time early.
    timing.call_time(stage=knockout, procedure="leader", user=director, early=True)
    report = timing.decide(stage=knockout, user=director)
    assert report.decided  # the quarterfinal in play, with five hands
    decided = report.decided[0]
    assert Decision.objects.get(match=decided, kind="time").hands == 5
    assert verify(staged.slug) == (
        0,
        f"All {staged.matches.count()} matches agree with their hands.\n",
        "",
    )
