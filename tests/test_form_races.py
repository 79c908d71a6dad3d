"""Two different submissions of a director's form race for one unique thing (issue 29).

Two tabs (two submission ids, so no replay) send the same new thing at the same moment:
two threads, each with its own connection and client, released by one barrier. Whatever
the order the database picks, nothing answers 500 and the thing exists once: one tab
succeeds, the other is refused with a message naming what exists; or, where the form
would make a second one if asked (a tournament, a season: a second slug), one succeeds
and the other asks whether to make another (issue 41, ``web.repeats``). CI runs
this file on SQLite and on PostgreSQL, where these races reached the user as an
``IntegrityError``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from club.models import Season
from money.models import Payment, SidePot
from tests.concurrency import at_once
from tests.factories import make_director, make_entries, make_player, make_tournament
from tests.teams import team_tournament
from tournaments.models import Entry, Player, TeamMember, Tournament
from web.submissions import FIELD, new_id

pytestmark = pytest.mark.django_db(transaction=True)

REPEATS = 3


def race(user: Any, path: str, data: dict[str, Any]) -> list[Any]:
    """Two tabs of ``user`` POST ``data`` to ``path`` at once, each its own submission."""

    def tab(_index: int) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(user)
        return client

    responses = at_once(tab, lambda client: client.post(path, {**data, FIELD: new_id()}))
    assert [r.status_code for r in responses if r.status_code >= 500] == []
    return responses


def said(response: Any) -> str:
    """What the answer tells: its messages, or the page it shows (a form with its error)."""
    told = " ".join(str(m) for m in get_messages(response.wsgi_request))
    if response.status_code in (301, 302, 303):
        return told
    return f"{told} {response.content.decode()}"


def one_refused(responses: list[Any], *words: str) -> None:
    """One tab was told what exists, in a message naming it."""
    texts = [said(response) for response in responses]
    refused = [t for t in texts if all(word in t for word in words)]
    assert len(refused) == 1, texts


def one_made_one_asked(responses: list[Any], name: str) -> None:
    """One tab made it (a redirect to it), the other was asked whether to make another
    (web.repeats: a second tournament or season is not made without asking)."""
    made = [r for r in responses if r.status_code == 302]
    asked = [r for r in responses if r.status_code == 200 and "make another?" in said(r)]
    assert len(made) == 1 and len(asked) == 1, [said(r) for r in responses]
    assert f"“{name}”" in said(asked[0])


def manage(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.slug])


def test_the_same_player_entered_from_two_tabs():
    for n in range(REPEATS):
        director = make_director()
        tournament = make_tournament(owner=director)
        player = make_player(name=f"Zoë Quintana {n}")
        responses = race(director, manage("entry-add", tournament), {"player": player.pk})
        assert Entry.objects.filter(tournament=tournament, player=player).count() == 1
        one_refused(responses, f"Zoë Quintana {n} is already entered")


def test_the_same_new_player_at_the_door_from_two_tabs():
    for n in range(REPEATS):
        director = make_director()
        tournament = make_tournament(owner=director)
        data = {"new-name": f"Nuevo Jugador {n}", "new-email": "nuevo@example.com"}
        responses = race(director, manage("entry-new", tournament), data)
        assert Player.objects.filter(name=f"Nuevo Jugador {n}").count() == 1
        assert tournament.entries.count() == 1
        one_refused(responses, "A player with this name and email is already registered.")


def test_the_same_team_from_two_tabs():
    for n in range(REPEATS):
        director = make_director()
        tournament = team_tournament(owner=director)
        one, two = make_player(name=f"Seat Uno {n}"), make_player(name=f"Seat Dos {n}")
        data = {"team_name": "Los Primos", "seat1": one.pk, "seat2": two.pk}
        responses = race(director, manage("team-add", tournament), data)
        assert tournament.entries.count() == 1
        assert TeamMember.objects.filter(tournament=tournament).count() == 2
        one_refused(responses, "Los Primos", "already")


def test_the_same_side_pot_from_two_tabs():
    for _ in range(REPEATS):
        director = make_director()
        tournament = make_tournament(owner=director)
        data = {"name": "Bote Extra", "buy_in": "5", "payout": "100", "rounding": "1"}
        path = reverse("money:side-pot-create", args=[tournament.slug])
        responses = race(director, path, data)
        assert SidePot.objects.filter(tournament=tournament).count() == 1
        one_refused(responses, "Bote Extra", "already")


def test_two_payments_for_one_entry_at_once():
    for _ in range(REPEATS):
        director = make_director()
        tournament = make_tournament(owner=director)
        entry = make_entries(tournament=tournament, count=1)[0]
        path = reverse("money:payment-save", args=[tournament.slug, entry.pk])
        race(director, path, {"method": "cash", "amount": "10"})
        assert Payment.objects.filter(entry=entry).count() == 1
        assert Entry.objects.get(pk=entry.pk).paid


def test_the_same_tournament_from_two_tabs():
    data = {
        "name": "Torneo Doble",
        "date": "2030-01-01",
        "tables": 3,
        "page_size": "A4",
        "language": "en",
        "preset": "modern",
        "bracket_kind": "single_elimination",
    }
    for _ in range(REPEATS):
        director = make_director()
        before = Tournament.objects.count()
        responses = race(director, reverse("tournaments:tournament-create"), data)
        assert Tournament.objects.count() == before + 1
        one_made_one_asked(responses, "Torneo Doble")
        Tournament.objects.filter(name="Torneo Doble").delete()


def test_the_same_season_from_two_tabs():
    data = {
        "name": "Temporada Doble",
        "scoring": "placing",
        "placing_points_text": "10, 6, 4",
        "points_per_win": 1,
        "best_of": 2,
    }
    for _ in range(REPEATS):
        director = make_director()
        responses = race(director, reverse("club:season-create"), data)
        assert Season.objects.filter(name="Temporada Doble").count() == 1
        one_made_one_asked(responses, "Temporada Doble")
        Season.objects.filter(name="Temporada Doble").delete()
