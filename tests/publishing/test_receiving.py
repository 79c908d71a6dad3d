"""The club's server receiving a venue's night (issue 34): tokens, the first change making
the mirror, later ones replacing its content in place, repeats and stale ones applied
once, heartbeats, and every refusal one clear line that changes nothing.

Venue and club share the test database here, so the venue's tournament is published
under another slug (``-club``), as a rename would."""

from __future__ import annotations

import gzip
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from archive.export import export_tournament
from publishing import protocol
from publishing.models import Mirror, PublishToken
from publishing.tokens import make_token, revoke
from scoring.models import Hand
from tests.factories import make_bracket, make_director, make_user
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

URL = protocol.PATH


@pytest.fixture
def venue():
    t = make_bracket(players=4, tables=2, slug="friday")
    play(seated(t)[0], [knock("A", 5, 30), knock("B", 3, 25)])
    return t


@pytest.fixture
def secret():
    return make_token(user=make_director(username="clubdora"))[1]


def change(t: Tournament, *, through: int | None = None, slug: str = "friday-club", archive=True):
    return {
        "format": protocol.FORMAT,
        "version": protocol.VERSION,
        "venue": "Riverside laptop",
        "slug": slug,
        "through": AuditEntry.objects.filter(tournament=t).count() if through is None else through,
        "archive": export_tournament(t) if archive else None,
    }


def send(body, secret: str | None, *, raw: bytes | None = None, **headers):
    if secret is not None:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
    data = raw if raw is not None else json.dumps(body).encode()
    return Client().post(URL, data, content_type="application/json", **headers)


def mirrored(slug: str = "friday-club") -> Tournament:
    return Tournament.objects.get(slug=slug)


def standings(slug: str) -> list[dict]:
    """Every row of standings.json, every number of it (the club rating aside: the mirror
    and the venue share this database's players)."""
    rows = Client().get(f"/t/{slug}/standings.json").json()["standings"]
    return [{k: v for k, v in row.items() if not k.startswith("club_rating")} for row in rows]


def test_the_command_prints_the_token_alone_on_its_last_line():
    make_director(username="dora")
    out = io.StringIO()
    call_command("publish_token", "dora", "--label", "club laptop", stdout=out)
    secret = out.getvalue().strip().splitlines()[-1]
    assert " " not in secret and len(secret) >= 40
    token = PublishToken.objects.get()
    assert token.label == "club laptop" and secret not in token.digest
    assert send(change(make_bracket(players=2), slug="x"), secret).status_code == 200


