"""The phones' resends through a table link (issue 32): every table-link form carries a
submission id; a resend of a stored submission answers as the first did and writes
nothing; a different submission for a hand number already taken is told what was stored
and from which phone; a hand entered against a score changed since is refused with the
current score; an id replayed on another table link is refused (400).

Each runs the whole page (no JavaScript: a redirect, the message after it) and the htmx
answer (the entry region), as a phone's browser or its script would send them.
"""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.services import correct_hand
from scoring.versions import hand_version
from tables import devices
from tests.factories import make_entries, make_match
from tournaments.models import AuditEntry, Match
from web.models import Submission
from web.submissions import FIELD, new_id

from .helpers import gin, hidden_fields, knock, play, post_data, ready_match, win_games

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def table(match, name="match-sheet", **kwargs):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token, **kwargs})


def phone() -> Client:
    return Client(enforce_csrf_checks=False)


def open_form(client: Client, match) -> dict[str, str]:
    """Open the table link as a phone: the hand form's hidden fields (its submission id,
    the score it shows); the phone gets its label on the way."""
    response = client.get(table(match))
    assert response.status_code == 200
    fields = hidden_fields(response.content.decode(), table(match, "hand-create"))
    assert set(fields) >= {FIELD, "seen"}, fields
    assert devices.CODE.match(client.cookies[devices.COOKIE].value)
    return fields


def text(response) -> str:
    return html_module.unescape(response.content.decode())


def stored(match) -> list[tuple]:
    hands = Hand.objects.filter(match=match).order_by("number")
    return [(h.number, h.kind, h.by, h.deadwood, h.defender_deadwood) for h in hands]


def test_a_resend_after_the_answer_was_lost_answers_saved_again_and_stores_once():
    match = ready_match()
    client = phone()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    first = client.post(table(match, "hand-create"), form)
    assert first.status_code == 302 and first["Submission-Outcome"] == "saved"
    # The answer never reached the phone: it sends the same form again.
    again = client.post(table(match, "hand-create"), form)
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    assert again["Submission-Outcome"] == "saved"
    page = text(client.get(again["Location"]))
    assert "Hand 1 saved." in page and "already entered" not in page
    assert "Enter hand 2" in page
    assert stored(match) == [(1, "knock", "A", 5, 31)]
    hand = Hand.objects.get(match=match)
    assert hand.submission == form[FIELD]
    assert hand.device == client.cookies[devices.COOKIE].value


def test_an_htmx_resend_gets_the_same_entry_region_and_stores_once():
    match = ready_match()
    client = phone()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    first = client.post(table(match, "hand-create"), form, **HTMX)
    again = client.post(table(match, "hand-create"), form, **HTMX)
    assert first.status_code == again.status_code == 200
    assert again["Submission-Outcome"] == "saved"
    assert again["HX-Trigger"] == first["HX-Trigger"] == '{"hand-recorded": {}}'
    # The same region, but for the next form's fresh ids (a new form each time).
    assert without_ids(again) == without_ids(first)
    assert "Hand 1 saved." in text(again) and "Enter hand 2" in text(again)
    assert stored(match) == [(1, "knock", "A", 5, 31)]
    # The hand keeps the id (no separate record of the answer: hand entry keeps its own).
    assert Hand.objects.get(match=match).submission == form[FIELD]
    assert not Submission.objects.filter(key=form[FIELD]).exists()


def test_a_resend_after_another_hand_answers_saved_with_the_score_as_it_is_now():
    """The first answer lost, the other phone entered hand 2 meanwhile: the resend of hand
    1 still answers "saved" (never "already entered"), showing hand 3's form."""
    match = ready_match()
    client, other = phone(), phone()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    client.post(table(match, "hand-create"), form, **HTMX)
    second = {**open_form(other, match), **post_data(2, knock("B", 3, 22))}
    assert other.post(table(match, "hand-create"), second, **HTMX)["Submission-Outcome"] == "saved"
    again = client.post(table(match, "hand-create"), form, **HTMX)
    assert again["Submission-Outcome"] == "saved"
    assert "Hand 1 saved." in text(again) and "Enter hand 3" in text(again)
    assert "already entered" not in text(again)
    assert stored(match) == [(1, "knock", "A", 5, 31), (2, "knock", "B", 3, 22)]


