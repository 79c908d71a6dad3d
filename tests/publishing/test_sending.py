"""The venue sending its night (issue 34), through the club's real receiving view (the
test client stands in for the network; venue and club share the test database, so the
venue publishes under another slug, as its director would after a refusal): changes
go in order and are acknowledged, a heartbeat keeps the mirror live, no connection
leaves them waiting and they catch up exactly, refusals are shown as the club said them."""

from __future__ import annotations

import gzip
import html
import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from publishing import protocol
from publishing.models import Destination, Mirror, Publication
from publishing.sending import Publisher, Reply, changes_of
from publishing.status import status_of
from publishing.tokens import make_token
from scoring.models import Hand
from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

UP_TO_DATE = "Published: the club's server is up to date"


class Club:
    """The club's server, reached through the test client; ``up`` False: no connection."""

    def __init__(self) -> None:
        self.up = True
        self.lose_answers = 0
        """How many of the next answers are lost on the way back (applied, not heard)."""
        self.bodies: list[dict] = []
        self.authorization = ""
        self.probes = 0

    def __call__(self, url: str, data: bytes, headers: dict[str, str]) -> Reply:
        if not self.up:
            return Reply(0, {"error": "connection refused"})
        assert url == "http://club.example" + protocol.PATH
        self.bodies.append(json.loads(gzip.decompress(data)))
        self.authorization = headers["Authorization"]
        answer = Client().post(
            protocol.PATH,
            data,
            content_type="application/json",
            HTTP_AUTHORIZATION=headers["Authorization"],
            HTTP_CONTENT_ENCODING=headers["Content-Encoding"],
        )
        if self.lose_answers:
            self.lose_answers -= 1
            return Reply(0, {"error": "timed out"})
        return Reply(answer.status_code, answer.json())

    def answers(self, url: str) -> bool:
        """The probe: whether the club's server is there."""
        assert url == "http://club.example" + protocol.PATH
        self.probes += 1
        return self.up

    def replay(self, body: dict) -> dict:
        """Deliver a body sent before once more (a network that duplicates or reorders)."""
        answer = Client().post(
            protocol.PATH,
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=self.authorization,
        )
        assert answer.status_code == 200, answer.json()
        return answer.json()


@pytest.fixture
def night():
    director = make_director(username="venuedora")
    t = make_bracket(players=4, tables=2, slug="friday", owner=director)
    for entry in t.entries.select_related("player"):
        entry.player.email = f"p{entry.pk}@private.example"
        entry.player.save()
    play(seated(t)[0], [knock("A", 5, 30)])
    Publication.objects.create(tournament=t, slug="friday-club")
    secret = make_token(user=make_director(username="clubdora"))[1]
    Destination.objects.create(url="http://club.example/", token=secret, venue="Riverside")
    return t


def hands(slug: str) -> list[tuple]:
    return list(
        Hand.objects.filter(match__tournament__slug=slug)
        .order_by("match__key", "number")
        .values_list("match__key", "number", "kind", "by", "deadwood", "defender_deadwood")
    )


def test_changes_go_in_order_and_are_acknowledged(night):
    club, publisher = Club(), Publisher(Club())
    publisher.post = club
    assert publisher.publish_once() == 1
    number = changes_of([night])[night.pk]
    assert Publication.objects.get(tournament=night).acknowledged_through == number
    assert hands("friday-club") == hands("friday")
    assert status_of(night).line == UP_TO_DATE
    assert publisher.publish_once() == 0  # nothing new
    play(seated(night)[1], [knock("B", 2, 20), knock("A", 3, 44)])
    assert publisher.publish_once() == 1
    assert hands("friday-club") == hands("friday")
    assert Mirror.objects.get().applied_through == changes_of([night])[night.pk]
    assert [body["through"] for body in club.bodies] == sorted(b["through"] for b in club.bodies)


def test_no_private_data_and_no_draft_is_sent(night):
    club = Club()
    draft = make_bracket(players=2)
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.DRAFT)
    Publisher(club).publish_once()
    assert [body["slug"] for body in club.bodies] == ["friday-club"]
    assert draft.slug not in json.dumps(club.bodies)
    assert "private.example" not in json.dumps(club.bodies)