def test_the_command_refuses_who_is_not_a_director():
    make_user(username="sam")
    with pytest.raises(CommandError, match="not a director"):
        call_command("publish_token", "sam", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no active user"):
        call_command("publish_token", "nobody", stdout=io.StringIO())
    assert not PublishToken.objects.exists()


def test_the_first_change_makes_the_mirror_owned_by_the_tokens_director(venue, secret):
    answer = send(change(venue), secret)
    assert answer.status_code == 200, answer.content
    number = AuditEntry.objects.filter(tournament=venue).count()
    assert answer.json() == {"applied_through": number}
    copy = mirrored()
    mirror = Mirror.objects.get(tournament=copy)
    assert (mirror.venue, mirror.applied_through, mirror.owner.username) == (
        "Riverside laptop",
        number,
        "clubdora",
    )
    assert copy.owner.username == "clubdora" and not copy.co_directors.exists()
    assert Hand.objects.filter(match__tournament=copy).count() == 2
    assert AuditEntry.objects.filter(tournament=copy).count() == number
    assert standings("friday-club") == standings("friday")


def test_a_later_change_replaces_the_content_in_place(venue, secret):
    send(change(venue), secret)
    copy = mirrored()
    version = Client().get("/t/friday-club/standings.json")["ETag"]
    play(seated(venue)[0], [knock("A", 2, 40)])
    answer = send(change(venue), secret)
    assert answer.json()["applied_through"] == AuditEntry.objects.filter(tournament=venue).count()
    assert mirrored().pk == copy.pk
    assert Hand.objects.filter(match__tournament=copy).count() == 3
    assert Client().get("/t/friday-club/standings.json")["ETag"] != version
    assert standings("friday-club") == standings("friday")


def test_a_change_twice_or_an_older_one_after_a_newer_is_applied_once(venue, secret):
    old = change(venue)
    send(old, secret)
    play(seated(venue)[0], [knock("A", 2, 40)])
    new = change(venue)
    assert send(new, secret).json() == {"applied_through": new["through"]}
    applied = Mirror.objects.get().applied_at
    for again in (new, old):  # a duplicate, then the older one delivered late
        assert send(again, secret).json() == {"applied_through": new["through"]}
    assert Mirror.objects.get().applied_at == applied
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 3


def test_a_heartbeat_says_how_far_the_mirror_is(venue, secret):
    assert send(change(venue, archive=False), secret).json() == {"applied_through": 0}
    assert not Tournament.objects.filter(slug="friday-club").exists()
    send(change(venue), secret)
    ahead = change(venue, through=change(venue)["through"] + 5, archive=False)
    assert send(ahead, secret).json() == {"applied_through": change(venue)["through"]}


def test_a_gzipped_body_is_read(venue, secret):
    raw = gzip.compress(json.dumps(change(venue)).encode())
    answer = send(None, secret, raw=raw, HTTP_CONTENT_ENCODING="gzip")
    assert answer.status_code == 200 and mirrored()


@pytest.mark.parametrize(
    "token, status, says",
    [
        (None, 401, "does not know this publishing token"),
        ("not-a-token", 401, "does not know this publishing token"),
    ],
)
def test_no_token_or_a_wrong_one_is_refused(venue, token, status, says):
    answer = send(change(venue), token)
    assert answer.status_code == status
    assert says in answer.json()["error"] and answer.json()["code"] == "bad-token"
    assert not Mirror.objects.exists()


def test_a_revoked_token_is_refused(venue, secret):
    token = PublishToken.objects.get()
    revoke(token=token, user=token.user)
    assert send(change(venue), secret).status_code == 401
    assert not Mirror.objects.exists()


def test_a_token_in_the_url_is_not_read(venue, secret):
    response = Client().post(
        f"{URL}?token={secret}", json.dumps(change(venue)), content_type="application/json"
    )
    assert response.status_code == 401


def test_a_slug_of_another_tournament_is_refused_with_a_rename_offered(venue, secret):
    answer = send(change(venue, slug="friday"), secret)  # the venue's own: not a mirror
    assert answer.status_code == 409 and answer.json()["code"] == "slug-taken"
    assert "publish it under another name" in answer.json()["error"]
    assert Tournament.objects.filter(slug="friday").count() == 1
    send(change(venue), secret)
    other = make_token(user=make_director())[1]  # another director's token
    play(seated(venue)[0], [knock("A", 2, 40)])
    assert send(change(venue), other).status_code == 409
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 2


@pytest.mark.parametrize(
    "edit, says",
    [
        (lambda body: body.update(version=99), "reads publishing version 2"),
        (lambda body: body.update(format="other"), "reads publishing version 2"),
        (lambda body: body.update(through="7"), "no change number"),
        (lambda body: body.update(slug=""), "names no tournament"),
        (lambda body: body["archive"].update(hands=[{"match": "nope"}]), "archive was refused"),
    ],
)
def test_a_bad_request_is_refused_and_changes_nothing(venue, secret, edit, says):
    body = change(venue)
    edit(body)
    answer = send(body, secret)
    assert answer.status_code == 400 and says in answer.json()["error"], answer.json()
    assert not Mirror.objects.exists()
    assert not Tournament.objects.filter(slug="friday-club").exists()


def test_not_json_is_refused(secret):
    assert send(None, secret, raw=b"{not json").json()["code"] == "bad-request"
    raw = b"not gzip"
    assert send(None, secret, raw=raw, HTTP_CONTENT_ENCODING="gzip").status_code == 400


def test_wrong_tokens_are_limited_per_address(venue, secret):
    for _n in range(10):
        assert send(change(venue), "wrong").status_code == 401
    limited = send(change(venue), "wrong")
    assert limited.status_code == 429 and limited["Retry-After"]
    assert limited.json()["code"] == "limited"
    # The right one still publishes from that address (tests/publishing/test_hostile_bodies.py).
    assert send(change(venue), secret).status_code == 200


def test_only_a_post(client):
    assert client.get(URL).status_code == 405


def test_the_url_is_stable():
    assert reverse("publishing:changes") == URL