def without_ids(response) -> str:
    return re.sub(r'name="(submission|csrfmiddlewaretoken)" value="[^"]*"', "", text(response))


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_second_phone_is_told_what_was_stored_and_from_which_phone(htmx):
    match = ready_match()
    play(match, [knock("B", 2, 20)])
    first_phone, second_phone = phone(), phone()
    first_form = open_form(first_phone, match)
    second_form = open_form(second_phone, match)
    code = first_phone.cookies[devices.COOKIE].value
    assert code != second_phone.cookies[devices.COOKIE].value
    extra = HTMX if htmx else {}
    saved = first_phone.post(
        table(match, "hand-create"), {**first_form, **post_data(2, knock("A", 5, 31))}, **extra
    )
    assert saved["Submission-Outcome"] == "saved"
    refused = second_phone.post(
        table(match, "hand-create"), {**second_form, **post_data(2, knock("B", 7, 40))}, **extra
    )
    assert refused["Submission-Outcome"] == "taken"
    assert refused.status_code == (200 if htmx else 409)
    page = text(refused)
    name = match.side_name("A")
    assert (
        f"Hand 2 was already entered from phone {code} at table 1: {name} knocked: 5 v 31."
        " Yours was not saved."
    ) in page
    assert "Enter hand 3" in page  # the next hand's form, at the current score
    if htmx:
        assert refused["HX-Trigger"] == '{"hand-refused": {}}'  # the score regions reload
    else:
        assert f"{match.side_name('B')}" in page and 'class="score' in page
    assert stored(match) == [(1, "knock", "B", 2, 20), (2, "knock", "A", 5, 31)]
    assert Hand.objects.get(match=match, number=2).device == code


def test_the_same_phone_sending_a_hand_again_from_a_new_form_is_told_it_was_its_own():
    match = ready_match()
    client = phone()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    client.post(table(match, "hand-create"), form)
    # The page was reloaded with the old values still typed in: a new submission id.
    refused = client.post(table(match, "hand-create"), {**form, FIELD: new_id()})
    assert refused.status_code == 409
    assert "Hand 1 was already entered from this phone:" in text(refused)
    assert stored(match) == [(1, "knock", "A", 5, 31)]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_hand_entered_against_a_score_changed_since_is_refused_with_the_current_score(htmx):
    match = ready_match()
    play(match, [knock("A", 2, 20), knock("B", 3, 30)])
    client = phone()
    form = open_form(client, match)
    # Meanwhile the director corrects hand 2: the score the phone shows is no longer true.
    hand = Hand.objects.get(match=match, number=2)
    correct_hand(match=match, hand_id=hand.pk, version=hand_version(hand), data=knock("B", 3, 60))
    refused = client.post(
        table(match, "hand-create"),
        {**form, **post_data(3, knock("A", 4, 44))},
        **(HTMX if htmx else {}),
    )
    assert refused["Submission-Outcome"] == "stale"
    assert refused.status_code == (200 if htmx else 409)
    page = text(refused)
    assert "The score changed since this page showed it" in page
    assert "Enter hand 3" in page
    assert stored(match) == [(1, "knock", "A", 2, 20), (2, "knock", "B", 3, 60)]
    # The form it offers shows the score as it is now: that one goes through.
    fresh = hidden_fields(page, table(match, "hand-create"))
    saved = client.post(table(match, "hand-create"), {**fresh, **post_data(3, knock("A", 4, 44))})
    assert saved["Submission-Outcome"] == "saved"
    assert len(stored(match)) == 3


def test_a_submission_id_replayed_on_another_table_link_is_refused_and_writes_nothing():
    match = ready_match()
    a, b = make_entries(tournament=match.tournament, count=2)
    other = make_match(tournament=match.tournament, a=a, b=b, table=2)
    client = phone()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    assert client.post(table(match, "hand-create"), form).status_code == 302
    open_form(client, other)
    for extra in ({}, HTMX):
        replayed = client.post(table(other, "hand-create"), form, **extra)
        assert replayed.status_code == 400
    assert stored(other) == []
    assert stored(match) == [(1, "knock", "A", 5, 31)]


