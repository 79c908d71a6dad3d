"""``standings.json``'s "stages", as the contract of issue 16 gives it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_bracket
from tests.tournaments.test_stages import make_event, play_open
from tournaments.models import Match
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

ROW_KEYS = {"place", "place_label", "name", "seed", "progress", "matches_won", "games_won"}


def get_json(client, tournament):
    response = client.get(reverse("public:standings-json", args=[tournament.slug]))
    assert response.status_code == 200
    return response.json()


def test_a_swiss_stage_and_its_knockout(client, director):
    tournament = make_event(9)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=2,
        advance=4,
        tiebreaks=["match_points", "buchholz", "point_margin"],
    )
    stage_services.add_stage(
        tournament=tournament, user=director, kind="single_elimination", name="Cut"
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.pair_next_round(stage=swiss, user=director)

    payload = get_json(client, tournament)
    assert set(payload) == {"tournament", "standings", "stages"}
    first, cut = payload["stages"]
    assert (first["name"], first["kind"]) == ("Qualifying", "swiss")
    assert first["tiebreaks"] == ["match_points", "buchholz", "point_margin"]
    assert len(first["standings"]) == 9
    for row in first["standings"]:
        assert set(row) >= ROW_KEYS and {"match_points", "buchholz", "point_margin"} <= set(row)
    points = [row["match_points"] for row in first["standings"]]
    assert points == sorted(points, reverse=True)
    round_one, round_two = first["rounds"]
    assert len(round_one) == 5 and len(round_two) == 5
    bye = [p for p in round_one if p["b"] is None]
    assert len(bye) == 1 and bye[0]["winner"] == "a" and bye[0]["table"] is None
    played = [p for p in round_one if p["b"] is not None]
    assert all(p["winner"] in ("a", "b") and isinstance(p["a"], str) for p in played)
    assert all(p["winner"] is None for p in round_two if p["b"] is not None)
    assert all(isinstance(p["table"], int) for p in round_two if p["b"] is not None)
    assert (cut["name"], cut["kind"], cut["rounds"]) == ("Cut", "single_elimination", [])

    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    payload = get_json(client, tournament)
    cut = payload["stages"][1]
    assert len(cut["rounds"][0]) == 2 and len(cut["standings"]) == 4
    semis = Match.objects.filter(stage__number=2, round=1).order_by("position")
    assert [p["a"] for p in cut["rounds"][0]] == [m.side_a.player.name for m in semis]


def test_a_one_bracket_tournament_is_one_stage(client):
    tournament = make_bracket(players=4)
    payload = get_json(client, tournament)
    (only,) = payload["stages"]
    assert only["kind"] == tournament.bracket_kind and only["tiebreaks"] == []
    assert only["standings"] == payload["standings"]
    assert [len(r) for r in only["rounds"]] == [2, 1]


def test_public_pages_of_a_staged_tournament_read_a_fixed_number_of_queries(client, director):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from club import ratings
    from public.live import forget
    from standings.data import forget_sheets

    counts = []
    for players in (8, 32):
        tournament = make_event(players)
        swiss = stage_services.add_stage(
            tournament=tournament, user=director, kind="swiss", rounds=2, advance=4
        )
        stage_services.add_stage(tournament=tournament, user=director, kind="single_elimination")
        stage_services.start(tournament=tournament, user=director)
        play_open(tournament, swiss)
        stage_services.pair_next_round(stage=swiss, user=director)
        ratings.ensure_current()  # the club rating as results stand: its rebuild is no page's
        row = []
        for path in ("standings.json", "", "display/"):
            cache.clear()
            forget()
            forget_sheets()
            with CaptureQueriesContext(connection) as seen:
                response = client.get(f"/t/{tournament.slug}/{path}")
            assert response.status_code == 200
            row.append(len(seen))
        counts.append(row)
    assert counts[0] == counts[1]
    # The data's 6 (the sixth: the entries in no match yet, a late entry to the Swiss)
    # and the club rating's 4 (is it current: 2; its rows: 2); the page also the prize
    # settings (1: none set); the projector neither, but the open calls for the director
    # (1: its badge, issue 32) and the tables' estimates (2: the room's hand times and
    # the tables' start times, issue 33). The page and the projector also look, the cache
    # being cleared, whether the tournament is a mirror of a venue's (1: publishing).
    # standings.json also reads which walkovers were withdrawals (1: its rounds' "decided").
    assert counts[0] == [6 + 4 + 1, 6 + 4 + 1 + 1, 6 + 1 + 2 + 1], counts
