"""The player's page of a match decided on time, and the format before the start (issue 41).

A match decided on time in the middle of its first game has won no game: its page said
"0–0 games won · 0–0 points" where its sheet shows the game at 30–0. It says "decided on
time" and the points as the sheet shows them. Before the start, the public page named a
staged event's format by its bracket ("Single elimination"), not its stages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from tests.public.staged import make_named_event, swiss_into_top_four
from tests.tournaments.test_stages import ONE_GAME_TO_100
from tournaments.models import Match, Tournament
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n}" for n in range(1, 9)]


def decided_at_30(director) -> tuple[Tournament, Match]:
    """A Swiss whose first match is decided on time after one knock worth 30 to side A."""
    tournament, swiss, _knockout = swiss_into_top_four(director, NAMES)
    match = Match.objects.filter(stage=swiss).order_by("position").first()
    record_hand(match=match, number=1, data=HandData("knock", "A", 2, 32))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    match.refresh_from_db()
    assert match.decided_on_time and match.winner_side == "A"
    assert (match.score_a, match.total_a) == (0, 0)  # no game finished
    return tournament, match


def result_of(html: str, match: Match) -> str:
    """The player's page's line of ``match``: its outcome, games, points and marks."""
    url = reverse(
        "scoring:match-sheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )
    start = html.index(f'href="{url}"')
    row = html[start : html.index("</li>", start)]
    return " ".join(re.sub(r"<[^>]+>", " ", row.split('class="pv-result">', 1)[1]).split())


def player_page(client, match: Match, side: str) -> str:
    entry_id = match.side_a_id if side == "A" else match.side_b_id
    url = reverse("public:player", kwargs={"slug": match.tournament.slug, "entry_id": entry_id})
    return client.get(url).content.decode()


@pytest.mark.parametrize(
    ("language", "winner", "loser"),
    [
        (
            "en",
            "0–0 games won 30–0 points decided on time",
            "0–0 games won 0–30 points decided on time",
        ),
        (
            "es",
            "0–0 partidas ganadas 30–0 puntos decidido por tiempo",
            "0–0 partidas ganadas 0–30 puntos decidido por tiempo",
        ),
        (
            "af",
            "0–0 spelle gewen 30–0 punte op tyd beslis",
            "0–0 spelle gewen 0–30 punte op tyd beslis",
        ),
    ],
)
def test_a_time_decision_says_so_with_the_sheets_points(client, director, language, winner, loser):
    tournament, match = decided_at_30(director)
    Tournament.objects.filter(pk=tournament.pk).update(language=language)
    with translation.override(language):
        assert result_of(player_page(client, match, "A"), match) == winner
        assert result_of(player_page(client, match, "B"), match) == loser


def test_the_sheet_shows_the_same_points(client, director):
    tournament, match = decided_at_30(director)
    url = reverse("scoring:match-sheet", kwargs={"slug": tournament.slug, "match_id": match.pk})
    sheet = client.get(url).content.decode()
    assert re.search(r'<tr class="game current">\s*<td>30</td>', sheet)
    # The summary above the list adds up the matches it lists.
    page = player_page(client, match, "A")
    assert re.search(r"<dt>Points</dt><dd>30–0</dd>", page)


def staged_before_the_start(director) -> Tournament:
    tournament = make_named_event(NAMES)
    stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=4,
        advance=4,
        rules=ONE_GAME_TO_100,
    )
    stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        name="Knockout",
        rules=ONE_GAME_TO_100,
    )
    return tournament


def format_line(client, tournament: Tournament) -> str:
    """The format and the rules under the public page's title."""
    html = client.get(reverse("public:tournament", kwargs={"slug": tournament.slug})).content
    found = re.search(
        r'<p class="t-rules"><strong>(.*?)</strong><br>(.*?)</p>', html.decode(), re.S
    )
    assert found is not None
    return f"{found.group(1)} | {found.group(2)}"


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Qualifying (Swiss, 4 rounds, top 4 advance) → Knockout (Single elimination)"),
        (
            "es",
            "Qualifying (Suizo, 4 rondas, pasan los 4 primeros) → Knockout (Eliminación directa)",
        ),
        (
            "af",
            "Qualifying (Switsers, 4 rondtes, die boonste 4 gaan deur) → Knockout (Enkeluitklop)",
        ),
    ],
)
def test_before_the_start_the_format_is_the_stages_as_after(client, director, language, line):
    tournament = staged_before_the_start(director)
    Tournament.objects.filter(pk=tournament.pk).update(language=language)
    with translation.override(language):
        before = format_line(client, tournament)
        assert before.startswith(f"{line} | ")
        assert "250" not in before  # the stages' game to 100, not the tournament's preset
        stage_services.start(tournament=tournament, user=director)
        assert format_line(client, tournament) == before