def test_an_id_of_the_phones_own_making_is_accepted_and_kept():
    """The outbox script makes its ids itself: 32 lowercase hex digits."""
    match = ready_match()
    client = phone()
    own = "0123456789abcdef" * 2
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31)), FIELD: own}
    first = client.post(table(match, "hand-create"), form, **HTMX)
    again = client.post(table(match, "hand-create"), form, **HTMX)
    assert first["Submission-Outcome"] == again["Submission-Outcome"] == "saved"
    assert Hand.objects.get(match=match).submission == own


def test_a_resent_correction_from_the_table_answers_as_the_first_and_changes_once():
    match = ready_match()
    play(match, [knock("A", 2, 20), knock("B", 3, 30)])
    client = phone()
    open_form(client, match)
    edit = table(match, "hand-edit", number=2)
    form = {
        **hidden_fields(client.get(edit).content.decode(), edit),
        **post_data(2, knock("B", 3, 60)),
        "confirm": "1",
    }
    assert FIELD in form
    first = client.post(edit, form)
    assert first.status_code == 302
    # Without the submission id this would be refused: the hand changed since the form.
    again = client.post(edit, form)
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    assert stored(match) == [(1, "knock", "A", 2, 20), (2, "knock", "B", 3, 60)]
    assert AuditEntry.objects.filter(action="hand corrected").count() == 1


def test_a_resent_confirmation_answers_as_the_first_though_the_link_has_closed():
    match = ready_match()
    play(match, win_games("A", 3))
    client = phone()
    client.get(table(match))
    confirm = table(match, "match-confirm")
    form = hidden_fields(client.get(table(match)).content.decode(), confirm)
    assert FIELD in form
    first = client.post(confirm, form)
    assert first.status_code == 302
    # The confirmation closed the table link (410 to anything new); the resend is the
    # same submission, so it gets the first answer, not "closed".
    again = client.post(confirm, form)
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    assert client.post(confirm, {**form, FIELD: new_id()}).status_code == 410
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE


def test_a_phone_enters_hand_after_hand_from_the_forms_its_answers_bring():
    """Each answer's form shows the score just saved: the next hand goes through."""
    match = ready_match()
    client = phone()
    form = open_form(client, match)
    for number in (1, 2, 3):
        answer = client.post(
            table(match, "hand-create"), {**form, **post_data(number, knock("A", 2, 20))}, **HTMX
        )
        assert answer["Submission-Outcome"] == "saved", text(answer)
        form = hidden_fields(answer.content.decode(), table(match, "hand-create"))
        assert form["seen"] == str(Match.objects.get(pk=match.pk).version)
    assert len(stored(match)) == 3
    assert len({h.submission for h in Hand.objects.filter(match=match)}) == 3


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_last_hand_resent_after_the_result_was_confirmed_answers_saved(htmx):
    """The answer to the match's last hand was lost; the other phone confirmed the result
    meanwhile, which closed the link. The resend is the hand already stored: "saved",
    not "the result was confirmed", and nothing is written."""
    match = ready_match()
    play(match, win_games("A", 3)[:-1])
    client = phone()
    form = {**open_form(client, match), **post_data(9, gin("A"))}
    first = client.post(table(match, "hand-create"), form)
    assert first["Submission-Outcome"] == "saved"
    other = phone()
    confirm = table(match, "match-confirm")
    assert other.post(confirm, hidden_fields(other.get(table(match)).content.decode(), confirm))
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    extra = HTMX if htmx else {}
    again = client.post(table(match, "hand-create"), form, **extra)
    assert again["Submission-Outcome"] == "saved"
    sheet = reverse(
        "scoring:match-sheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )
    if htmx:
        assert (again.status_code, again["HX-Redirect"]) == (200, sheet)
    else:
        assert (again.status_code, again["Location"]) == (302, sheet)
    page = text(client.get(sheet))
    assert "Hand 9 saved. The result has since been confirmed." in page
    assert len(stored(match)) == 9
    # Anything new on the closed link is still refused.
    fresh = {**form, FIELD: new_id()}
    assert client.post(table(match, "hand-create"), fresh).status_code == 410
