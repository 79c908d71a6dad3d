"""A stage's PDFs: a round's table list and the standings with tiebreaks."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from tests.tournaments.test_stages import make_event, play_open
from tournaments.models import Match
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_pairings_and_standings_pdfs(client, director):
    tournament = make_event(7)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=2,
        tiebreaks=["match_points", "buchholz", "total_points"],
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.pair_next_round(stage=swiss, user=director)
    on_time = Match.objects.filter(stage=swiss, round=2, status="ready").first()
    record_hand(match=on_time, number=1, data=HandData("knock", "A", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)

    pairings = text(client.get(reverse("printing:pairings-pdf", args=[tournament.slug, 1, 2])))
    assert "Qualifying · Round 2" in pairings
    assert on_time.side_a.player.name in pairings and on_time.side_b.player.name in pairings
    assert "decided on time" in pairings and "Bye" in pairings

    standings = text(client.get(reverse("printing:stage-standings-pdf", args=[tournament.slug, 1])))
    assert "Opponents' match wins" in standings
    assert "Ranked by, in order: Match points, Opponents' match wins, Total points." in standings
    for entry in tournament.entries.select_related("player"):
        assert entry.player.name in standings

    missing = client.get(reverse("printing:pairings-pdf", args=[tournament.slug, 1, 3]))
    assert missing.status_code == 404
