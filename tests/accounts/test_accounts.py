"""A director adds a person who has no account to a role by name and email; the page
shows a one-time set-password link, as a link and a QR code, valid for a day."""

from __future__ import annotations

import datetime
import re
from unittest import mock

import pytest
import segno
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse

from tests.factories import make_tournament
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PASSWORD = "correct-horse-battery-9"


def make_account(client, tournament, *, htmx=False, email="lu.wei@example.com"):
    url = reverse("accounts:role-create", args=[tournament.slug])
    data = {"new-name": "Lu Wei", "new-email": email, "new-role": "scorekeeper"}
    return client.post(url, data, **(HTMX if htmx else {}))


def shown_link(html: str) -> str:
    found = re.search(r'<a href="(http://testserver/accounts/set-password/[^"]+)"', html)
    assert found, "the link is shown"
    return found.group(1)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_director_makes_an_account_and_sees_its_link_and_qr(director_client, director, htmx):
    tournament = make_tournament(owner=director)
    response = make_account(director_client, tournament, htmx=htmx)
    assert response.status_code == 200
    html = response.content.decode()
    member = get_user_model().objects.get(email="lu.wei@example.com")
    assert member.username == "lu.wei" and member.first_name == "Lu"
    assert not member.has_usable_password()
    assert tournament.scorekeepers.filter(pk=member.pk).exists()
    url = shown_link(html)
    # The QR code is that link, drawn as the scoresheets draw table links (segno).
    assert segno.make(url, error="m", micro=False).svg_inline(scale=5, border=2) in html
    assert AuditEntry.objects.get(action="role added").after["username"] == "lu.wei"
    assert "They need an account on this site already" not in html


def test_the_link_sets_the_password_once_and_logs_in(director_client, director, client):
    tournament = make_tournament(owner=director)
    url = shown_link(make_account(director_client, tournament).content.decode())
    page = client.get(url, follow=True)
    assert "Your username is <strong>lu.wei</strong>" in page.content.decode()
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else url
    done = client.post(
        form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True
    )
    assert done.redirect_chain[-1][0] == reverse("tournaments:dashboard")
    assert done.context["user"].get_username() == "lu.wei"
    member = get_user_model().objects.get(username="lu.wei")
    assert member.check_password(PASSWORD)
    # Used once: the same link no longer works, for anyone.
    client.logout()
    again = client.get(url, follow=True).content.decode()
    assert "This link does not work any more" in again and 'name="new_password1"' not in again


def test_the_link_lasts_a_day(director_client, director, client):
    tournament = make_tournament(owner=director)
    url = shown_link(make_account(director_client, tournament).content.decode())
    now = datetime.datetime.now()
    with mock.patch.object(
        default_token_generator, "_now", return_value=now + datetime.timedelta(hours=23)
    ):
        assert 'name="new_password1"' in client.get(url, follow=True).content.decode()
    client.cookies.clear()
    with mock.patch.object(
        default_token_generator, "_now", return_value=now + datetime.timedelta(hours=25)
    ):
        late = client.get(url, follow=True).content.decode()
    assert "This link does not work any more" in late


def test_a_new_link_for_someone_still_without_a_password(director_client, director):
    tournament = make_tournament(owner=director)
    make_account(director_client, tournament)
    member = get_user_model().objects.get(username="lu.wei")
    roles = reverse("accounts:roles", args=[tournament.slug])
    assert "New set-password link" in director_client.get(roles).content.decode()
    link = reverse("accounts:role-link", args=[tournament.slug])
    html = director_client.post(link, {"user": member.pk}, **HTMX).content.decode()
    assert shown_link(html)
    # Once the password is chosen, no link is offered or given.
    member.set_password(PASSWORD)
    member.save()
    assert "New set-password link" not in director_client.get(roles).content.decode()
    refused = director_client.post(link, {"user": member.pk}, **HTMX).content.decode()
    assert "set-password/" not in refused and "chosen its password already" in refused


def test_an_email_that_has_an_account_is_refused_with_a_message(director_client, director):
    tournament = make_tournament(owner=director)
    get_user_model().objects.create_user("lu", email="lu.wei@example.com")
    html = make_account(director_client, tournament, htmx=True).content.decode()
    assert "exists already" in html and "set-password/" not in html
    assert not tournament.scorekeepers.exists()


def test_only_its_directors_may_make_accounts(client, director):
    tournament = make_tournament(owner=director)
    other = get_user_model().objects.create_user("other", password=PASSWORD)
    client.force_login(other)
    assert make_account(client, tournament).status_code == 403
    assert not get_user_model().objects.filter(email="lu.wei@example.com").exists()


def test_no_link_for_a_passwordless_account_made_elsewhere(director_client, director):
    tournament = make_tournament(owner=director)
    elsewhere = get_user_model().objects.create_user("made.elsewhere")  # no password
    tournament.co_directors.add(elsewhere)
    roles = reverse("accounts:roles", args=[tournament.slug])
    assert "New set-password link" not in director_client.get(roles).content.decode()
    link = reverse("accounts:role-link", args=[tournament.slug])
    refused = director_client.post(link, {"user": elsewhere.pk}, **HTMX).content.decode()
    assert "set-password/" not in refused
