"""A club player's public page: /players/<id>/."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player, make_registrar

pytestmark = pytest.mark.django_db

JAN = datetime.date(2026, 1, 5)


@pytest.fixture
def club():
    director = make_director()
    players = [
        make_player(
            name=f"Player {i}",
            email=f"p{i}@example.com",
            club_id=f"CLUB-NO-{i}",
            phone="555-0100",
            notes="owes fees",
        )
        for i in range(4)
    ]
    return director, players


def page(client, player, **params):
    return client.get(reverse("club:player", args=[player.pk]), params)


def test_the_page_shows_history_results_and_the_rating_chart(client, club):
    director, players = club
    for week in range(3):
        run_tournament(
            players,
            owner=director,
            date=JAN + datetime.timedelta(days=7 * week),
            winner=by_rank(players),
            name=f"Week {week + 1}",
        )
    response = page(client, players[0])
    assert response.status_code == 200
    html = response.content.decode()
    svg = re.search(r"<svg[^>]*>.*?</svg>", html, re.S)
    assert svg is not None
    assert svg.group().count("<polyline") == 1 and "<polygon" in svg.group()
    for week in (1, 2, 3):
        assert f"Week {week}" in html
    assert "Club rating" in html and "±" in html
    # Head to head: won all three meetings with Player 1 (the final each week).
    table = html[html.index('id="h2h-heading"') :]
    row = re.search(
        r"Player 1</a></td>\s*<td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>", table
    )
    assert row is not None and row.groups() == ("3", "3")


def test_no_personal_data(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    html = page(client, players[1]).content.decode()
    for private in ("@example.com", "CLUB-NO-1", "555-0100", "owes fees"):
        assert private not in html


def test_a_hidden_player_answers_not_found(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    players[2].hidden = True
    players[2].save()
    assert page(client, players[2]).status_code == 404
    assert page(client, players[0]).status_code == 200
    assert (
        reverse("club:player", args=[players[2].pk])
        not in page(client, players[0]).content.decode()
    )


def test_the_registry_form_hides_a_player_from_the_player_pages(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    registrar = make_registrar()
    client.force_login(registrar)
    edit = reverse("players:player-edit", args=[players[1].pk])
    form = client.get(edit).content.decode()
    assert 'name="hidden"' in form
    fields = {"name": players[1].name, "email": players[1].email, "club_id": "C1"}
    assert client.post(edit, {**fields, "hidden": "on"}).status_code == 302
    client.logout()
    assert page(client, players[1]).status_code == 404
    client.force_login(registrar)
    assert client.post(edit, fields).status_code == 302
    client.logout()
    assert page(client, players[1]).status_code == 200


def test_statistics_over_a_chosen_period(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    run_tournament(
        players, owner=director, date=JAN + datetime.timedelta(days=30), winner=by_rank(players)
    )

    def hands_won(**params):
        html = page(client, players[0], **params).content.decode()
        return re.search(r"Hands won</dt><dd>(\d+) / (\d+)", html).groups()

    assert hands_won() == ("4", "4")  # two wins in each four-player bracket, one gin each
    assert hands_won(**{"from": "2026-01-20"}) == ("2", "2")
    assert hands_won(to="2026-01-05") == ("2", "2")
    html = page(client, players[0], **{"from": "garbage"}).content.decode()
    assert "could not be read" in html


def test_gin_and_shutout_statistics(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    html = page(client, players[1]).content.decode()  # beat Player 2, lost the final
    assert re.search(r"Gin rate</dt><dd>50\.0 %", html)
    assert re.search(r"Shutouts for / against</dt><dd>1 / 1", html)


def count_queries(client, player) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert page(client, player).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_the_number_of_tournaments(client, club):
    director, players = club
    counts = []
    for week in range(5):
        run_tournament(
            players,
            owner=director,
            date=JAN + datetime.timedelta(days=7 * week),
            winner=by_rank(players),
        )
        if week in (0, 1, 4):
            page(client, players[0])  # the first read after new results rebuilds the rating
            counts.append(count_queries(client, players[0]))
    assert counts[0] == counts[1] == counts[2], counts


def test_names_on_the_public_standings_link_to_the_player_pages(client, club):
    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    players[3].hidden = True
    players[3].save()
    from public.live import forget

    forget()
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    for player in players[:3]:
        assert f'href="{reverse("club:player", args=[player.pk])}"' in html
    assert reverse("club:player", args=[players[3].pk]) not in html


def test_names_in_a_round_robins_cross_table_link_to_the_player_pages(client, club):
    director, players = club
    tournament = run_tournament(
        players, owner=director, date=JAN, winner=by_rank(players), bracket_kind="round_robin"
    )
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    table = html[html.index('class="cross-table"') :]
    for player in players:
        link = f'<a class="player-link" href="{reverse("club:player", args=[player.pk])}">'
        assert f"{link}{player.name}</a>" in table


def test_a_staged_events_longer_final_counts_on_the_player_page(client, director):
    """A knockout stage's final played as a best of three: its hands are scored by the
    final's own rules on the club page too, which counts what the standings count."""
    from engine import resolve_rules
    from tests.tournaments.test_stages import (
        BEST_OF_3_TO_100,
        ONE_GAME_TO_100,
        make_event,
        play_open,
    )
    from tournaments.stages import services as stage_services

    tournament = make_event(4)
    # The event's own rules are a single game: only the final is longer.
    tournament.rules = resolve_rules({"preset": "tournament", **ONE_GAME_TO_100}).to_dict()
    tournament.save(update_fields=["rules"])
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        rounds=1,
        advance=2,
        rules=ONE_GAME_TO_100,
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        rules=ONE_GAME_TO_100,
        round_rules={"final": BEST_OF_3_TO_100},
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    play_open(tournament, knockout)
    rows = client.get(reverse("public:standings-json", args=[tournament.slug])).json()
    champion = rows["standings"][0]
    assert champion["place"] == 1 and champion["hands_won"] >= 3  # the final alone: two games
    player = tournament.entries.get(player__name=champion["name"]).player
    html = page(client, player).content.decode()
    won = re.search(r"Hands won</dt><dd>(\d+) / ", html).group(1)
    assert int(won) == champion["hands_won"]
