"""A form's submission id (web.submissions): sent again, the same answer, one write."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.factories import make_director, make_tournament
from tournaments.models import AuditEntry, Stage, Tournament
from web.models import Submission
from web.submissions import FIELD, new_id

pytestmark = pytest.mark.django_db

NEW_TOURNAMENT = {
    "name": "Abierto de Otoño",
    "date": "2030-01-01",
    "tables": 3,
    "page_size": "A4",
    "language": "en",
    "preset": "modern",
    "bracket_kind": "single_elimination",
}


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def form_id(html: str) -> str:
    return re.search(rf'name="{FIELD}" value="([0-9a-f]{{32}})"', html)[1]


def test_a_resent_form_answers_as_the_first_time_and_writes_once(director_client):
    page = director_client.get(reverse("tournaments:tournament-create")).content.decode()
    data = {**NEW_TOURNAMENT, FIELD: form_id(page)}
    first = director_client.post(reverse("tournaments:tournament-create"), data)
    told = said(first)
    director_client.get(first["Location"])  # the browser follows it: the message is shown
    again = director_client.post(reverse("tournaments:tournament-create"), data)
    assert Tournament.objects.filter(name="Abierto de Otoño").count() == 1
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert told == said(again) == ["Tournament created. Now register the players."]
    assert AuditEntry.objects.filter(action="tournament created").count() == 1


def test_each_rendering_of_a_form_is_a_new_submission(director_client):
    url = reverse("tournaments:tournament-create")
    ids = {form_id(director_client.get(url).content.decode()) for _ in range(3)}
    assert len(ids) == 3


def test_a_form_with_errors_sent_again_shows_the_same_errors_and_a_new_id(director_client):
    url = reverse("tournaments:tournament-create")
    key = new_id()
    bad = {**NEW_TOURNAMENT, "tables": "0", FIELD: key}
    first = director_client.post(url, bad)
    again = director_client.post(url, bad)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert form_id(first.content.decode()) != key  # corrected, it is a new submission
    fixed = director_client.post(url, {**NEW_TOURNAMENT, FIELD: form_id(first.content.decode())})
    assert fixed.status_code == 302
    assert Tournament.objects.count() == 1


def test_an_htmx_answer_is_replayed_whole(director_client, director):
    tournament = make_tournament(owner=director)
    url = reverse("tournaments:stage-add", args=[tournament.slug])
    data = {"kind": "single_elimination", "tiebreak_1": "buchholz", FIELD: new_id()}
    first = director_client.post(url, data, HTTP_HX_REQUEST="true")
    again = director_client.post(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert first.get("HX-Trigger") == again.get("HX-Trigger")
    assert Stage.objects.filter(tournament=tournament).count() == 1


def test_a_refusal_records_nothing(client):
    owner, other = make_director(), make_director()
    tournament = make_tournament(owner=owner)
    client.force_login(other)
    url = reverse("tournaments:stage-add", args=[tournament.slug])
    response = client.post(url, {"kind": "single_elimination", FIELD: new_id()})
    assert response.status_code == 403
    assert not Submission.objects.exists()


def test_another_account_cannot_reuse_a_submission_id(director_client):
    key = new_id()
    director_client.post(reverse("tournaments:tournament-create"), {**NEW_TOURNAMENT, FIELD: key})
    other = Client()
    other.force_login(make_director())
    response = other.post(
        reverse("tournaments:tournament-create"), {**NEW_TOURNAMENT, "name": "Otro", FIELD: key}
    )
    assert response.status_code == 400
    assert not Tournament.objects.filter(name="Otro").exists()


def test_answers_are_kept_a_day_then_forgotten(director_client, monkeypatch):
    """A recorded answer may show a one-time set-password link: it is kept for a resend as
    long as such a link lasts, and forgotten by a submission after that. The sweep runs at
    most once a minute per process (a DELETE each hand would cost the phones' hand entry)."""
    import datetime

    from django.utils import timezone

    from web import submissions

    monkeypatch.setattr(submissions, "next_sweep", 0.0)
    url = reverse("tournaments:tournament-create")

    def send(name):
        data = {**NEW_TOURNAMENT, "name": name}
        data[FIELD] = form_id(director_client.get(url).content.decode())
        director_client.post(url, data)
        return data[FIELD]

    first = send("First")
    Submission.objects.filter(key=first).update(
        created_at=timezone.now() - datetime.timedelta(days=1, minutes=1)
    )
    second = send("Second")  # within the minute of the last sweep: not swept yet
    assert set(Submission.objects.values_list("key", flat=True)) == {first, second}
    monkeypatch.setattr(submissions, "next_sweep", 0.0)  # a minute later
    third = send("Third")
    assert set(Submission.objects.values_list("key", flat=True)) == {second, third}


# Forms that are not a director's writes: signing in and out, the language, and choosing a
# password through a one-time link (no account is signed in to record a submission for).
NOT_WRITE_FORMS = {
    "registration/login.html",
    "registration/set_password.html",
    "base.html",
}


def test_every_write_form_in_the_templates_carries_a_submission_id():
    """A POST form without the field would write twice on a double tap: every template's
    POST form puts ``{% submission_field %}`` beside its CSRF token."""
    from pathlib import Path

    from django.conf import settings

    root = Path(settings.TEMPLATES[0]["DIRS"][0])
    missing = []
    for path in sorted(root.rglob("*.html")):
        name = path.relative_to(root).as_posix()
        if name in NOT_WRITE_FORMS:
            continue
        text = path.read_text(encoding="utf-8")
        for form in re.finditer(r'<form[^>]*method="post".*?</form>', text, re.S | re.I):
            if "{% submission_field %}" not in form.group(0):
                missing.append(f"{name}: {form.group(0)[:80]}")
    assert not missing, "\n".join(missing)


def test_the_live_preview_posts_the_form_s_id_and_the_save_still_writes(director_client):
    """The hand form's preview posts the whole form, its submission id included, at every
    change: previews are not recorded (each shows what it was sent), and the save that
    follows with the same id writes the hand."""
    from scoring.models import Hand
    from tests.scoring.helpers import ready_match

    match = ready_match()
    match.tournament.owner = director_client.director
    match.tournament.save()
    args = {"slug": match.tournament.slug, "match_id": match.pk}
    page = director_client.get(reverse("scoring:match-sheet", kwargs=args)).content.decode()
    key = form_id(page)
    hand = {FIELD: key, "number": 1, "kind": "knock", "by": "A", "deadwood": 2}
    preview = reverse("scoring:hand-preview", kwargs=args)
    first = director_client.post(preview, {**hand, "defender_deadwood": 30}, HTTP_HX_REQUEST="true")
    second = director_client.post(
        preview, {**hand, "defender_deadwood": 50}, HTTP_HX_REQUEST="true"
    )
    assert first.status_code == second.status_code == 200
    assert first.content != second.content  # each preview shows the counts it was sent
    saved = director_client.post(
        reverse("scoring:hand-create", kwargs=args), {**hand, "defender_deadwood": 50}
    )
    assert saved.status_code in (200, 302)
    assert Hand.objects.filter(match=match, number=1, defender_deadwood=50).count() == 1
