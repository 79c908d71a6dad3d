"""The director's Stages page: every move through the page, as a full page and as htmx."""

from __future__ import annotations

import pytest

from tests.factories import tournament_url as url
from tests.tournaments.test_stages import make_event, play_open
from tournaments.models import Match
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db


def test_a_two_stage_event_through_the_page(client):
    tournament = make_event(8)
    client.force_login(tournament.owner)
    response = client.post(
        url("stage-add", tournament),
        {
            "kind": "swiss",
            "name": "Qualifying",
            "rounds": 2,
            "advance": 4,
            "games_to_win": 1,
            "game_target": 100,
            "tiebreak_1": "match_points",
            "tiebreak_2": "buchholz",
        },
    )
    assert response.status_code == 302
    response = client.post(
        url("stage-add", tournament),
        {"kind": "single_elimination", "final_games_to_win": 2, "tiebreak_1": "match_points"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and b'id="stages"' in response.content
    assert b"<html" not in response.content
    swiss, knockout = tournament.stages.order_by("number")
    assert swiss.tiebreaks == ["match_points", "buchholz"] and swiss.rules["games_to_win"] == 1
    assert knockout.round_rules == {"final": {"games_to_win": 2}}

    client.post(url("stages-start", tournament))
    assert Match.objects.filter(stage=swiss, round=1).count() == 4
    # Pairing before the round is over is refused with a message, changing nothing.
    response = client.post(url("stage-pair", tournament, stage_id=swiss.pk), follow=True)
    assert "is not finished yet" in response.content.decode()
    assert Match.objects.filter(stage=swiss).count() == 4
    play_open(tournament, swiss)
    client.post(url("stage-pair", tournament, stage_id=swiss.pk))
    play_open(tournament, swiss)
    client.post(url("stage-close", tournament, stage_id=swiss.pk))
    knockout.refresh_from_db()
    assert knockout.status == "running" and len(knockout.entrants) == 4
    assert knockout.round_rules == {"2": {"games_to_win": 2}}  # the final is round 2
    page = client.get(url("stages", tournament)).content.decode()
    assert "Opponents&#x27; match wins" in page and "Ranked by, in order:" in page


def test_the_page_and_the_form_errors(client):
    tournament = make_event(4)
    client.force_login(tournament.owner)
    response = client.post(url("stage-add", tournament), {"kind": "swiss"})
    assert response.status_code == 422
    assert "A Swiss stage needs a number of rounds." in response.content.decode()
    assert not tournament.stages.exists()


def test_the_page_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    counts = []
    for players in (8, 32):
        tournament = make_event(players)
        stage_services.add_stage(
            tournament=tournament, user=tournament.owner, kind="swiss", rounds=3, advance=4
        )
        stage_services.add_stage(
            tournament=tournament, user=tournament.owner, kind="single_elimination"
        )
        stage_services.start(tournament=tournament, user=tournament.owner)
        play_open(tournament, tournament.stages.get(number=1))
        client.force_login(tournament.owner)
        with django_assert_max_num_queries(14) as seen:
            assert client.get(url("stages", tournament)).status_code == 200
        counts.append(len(seen))
    assert counts[0] == counts[1]


def test_a_late_entry_is_given_starting_points_from_the_page(client):
    from tests.factories import make_entries

    tournament = make_event(6)
    client.force_login(tournament.owner)
    swiss = stage_services.add_stage(
        tournament=tournament, user=tournament.owner, kind="swiss", rounds=3
    )
    stage_services.start(tournament=tournament, user=tournament.owner)
    play_open(tournament, swiss)
    late = make_entries(tournament=tournament, count=1)[0]
    page = client.get(url("stages", tournament)).content.decode()
    assert "Set starting points" in page and f'<option value="{late.pk}">' in page
    target = url("stage-late-entry", tournament, stage_id=swiss.pk)
    # More points than rounds played: refused with the reason, nothing changed.
    refused = client.post(target, {"entry": late.pk, "points": 2}, follow=True).content.decode()
    assert "A late entry starts with 0 to 1 match points." in refused
    swiss.refresh_from_db()
    assert str(late.pk) not in swiss.start_points
    response = client.post(target, {"entry": late.pk, "points": 1}, HTTP_HX_REQUEST="true")
    assert f"{late.player.name} starts with 1 match point." in response.content.decode()
    swiss.refresh_from_db()
    assert swiss.start_points[str(late.pk)] == 1 and late.pk in swiss.entrants


def test_a_one_minute_round_clock_is_one_minute_not_one_minutes(client):
    tournament = make_event(6)
    client.force_login(tournament.owner)
    swiss = stage_services.add_stage(
        tournament=tournament, user=tournament.owner, kind="swiss", rounds=3
    )
    stage_services.start(tournament=tournament, user=tournament.owner)
    target = url("stage-clock", tournament, stage_id=swiss.pk)
    page = client.post(target, {"minutes": 1}, follow=True).content.decode()
    assert "The round clock runs: 1 minute." in page
    assert "of 1 minute · ends at" in page
    assert "1 minutes" not in page
