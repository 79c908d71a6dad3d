"""Registering teams: from the registry, a player in one team per event, clear refusals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import make_entries, make_player, make_tournament
from tests.teams import make_teams, team_tournament
from tournaments.draw import generate_bracket
from tournaments.models import AuditEntry, Entry, Tournament
from tournaments.organising import update_tournament
from tournaments.registration import add_entry, add_team

pytestmark = pytest.mark.django_db


def test_a_team_is_an_entry_with_its_players_in_seat_order():
    tournament = team_tournament()
    ann, bob = make_player(name="Ann"), make_player(name="Bob")
    entry = add_team(tournament=tournament, name="  The  Aces ", players=[ann, bob], user=None)
    assert entry.name == str(entry) == "The Aces"
    assert entry.player == ann
    assert [(m.seat, m.player.name) for m in entry.members.order_by("seat")] == [
        (1, "Ann"),
        (2, "Bob"),
    ]
    assert AuditEntry.objects.get(action="team added").after["players"] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("players", "name", "message"),
    [
        (1, "Solo", "A team has 2 players; 1 were chosen."),
        (3, "Crowd", "A team has 2 players; 3 were chosen."),
        (2, "", "Give the team a name."),
    ],
)
def test_a_team_of_the_wrong_size_or_without_a_name_is_refused(players, name, message):
    tournament = team_tournament()
    with pytest.raises(ValidationError, match=message):
        add_team(
            tournament=tournament,
            name=name,
            players=[make_player() for _ in range(players)],
            user=None,
        )
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_a_player_plays_in_one_team_per_event_and_twice_in_none():
    tournament = team_tournament()
    ann, bob, cy = make_player(name="Ann"), make_player(name="Bob"), make_player(name="Cy")
    add_team(tournament=tournament, name="Aces", players=[ann, bob], user=None)
    with pytest.raises(ValidationError, match="Bob already plays for Aces"):
        add_team(tournament=tournament, name="Kings", players=[cy, bob], user=None)
    with pytest.raises(ValidationError, match="different player for every seat"):
        add_team(tournament=tournament, name="Kings", players=[cy, cy], user=None)
    with pytest.raises(ValidationError, match="already entered"):
        add_team(tournament=tournament, name="aces", players=[cy, make_player()], user=None)
    # Another event is another matter.
    other = team_tournament()
    add_team(tournament=other, name="Aces", players=[ann, bob], user=None)
    assert tournament.entries.count() == 1


def test_single_players_and_teams_do_not_mix():
    teams = team_tournament()
    with pytest.raises(ValidationError, match="team tournament"):
        add_entry(tournament=teams, player=make_player(), user=None)
    singles = make_tournament(preset="modern")
    with pytest.raises(ValidationError, match="head to head"):
        add_team(tournament=singles, name="Aces", players=[make_player(), make_player()], user=None)


def test_the_team_size_cannot_change_under_registered_teams():
    tournament = team_tournament()
    make_teams(tournament, 2)
    threes = {**tournament.rules, "preset": "tedesco_threes", "team_size": 3}
    with pytest.raises(ValidationError, match="team size"):
        update_tournament(tournament=tournament, data={"rules": threes}, user=None)


def test_the_bracket_refuses_a_field_that_does_not_fit_the_rules():
    tournament = team_tournament()
    make_teams(tournament, 2)
    # Rules edited behind the service's back (the admin, a data fix): the draw says so.
    Tournament.objects.filter(pk=tournament.pk).update(
        rules={**tournament.rules, "team_size": 3, "preset": "tedesco_threes"}
    )
    tournament.refresh_from_db()
    with pytest.raises(ValidationError, match="not a team of 3"):
        generate_bracket(tournament=tournament, user=None)
    singles = make_tournament(preset="modern")
    make_entries(tournament=singles, count=4)
    generate_bracket(tournament=singles, user=None)  # head to head: unchanged


@pytest.mark.parametrize("kind", ["single_elimination", "double_elimination", "round_robin"])
def test_teams_play_in_every_bracket_format(kind):
    tournament = team_tournament(bracket_kind=kind)
    make_teams(tournament, 4)
    plan = generate_bracket(tournament=tournament, user=None)
    names = {m.side_name("A") for m in tournament.matches.all() if m.side_a_id}
    assert names <= {"Team 1", "Team 2", "Team 3", "Team 4"} and names
    assert plan is not None


def test_the_registration_page_registers_a_team(client):
    tournament = team_tournament()
    players = [make_player(name="Ann"), make_player(name="Bob")]
    client.force_login(tournament.owner)
    url = reverse("tournaments:entry-list", kwargs={"slug": tournament.slug})
    page = client.get(url).content.decode()
    assert "Register a team" in page and 'name="seat2"' in page
    add = reverse("tournaments:team-add", kwargs={"slug": tournament.slug})
    response = client.post(
        add, {"team_name": "Aces", "seat1": players[0].pk, "seat2": players[1].pk}
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Aces" in page and "Ann, Bob" in page
    response = client.post(
        add, {"team_name": "Kings", "seat1": players[0].pk, "seat2": make_player().pk}, follow=True
    )
    assert "Ann already plays for Aces." in response.content.decode()
    assert tournament.entries.count() == 1


def test_the_setup_form_makes_a_team_tournament_from_a_team_preset(client):
    from tests.factories import make_director

    director = make_director()
    client.force_login(director)
    page = client.get(reverse("tournaments:tournament-create")).content.decode()
    assert 'value="partnership"' in page and 'value="tedesco_threes"' in page
    response = client.post(
        reverse("tournaments:tournament-create"),
        {
            "name": "Pairs night",
            "date": "2030-01-01",
            "tables": 4,
            "page_size": "A4",
            "language": "en",
            "preset": "tedesco_threes",
            "bracket_kind": "single_elimination",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Pairs night")
    rules = tournament.ruleset
    assert (rules.team_size, rules.sweep_bonus, rules.game_target) == (3, 25, 300)


@pytest.mark.parametrize(
    ("preset", "start"),
    [
        (
            "partnership",
            "Teams of 2 · partners alternate opponents from deal to deal · Games to 125",
        ),
        (
            "tedesco_threes",
            "Teams of 3 · partners keep their opponents · sweep 25 · Hollywood, 3 columns to 300",
        ),
    ],
)
def test_the_rules_summary_says_teams(preset, start):
    from engine import TEAM_PRESETS
    from tournaments.rules_text import rules_summary

    assert rules_summary(TEAM_PRESETS[preset]).startswith(start)
