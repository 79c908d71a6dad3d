"""The team scoresheet PDF: a column per board, the teams' running score, its players."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.teams import draw, first_match, gin, knock, play_deals, team_bracket

pytestmark = pytest.mark.django_db


def _text(content: bytes) -> str:
    return "\\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_team_scoresheet_has_a_column_per_board_and_the_running_score(client):
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)], [gin("A", 30), draw()]])
    client.force_login(tournament.owner)
    url = reverse(
        "printing:match-scoresheet", kwargs={"slug": tournament.slug, "match_id": match.pk}
    )
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _text(response.content)
    assert "Board 1" in text and "Board 2" in text and "Board 3" not in text
    assert "Team 1 player 1" in text and "Team 4 player 2" in text
    assert "Running score" in text
    # Deal 1 nets 16 - 12 = 4 for team 1; deal 2 adds 55 (gin v 30): 59.
    for number in ("16", "12", "55", "59"):
        assert number in text
    assert "Scan to enter deals" in text  # the director's copy carries the table link


def test_the_round_pack_of_a_team_tournament_prints_team_sheets(client):
    tournament = team_bracket(teams=4)
    client.force_login(tournament.owner)
    url = reverse("printing:round-scoresheets", kwargs={"slug": tournament.slug, "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    text = _text(response.content)
    assert text.count("Board 1") >= 2
