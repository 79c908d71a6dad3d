"""A refused hand says so once, as a sentence, next to its field: the input is marked
invalid and described by the message, which is announced and takes the focus; the form
stays the hand it was (no first-dealer question on a later hand)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand

from .helpers import knock, play, post_data, ready_match

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
MESSAGE = "Knocker deadwood 11 is over the knock limit of 10."


def create_url(match):
    return reverse(
        "scoring:hand-create", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_knock_limit_error_is_one_sentence_next_to_the_deadwood(client, htmx):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(
        create_url(match), post_data(1, knock(deadwood=11)), **(HTMX if htmx else {})
    )
    html = response.content.decode()
    assert html.count("over the knock limit") == 1
    assert MESSAGE in html
    field = re.search(r'<div class="field field-deadwood">.*?</div>', html, re.S)
    assert field, "the deadwood field is a div (a <ul> in a <p> is split by the browser)"
    field_html = field.group(0)
    assert 'aria-invalid="true"' in field_html and 'aria-describedby="id_deadwood-error"' in (
        field_html
    )
    assert 'id="id_deadwood-error" role="alert"' in field_html and MESSAGE in field_html
    assert "autofocus" in field_html
    assert "<ul" not in field_html
    assert not Hand.objects.exists()


def test_after_an_error_hand_seven_does_not_ask_who_dealt_first(client):
    match = ready_match()
    play(match, [knock() for _ in range(6)])
    client.force_login(match.tournament.owner)
    response = client.post(create_url(match), post_data(7, knock(deadwood=11)), **HTMX)
    html = response.content.decode()
    assert MESSAGE in html
    assert "Who dealt the first hand?" not in html
    assert "Enter hand 7" in html


def test_a_hand_number_of_five_thousand_digits_is_refused_not_a_crash(client):
    """The form reads the posted number to stay the hand it was: a number far past any
    match (more digits than Python converts by default) is a form error, not a 500."""
    match = ready_match()
    client.force_login(match.tournament.owner)
    data = {**post_data(1, knock()), "number": "9" * 5000}
    response = client.post(create_url(match), data)
    assert response.status_code == 400  # the page again, with the form
    assert 'name="number"' in response.content.decode()
    assert not Hand.objects.exists()


def test_a_deadwood_out_of_range_is_named_by_its_label_not_its_field_name(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(create_url(match), post_data(1, knock(defender=105)))
    html = response.content.decode()
    assert "efender_deadwood must" not in html
    assert "Opponent&#x27;s deadwood (after lay-offs) must be between 0 and 98, not 105." in html
