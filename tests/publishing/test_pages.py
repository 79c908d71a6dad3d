"""The publishing pages (issue 34): at the club, a director's "Publishing tokens" (a new
token shown once, with its QR code and the club's address, never in a URL; revoking one's
own); at the venue, "Publish to the club's server" (the club's administrator sets, replaces
or stops the destination; bad input changes nothing)."""

from __future__ import annotations

import html
import io
import re
import subprocess

import pytest
import segno
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from config import venue
from publishing import sending
from publishing.models import Destination, Publication, PublishToken
from publishing.tokens import make_token, token_for
from tests.factories import make_bracket, make_director, make_registrar, make_user
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

TOKENS = reverse("publishing:tokens")
DESTINATION = reverse("publishing:destination")
STOP = reverse("publishing:destination-stop")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def shown_token(response) -> str:
    found = re.search(r'<code class="token-text" id="new-token">([^<]+)</code>', response.text)
    assert found, "no new token on the page"
    return html.unescape(found.group(1))


# -- at the club: publishing tokens -----------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in():
    for method, url in (("get", TOKENS), ("post", TOKENS), ("get", DESTINATION), ("post", STOP)):
        response = getattr(Client(), method)(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login")), (method, url)
    assert not PublishToken.objects.exists()


def test_only_directors_have_tokens():
    client = signed_in(make_user(username="nobody"))
    assert client.get(TOKENS).status_code == 403
    assert client.post(TOKENS, {"label": "laptop"}).status_code == 403
    assert not PublishToken.objects.exists()


def test_a_director_makes_a_token_shown_once_that_then_publishes():
    dora = make_director(username="dora")
    client = signed_in(dora)
    assert "You have no publishing tokens yet." in client.get(TOKENS).text
    response = client.post(TOKENS, {"label": "Venue laptop"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    secret = shown_token(response)
    found = token_for(secret)
    assert found is not None and found.user == dora and found.label == "Venue laptop"
    assert "http://testserver/" in response.text  # the club's address to type at the venue
    again = client.get(TOKENS)
    assert secret not in again.text  # once, never again
    assert f"{found.prefix}…" in again.text and "Venue laptop" in again.text
    assert AuditEntry.objects.filter(action="publishing token made").count() == 1


def test_the_qr_code_is_the_token(tmp_path):
    response = signed_in(make_director()).post(TOKENS, {"label": ""})
    secret = shown_token(response)
    drawn = segno.make(secret, error="m", micro=False)
    assert drawn.svg_inline(scale=5, border=2) in response.text
    png = tmp_path / "token.png"
    drawn.save(png, scale=8, border=4)
    read = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, check=True
    )
    assert read.stdout.strip() == secret


def test_a_double_submit_asks_then_makes_two_tokens_both_listed():
    client = signed_in(make_director())
    first = client.post(TOKENS, {"label": "twice"})
    again = client.post(TOKENS, {"label": "twice"})
    # Asked (web.repeats), the first token not shown again; confirmed, a second.
    assert "make another?" in again.text and shown_token(first) not in again.text
    assert PublishToken.objects.count() == 1
    shown = re.search(r'name="make_another" value="(\d+)"', again.text).group(1)
    client.post(TOKENS, {"label": "twice", "make_another": shown})
    page = client.get(TOKENS).text
    tokens = PublishToken.objects.all()
    assert len(tokens) == 2
    assert all(f"{t.prefix}…" in page for t in tokens)


def test_a_too_long_label_is_refused_and_makes_nothing():
    response = signed_in(make_director()).post(TOKENS, {"label": "x" * 61})
    assert response.status_code == 400
    assert 'id="new-token"' not in response.text
    assert not PublishToken.objects.exists()


def test_a_director_revokes_their_token_and_twice_changes_nothing():
    dora = make_director()
    token, secret = make_token(user=dora, label="old laptop")
    client = signed_in(dora)
    url = reverse("publishing:token-revoke", args=[token.pk])
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == TOKENS
    assert secret not in response["Location"]
    assert token_for(secret) is None
    revoked_at = PublishToken.objects.get(pk=token.pk).revoked_at
    assert revoked_at is not None
    page = client.get(TOKENS).text
    assert "Revoked" in page and "is revoked" in page
    client.post(url)
    assert PublishToken.objects.get(pk=token.pk).revoked_at == revoked_at
    assert AuditEntry.objects.filter(action="publishing token revoked").count() == 1
    assert client.get(url).status_code == 405


def test_another_directors_token_cannot_be_revoked():
    token, secret = make_token(user=make_director(), label="theirs")
    client = signed_in(make_director())
    response = client.post(reverse("publishing:token-revoke", args=[token.pk]))
    assert response.status_code == 404
    assert token_for(secret) is not None
    assert "theirs" not in client.get(TOKENS).text  # nor listed to them


# -- at the venue: where it publishes ---------------------------------------------------------


def test_only_the_club_administrator_sets_the_destination():
    for user in (make_user(username="nobody"), make_director(username="plain")):
        client = signed_in(user)
        assert client.get(DESTINATION).status_code == 403
        data = {"url": "https://club.example/", "token": "secret-token", "venue": "Hall"}
        assert client.post(DESTINATION, data).status_code == 403
        assert client.post(STOP).status_code == 403
    assert not Destination.objects.exists()


def test_the_administrator_sets_replaces_and_stops_publishing():
    make_bracket(players=4, slug="friday")
    client = signed_in(make_registrar())
    assert "This server does not publish." in client.get(DESTINATION).text
    token = "abcdef-the-rest-of-the-token"
    data = {"url": "https://club.example/", "token": token, "venue": "Church hall"}
    response = client.post(DESTINATION, data)
    assert response.status_code == 302 and response["Location"] == DESTINATION
    assert token not in response["Location"]
    saved = Destination.objects.get()
    assert (saved.url, saved.token, saved.venue) == ("https://club.example/", token, "Church hall")
    page = client.get(DESTINATION).text
    assert token not in page  # never echoed back
    assert "A token is set (abcdef…)." in page
    assert "Not published yet" in page  # the tournament's line, as Round control has it
    client.post(DESTINATION, {"url": "http://other.example/", "token": "second", "venue": ""})
    assert list(Destination.objects.values_list("url", "token")) == [
        ("http://other.example/", "second")
    ]
    response = client.post(STOP)
    assert response.status_code == 302 and not Destination.objects.exists()
    assert "This server no longer publishes." in client.get(DESTINATION).text
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert actions.count("publishing destination set") == 2
    assert "publishing stopped" in actions


@pytest.mark.parametrize(
    "data, message",
    [
        ({"url": "ftp://club.example/", "token": "t"}, "a web address starting with https://"),
        ({"url": "club server", "token": "t"}, "a web address starting with https://"),
        ({"url": "", "token": "t"}, "This field is required."),
        ({"url": "https://club.example/", "token": ""}, "The publishing token a director made"),
        ({"url": "https://club.example/", "token": "   "}, "The publishing token a director made"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(data, message):
    Destination.objects.create(url="https://kept.example/", token="kept-token", venue="Hall")
    response = signed_in(make_registrar()).post(DESTINATION, {"venue": "", **data})
    assert response.status_code == 400
    assert html.unescape(response.text).count(message) == 1
    assert list(Destination.objects.values_list("url", "token")) == [
        ("https://kept.example/", "kept-token")
    ]
    assert "kept-token" not in response.text


def test_the_dashboard_links_both_pages_to_whom_they_are_for():
    dashboard = reverse("tournaments:dashboard")
    admin_page = signed_in(make_registrar()).get(dashboard).text
    assert TOKENS in admin_page and DESTINATION in admin_page
    director_page = signed_in(make_director()).get(dashboard).text
    assert TOKENS in director_page and DESTINATION not in director_page


def test_the_venue_starts_its_publishing_thread_without_publish(monkeypatch):
    """So that a destination saved from the page takes effect without a restart: the
    thread runs (idle while there is no destination) even without ``--publish``."""
    started = []
    monkeypatch.delenv("GINCLUB_PUBLISH_URL", raising=False)
    monkeypatch.setattr(sending, "start", lambda: started.append(True) or (lambda: None))
    out = io.StringIO()
    venue.start_publishing(out)
    assert started == [True]
    assert not Destination.objects.exists() and out.getvalue() == ""


def test_the_destination_page_costs_the_same_however_many_tournaments(
    django_assert_num_queries,
):
    """Each tournament's publishing line, as Round control says it, in a fixed number of
    queries (none per tournament)."""
    client = signed_in(make_registrar())
    Destination.objects.create(url="https://club.example/", token="t", venue="")
    first = make_bracket(players=4, slug="first")
    Publication.objects.create(tournament=first, succeeded_at=timezone.now())
    client.get(DESTINATION)  # the session and the caches, once
    with CaptureQueriesContext(connection) as one:
        page = client.get(DESTINATION).text
    assert re.search(r"The club's server is \d+ s behind: \d+ changes? on", html.unescape(page))
    for n in range(3):
        make_bracket(players=4, slug=f"more-{n}")
    with django_assert_num_queries(len(one.captured_queries)):
        page = client.get(DESTINATION).text
    assert page.count("Not published yet") == 3
