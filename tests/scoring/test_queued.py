"""A match waiting for a table (issue 41): its table link and match sheet say where it
stands in the queue, and every write that would play it is refused, storing nothing, with
an answer the phone's outbox takes as definitive; once it has a table the same link works."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from scoring.services import WaitingForTable, record_hand
from tests.factories import finish_match, make_bracket, make_director
from tests.scoring.helpers import knock, play, post_data
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def two_matches_one_table(language: str = "en"):
    """A 4-player bracket at one table: round 1 has a seated match and a queued one."""
    tournament = make_bracket(players=4, tables=1, language=language)
    seated, queued = Match.objects.filter(tournament=tournament, round=1).order_by("position")
    assert seated.table == 1 and queued.table is None
    return tournament, seated, queued


def link(match: Match, name: str = "match-sheet") -> str:
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token})


def test_a_queued_match_is_waiting_for_a_table_and_a_seated_one_is_not():
    _tournament, seated, queued = two_matches_one_table()
    assert queued.is_queued
    assert not seated.is_queued


def test_its_table_link_says_it_is_first_in_the_queue_and_shows_no_form(client):
    _tournament, _seated, queued = two_matches_one_table()
    page = client.get(link(queued)).content.decode()
    assert "Wait for a table: you are first in the queue." in page
    assert 'class="hand-form"' not in page


def test_with_an_estimate_it_names_the_table_it_follows_and_about_when(client):
    _tournament, seated, queued = two_matches_one_table()
    play(seated, [knock("A", 2, 10)] * 3)
    # Hands entered a few minutes apart give the table a pace, and so a finish.
    hands = Hand.objects.filter(match=seated).order_by("number")
    for offset, hand in enumerate(hands):
        Hand.objects.filter(pk=hand.pk).update(
            entered_at=timezone.now() - timedelta(minutes=3 * (len(hands) - offset))
        )
    page = client.get(link(queued)).content.decode()
    assert "Wait for a table: you are next after table 1 (about " in page


@pytest.mark.parametrize(
    ("language", "sentence", "nothing_saved"),
    [
        ("en", "Wait for a table: you are first in the queue.", "Nothing was saved"),
        ("es", "Esperen una mesa: son los primeros en la cola.", "No se guardó nada"),
        ("af", "Wag vir 'n tafel: julle is eerste in die tou.", "Niks is gestoor nie"),
    ],
)
def test_a_hand_from_its_table_link_is_refused_storing_nothing(
    client, language, sentence, nothing_saved
):
    _tournament, _seated, queued = two_matches_one_table(language)
    before = (queued.version, queued.status)
    response = client.post(link(queued, "hand-create"), post_data(1, knock()))
    assert response.status_code == 409
    assert response["Submission-Outcome"] == "queued"
    page = html.unescape(response.content.decode())
    assert sentence in page and nothing_saved in page
    queued.refresh_from_db()
    assert (queued.version, queued.status) == before
    assert not Hand.objects.filter(match=queued).exists()


def test_the_outbox_gets_the_entry_region_with_the_sentence_and_a_definitive_outcome(client):
    _tournament, _seated, queued = two_matches_one_table()
    response = client.post(
        link(queued, "hand-create"),
        post_data(1, knock()),
        headers={"HX-Request": "true", "HX-Target": "match-entry"},
    )
    assert response.status_code == 200
    assert response["Submission-Outcome"] == "queued"
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="match-entry"')
    assert "Wait for a table: you are first in the queue." in page
    assert not Hand.objects.filter(match=queued).exists()


@pytest.mark.parametrize("name", ["match-confirm", "deal-create", "hand-preview"])
def test_every_other_write_through_the_link_is_refused_too(client, name):
    _tournament, _seated, queued = two_matches_one_table()
    response = client.post(link(queued, name), {"version": queued.version})
    assert response.status_code == 409
    assert response["Submission-Outcome"] == "queued"


def test_the_table_can_still_call_the_director(client):
    _tournament, _seated, queued = two_matches_one_table()
    call = reverse("tables:table-call-director", kwargs={"token": queued.token})
    response = client.post(call, {"reason": "other", "note": "waiting"})
    assert response.status_code == 302


def test_a_director_is_refused_too_and_told_how_to_give_it_a_table(client):
    tournament, _seated, queued = two_matches_one_table()
    client.force_login(tournament.owner)
    url = reverse("scoring:hand-create", kwargs={"slug": tournament.slug, "match_id": queued.pk})
    response = client.post(url, post_data(1, knock()))
    assert response.status_code == 409
    page = response.content.decode()
    assert "This match waits for a table. Its players read:" in page
    assert "Wait for a table: you are first in the queue." in page
    assert reverse("tournaments:round-control", kwargs={"slug": tournament.slug}) in page
    assert not Hand.objects.filter(match=queued).exists()


def test_the_service_refuses_a_hand_for_a_queued_match_whoever_calls_it():
    _tournament, _seated, queued = two_matches_one_table()
    with pytest.raises(WaitingForTable):
        record_hand(match=queued, number=1, data=knock(), user=make_director())
    assert not Hand.objects.filter(match=queued).exists()


def test_once_it_has_a_table_the_same_link_takes_hands(client):
    _tournament, seated, queued = two_matches_one_table()
    finish_match(seated)
    queued.refresh_from_db()
    assert queued.table == 1
    page = client.get(link(queued)).content.decode()
    assert "Wait for a table" not in page and 'class="hand-form"' in page
    response = client.post(link(queued, "hand-create"), post_data(1, knock()))
    assert response.status_code == 302
    assert Hand.objects.filter(match=queued).count() == 1