def test_a_quiet_night_still_says_it_is_there(night):
    club = Club()
    publisher = Publisher(club)
    publisher.publish_once()
    later = timezone.now() + timedelta(seconds=protocol.HEARTBEAT_SECONDS + 1)
    assert publisher.publish_once(later) == 1
    assert club.bodies[-1]["archive"] is None
    assert club.bodies[-1]["through"] == changes_of([night])[night.pk]


def test_a_club_that_lost_its_copy_gets_all_of_it_again(night):
    club = Club()
    publisher = Publisher(club)
    publisher.publish_once()
    Mirror.objects.update(applied_through=0)  # the club restored an older backup
    later = timezone.now() + timedelta(seconds=protocol.HEARTBEAT_SECONDS + 1)
    assert publisher.publish_once(later) == 2  # the heartbeat, then everything
    assert club.bodies[-1]["archive"] is not None
    assert Mirror.objects.get().applied_through == changes_of([night])[night.pk]


def test_no_connection_leaves_the_changes_waiting_then_they_catch_up_exactly(night):
    club = Club()
    publisher = Publisher(club, club.answers)
    publisher.publish_once()
    club.up = False
    for n in range(20):  # twenty hands while the club is away
        play(seated(night)[n % 2], [knock("A" if n % 3 else "B", 2 + n % 5, 30)])
        publisher.publish_once(timezone.now() + timedelta(seconds=40 * n))
    publication = Publication.objects.get(tournament=night)
    waiting = changes_of([night])[night.pk] - publication.acknowledged_through
    assert waiting >= 20
    line = status_of(night).line
    assert re.match(rf"The club's server is \d+ s behind: {waiting} changes waiting, no conn", line)
    assert publication.failing_since is not None and publication.error == "no connection"
    assert publisher.publish_once() == 0  # waiting its turn (backing off), not hammering
    club.up = True
    assert publisher.publish_once(timezone.now() + timedelta(seconds=31)) == 1
    assert hands("friday-club") == hands("friday")
    assert status_of(night).line == UP_TO_DATE
    assert Publication.objects.get(tournament=night).failing_since is None


def test_a_refusal_is_shown_as_the_club_said_it(night):
    Destination.objects.update(token="wrong")
    Publisher(Club()).publish_once()
    assert status_of(night).line == (
        "Not published: The club's server does not know this publishing token, or it was revoked."
    )
    assert status_of(night).trouble


def test_a_taken_slug_offers_a_rename_that_publishes_under_it(night, client):
    Publication.objects.filter(tournament=night).update(slug="")
    club = Club()
    Publisher(club).publish_once()  # "friday" is the venue's own tournament here: taken
    found = status_of(night)
    assert found.slug_taken and "publish it under another name" in found.line
    client.force_login(night.owner)
    rounds = reverse("tournaments:round-control", args=[night.slug])
    page = html.unescape(client.get(rounds).content.decode())
    assert "Publish under this name" in page and found.line in page
    answer = client.post(reverse("publishing:publish-as", args=[night.slug]), {"slug": "fri-2"})
    assert answer.status_code == 302
    assert Publication.objects.get(tournament=night).slug == "fri-2"
    Publisher(club).publish_once()
    assert hands("fri-2") == hands("friday")
    bad = client.post(reverse("publishing:publish-as", args=[night.slug]), {"slug": "a b"})
    assert bad.status_code == 302
    assert Publication.objects.get(tournament=night).slug == "fri-2"


def test_round_control_shows_nothing_where_the_venue_does_not_publish(client):
    t = make_bracket(players=4)
    client.force_login(t.owner)
    page = client.get(reverse("tournaments:round-control", args=[t.slug])).content.decode()
    assert "publishing-status" not in page


def test_the_other_director_pages_say_it_in_their_banner(night, director_client):
    """Registration, say, shows the line Round control shows; with no destination, nothing,
    at no query (the site knows it does not publish)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from publishing.status import publishes

    night.owner = director_client.user
    night.save()
    url = reverse("tournaments:entry-list", args=[night.slug])
    Publisher(Club()).publish_once()
    assert UP_TO_DATE in html.unescape(director_client.get(url).content.decode())
    Destination.objects.all().delete()
    assert "Published" not in director_client.get(url).content.decode()
    with CaptureQueriesContext(connection) as counted:
        assert publishes() is False
    assert len(counted) == 0
    Destination.objects.create(url="http://club.example/", token="t", venue="Riverside")
    assert publishes() is True
