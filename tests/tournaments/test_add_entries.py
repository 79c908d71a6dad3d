"""Ticking several registry players on the registration page enters them in one POST
(issue 41): the rules and the audit of one entered at a time, players entered already
reported, not doubled, and the same queries for 5 players as for 50."""

from __future__ import annotations

import pytest

from tests.factories import (
    make_bracket,
    make_director,
    make_player,
    make_tournament,
    tournament_url,
)
from tests.teams import team_tournament
from tournaments.models import AuditEntry, Tournament
from tournaments.registration import add_entry

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def tournament(director):
    return make_tournament(owner=director)


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def tick(client, tournament: Tournament, players, **extra):
    return client.post(
        tournament_url("entry-add-many", tournament),
        {"players": [p.pk for p in players]},
        **extra,
    )


def test_the_ticked_players_are_entered_at_once_and_audited(signed_in, director, tournament):
    players = [make_player(name=f"Player {n}") for n in range(12)]
    response = tick(signed_in, tournament, players, follow=True)
    assert "12 players entered." in response.content.decode()
    assert tournament.entries.count() == 12
    added = AuditEntry.objects.filter(tournament=tournament, action="entry added")
    assert added.count() == 12
    assert {a.object_id for a in added} == {
        str(pk) for pk in tournament.entries.values_list("pk", flat=True)
    }
    assert all(a.user == director for a in added)


def test_one_ticked_player_is_said_in_the_singular(signed_in, tournament):
    response = tick(signed_in, tournament, [make_player()], follow=True)
    assert "1 player entered." in response.content.decode()


def test_players_entered_already_are_reported_not_doubled(signed_in, director, tournament):
    ana, ben = make_player(name="Ana"), make_player(name="Ben")
    add_entry(tournament=tournament, player=ana, user=director)
    response = tick(signed_in, tournament, [ana, ben], **HTMX)
    page = response.content.decode()
    assert "1 player entered." in page and "Ana was entered already." in page
    assert tournament.entries.filter(player=ana).count() == 1
    assert tournament.entries.count() == 2


def test_nothing_ticked_says_so_and_changes_nothing(signed_in, tournament):
    response = tick(signed_in, tournament, [], follow=True)
    assert "Tick the players to enter first." in response.content.decode()
    assert not tournament.entries.exists()


def test_an_unknown_id_enters_nobody(signed_in, tournament):
    ana = make_player()
    response = signed_in.post(
        tournament_url("entry-add-many", tournament), {"players": [ana.pk, "99999"]}, follow=True
    )
    assert "Choose players from the registry." in response.content.decode()
    assert not tournament.entries.exists()


def test_after_the_draw_the_field_is_closed(signed_in, director):
    drawn = make_bracket(tournament=make_tournament(owner=director), players=4)
    response = tick(signed_in, drawn, [make_player()], follow=True)
    assert "the field is closed" in response.content.decode()
    assert drawn.entries.count() == 4


def test_a_team_tournament_refuses_single_players(signed_in, director):
    pairs = team_tournament(owner=director)
    response = tick(signed_in, pairs, [make_player()], follow=True)
    assert "This is a team tournament" in response.content.decode()
    assert not pairs.entries.exists()


def test_another_director_is_refused(client, tournament):
    client.force_login(make_director())
    assert tick(client, tournament, [make_player()]).status_code == 403
    assert not tournament.entries.exists()


def test_the_page_lists_players_to_tick_in_a_form_that_needs_no_script(signed_in, tournament):
    ana = make_player(name="Ana Torres")
    entered = make_player(name="Ana Entered")
    add_entry(tournament=tournament, player=entered, user=tournament.owner)
    page = signed_in.get(tournament_url("entry-list", tournament), {"all": "1"}).content.decode()
    form = page[page.index('class="pick-players"') - 200 :]
    assert f'action="{tournament_url("entry-add-many", tournament)}"' in form
    assert f'type="checkbox" name="players" value="{ana.pk}"' in form
    assert f'value="{entered.pk}"' not in form  # entered already: not offered
    assert f'formaction="{tournament_url("entry-add", tournament)}"' in form
    assert "Enter the ticked players" in form


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("en", "1 player entered.", "3 players entered."),
        ("es", "1 jugador inscrito.", "3 jugadores inscritos."),
        ("af", "1 speler ingeskryf.", "3 spelers ingeskryf."),
    ],
)
def test_the_message_speaks_every_language(signed_in, tournament, language, one, many):
    signed_in.cookies["django_language"] = language
    assert one in tick(signed_in, tournament, [make_player()], **HTMX).content.decode()
    players = [make_player() for _ in range(3)]
    assert many in tick(signed_in, tournament, players, **HTMX).content.decode()


def test_the_post_takes_the_same_queries_for_5_and_50_players(
    signed_in, director, django_assert_max_num_queries
):
    counts = []
    for size in (5, 50):
        tournament = make_tournament(owner=director)
        players = [make_player(name=f"Tick {size} {n}") for n in range(size)]
        add_entry(tournament=tournament, player=players[0], user=director)
        with django_assert_max_num_queries(40) as captured:
            response = tick(signed_in, tournament, players, **HTMX)
        assert response.status_code == 200
        assert tournament.entries.count() == size
        counts.append(len(captured))
    assert counts[0] == counts[1]
