"""A correction, deletion, confirmation or walkover names what the person saw.

Hands are addressed by their identity and the values the page showed, not by their
position: a form opened before another device changed the match is refused with the
current state shown, and changes nothing (the same races run concurrently, on SQLite and
PostgreSQL, in test_races.py).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from scoring.services import confirm_result
from tests.factories import make_bracket
from tournaments.models import AuditEntry, Match
from web.submissions import FIELD, new_id

from .helpers import gin, hidden_fields, knock, play, post_data, ready_match, win_games

pytestmark = pytest.mark.django_db

FIVE = [knock("A", 1, 11), knock("B", 2, 22), knock("A", 3, 33), knock("B", 4, 44), gin("A", 55)]
CHANGED = "This hand changed since you opened it"


def table(match, name="match-sheet", **kwargs):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token, **kwargs})


def sheet(match, name="match-sheet", **kwargs):
    kwargs = {"slug": match.tournament.slug, "match_id": match.pk, **kwargs}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def opened(client, url):
    """Open a correction or deletion page: the hidden fields its form will send back."""
    response = client.get(url)
    assert response.status_code == 200
    fields = hidden_fields(response.content.decode(), url)
    assert set(fields) >= {"hand", "version"}, fields
    return fields


def shown_value(html, name):
    """The value a number input of the hand form shows."""
    return re.search(rf'<input[^>]* name="{name}"[^>]* value="([^"]*)"', html)[1]


def values(match):
    hands = Hand.objects.filter(match=match).order_by("number")
    return [(h.kind, h.by, h.deadwood, h.defender_deadwood) for h in hands]


def as_values(hands):
    return [(h.kind, h.by, h.deadwood, h.defender_deadwood) for h in hands]


def test_a_double_tap_on_delete_deletes_one_hand(client):
    match = ready_match()
    play(match, FIVE)
    url = table(match, "hand-delete", number=3)
    form = opened(client, url)
    first = client.post(url, form)
    assert first.status_code == 302
    # The same form again (its submission id: issue 32) answers as the first did.
    again = client.post(url, form)
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    # The same deletion from a second tab (its own submission id) finds the hand gone.
    second = client.post(url, {**form, FIELD: new_id()})
    assert second.status_code == 409
    assert "This hand has already been deleted" in second.content.decode()
    assert values(match) == as_values([FIVE[0], FIVE[1], FIVE[3], FIVE[4]])
    assert AuditEntry.objects.filter(action="hand deleted").count() == 1


def test_a_correction_opened_before_an_earlier_deletion_lands_nowhere(client):
    match = ready_match()
    play(match, FIVE)
    edit = table(match, "hand-edit", number=3)
    form = opened(client, edit)  # one tab opens hand 3
    delete = table(match, "hand-delete", number=2)
    assert client.post(delete, opened(client, delete)).status_code == 302  # another deletes 2
    response = client.post(edit, {**form, **post_data(3, knock("A", 9, 99)), "confirm": "1"})
    assert response.status_code == 409
    html = response.content.decode()
    assert CHANGED in html
    # The hand it was opened for, as it is now (number 2), in the form to check again.
    assert "Correct hand 2" in html
    assert shown_value(html, "defender_deadwood") == "33"
    assert hidden_fields(html, table(match, "hand-edit", number=2))["hand"] == form["hand"]
    assert values(match) == as_values([FIVE[0], FIVE[2], FIVE[3], FIVE[4]])


def test_two_tabs_correcting_one_hand_the_second_is_told(client):
    match = ready_match()
    play(match, FIVE)
    url = table(match, "hand-edit", number=3)
    first, second = opened(client, url), opened(client, url)
    done = client.post(url, {**first, **post_data(3, knock("A", 3, 40)), "confirm": "1"})
    assert done.status_code == 302
    late = client.post(url, {**second, **post_data(3, knock("A", 3, 50)), "confirm": "1"})
    assert late.status_code == 409
    html = late.content.decode()
    assert CHANGED in html
    assert shown_value(html, "defender_deadwood") == "40"  # what the first tab saved
    assert values(match)[2] == ("knock", "A", 3, 40)
    # Looked at again, the refreshed form goes through.
    fresh = hidden_fields(html, url)
    again = client.post(url, {**fresh, **post_data(3, knock("A", 3, 50)), "confirm": "1"})
    assert again.status_code == 302
    assert values(match)[2] == ("knock", "A", 3, 50)


def test_the_check_step_already_refuses_a_changed_hand(client):
    match = ready_match()
    play(match, FIVE)
    url = sheet(match, "hand-edit", number=1)
    client.force_login(match.tournament.owner)
    form = opened(client, url)
    other = opened(client, url)
    client.post(url, {**other, **post_data(1, knock("A", 1, 12)), "confirm": "1"})
    # "Check the correction" (no confirm yet) with the old version: refused, not carried on.
    response = client.post(url, {**form, **post_data(1, knock("A", 1, 20))})
    assert response.status_code == 409
    assert CHANGED in response.content.decode()
    assert "Yes, save the correction" not in response.content.decode()


def test_a_deletion_of_a_changed_hand_shows_it_as_it_is_now(client):
    match = ready_match()
    play(match, FIVE)
    delete = table(match, "hand-delete", number=2)
    form = opened(client, delete)
    edit = table(match, "hand-edit", number=2)
    client.post(edit, {**opened(client, edit), **post_data(2, knock("B", 2, 30)), "confirm": "1"})
    response = client.post(delete, form)
    assert response.status_code == 409
    assert CHANGED in response.content.decode()
    assert len(values(match)) == 5
    # The page offers the deletion of the hand as it is now.
    assert client.post(delete, hidden_fields(response.content.decode(), delete)).status_code == 302
    assert len(values(match)) == 4


@pytest.mark.parametrize("drop", ["hand", "version", "both"])
def test_a_correction_or_deletion_that_names_no_version_changes_nothing(client, drop):
    match = ready_match()
    play(match, FIVE)
    for name in ("hand-edit", "hand-delete"):
        url = table(match, name, number=2)
        form = opened(client, url)
        form = {k: v for k, v in form.items() if drop not in (k, "both")}
        form = {**form, "version": "x"} if drop == "version" else form
        data = {**form, **post_data(2, knock("B", 2, 90)), "confirm": "1"}
        response = client.post(url, data if name == "hand-edit" else form)
        assert response.status_code == 409, name
        assert CHANGED in response.content.decode()
    assert values(match) == as_values(FIVE)


def test_a_hand_id_from_another_match_is_refused(client):
    match, other = ready_match(), ready_match()
    play(match, FIVE)
    play(other, FIVE)
    url = table(match, "hand-delete", number=2)
    foreign = opened(client, table(other, "hand-delete", number=2))
    foreign = {"hand": foreign["hand"], "version": foreign["version"]}
    assert client.post(url, foreign).status_code == 409
    assert len(values(match)) == len(values(other)) == 5


def test_a_confirmation_after_a_correction_it_did_not_see_is_refused(client):
    match = ready_match()
    play(match, win_games("A", 3))
    confirm = table(match, "match-confirm")
    form = hidden_fields(client.get(table(match)).content.decode(), confirm)
    assert "version" in form
    # The director corrects a hand meanwhile; A still wins.
    director = type(client)()
    director.force_login(match.tournament.owner)
    edit = sheet(match, "hand-edit", number=9)
    fields = opened(director, edit)
    director.post(edit, {**fields, **post_data(9, gin("A", 90)), "confirm": "1"})
    response = client.post(confirm, form, follow=True)
    assert "The match changed since you opened this page" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    # Having seen the sheet again, the loser confirms.
    form = hidden_fields(client.get(table(match)).content.decode(), confirm)
    client.post(confirm, form)
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE


def test_a_table_correction_after_the_confirmation_says_so(client):
    match = ready_match()
    play(match, win_games("A", 3))
    url = table(match, "hand-edit", number=2)
    form = opened(client, url)
    confirm_result(match=match)
    response = client.post(url, {**form, **post_data(2, gin("B", 90)), "confirm": "1"})
    assert response.status_code == 410
    assert "The result was confirmed meanwhile" in response.content.decode()
    assert values(match)[1] == ("gin", "A", None, 98)


def test_a_directors_correction_opened_before_the_confirmation_changes_nothing(client):
    match = ready_match()
    play(match, win_games("A", 3))
    client.force_login(match.tournament.owner)
    url = sheet(match, "hand-edit", number=9)
    form = opened(client, url)
    confirm_result(match=match)
    response = client.post(url, {**form, **post_data(9, knock("A", 1, 2)), "confirm": "1"})
    assert response.status_code == 409
    assert "The result was confirmed meanwhile" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert values(match)[8] == ("gin", "A", None, 98)
    # Opened on the confirmed match, the same correction reopens it, as before.
    form = hidden_fields(response.content.decode(), url)
    response = client.post(url, {**form, **post_data(9, knock("A", 1, 2)), "confirm": "1"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY


def test_a_walkover_after_a_hand_it_did_not_see_is_refused(client):
    tournament = make_bracket(players=4)
    match = Match.objects.filter(tournament=tournament, round=1).order_by("position").first()
    client.force_login(tournament.owner)
    rounds = reverse("tournaments:round-control", args=[tournament.slug])
    url = reverse("tournaments:match-walkover", args=[tournament.slug, match.pk])
    form = hidden_fields(client.get(rounds).content.decode(), url)
    assert "version" in form
    play(match, [knock("A", 2, 30)])  # the players turn up and enter a hand
    response = client.post(
        url, {**form, "winner_side": "B", "confirmed": "1"}, HTTP_HX_REQUEST="true"
    )
    assert "The match changed since you opened this page" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY and not match.forfeit
    form = hidden_fields(response.content.decode(), url)
    response = client.post(
        url, {**form, "winner_side": "B", "confirmed": "1"}, HTTP_HX_REQUEST="true"
    )
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE and match.winner_side == "B"
