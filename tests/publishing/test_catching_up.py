"""The venue wastes no time (issue 43): while its changes wait for the connection the club
is probed every few seconds, and the first answer sends them in the same pass (the full
resend keeps its back-off); a new token or destination, and a tournament published under
another name, are tried at the next pass, not after the refusal's wait. Each pass here is
called by the test (the venue server's thread calls one a second), so "at once" is "the
next pass", whatever the clock says."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from publishing import protocol, services
from publishing.models import Destination, Publication
from publishing.sending import LONGEST_WAIT, PROBE_SECONDS, Publisher, Reply
from publishing.status import status_of
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play

from .test_sending import UP_TO_DATE, Club, hands, night  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def never(_url: str) -> bool:
    return False


def test_the_probe_finds_the_club_back_while_the_resend_backs_off(night):  # noqa: F811
    club = Club()
    publisher = Publisher(club, club.answers)
    publisher.publish_once()
    club.up = False
    for n in range(8):  # the waits double up to the longest
        play(seated(night)[n % 2], [knock("A", 2, 30)])
        publisher.publish_once(timezone.now() + timedelta(minutes=n + 1))
    assert publisher.waits[night.pk] == LONGEST_WAIT
    probes = club.probes
    assert publisher.publish_once() == 0  # still waiting; the club asked whether it is back
    assert club.probes == probes + 1
    assert publisher.publish_once() == 0  # not asked again within PROBE_SECONDS
    assert club.probes == probes + 1
    club.up = True
    soon = timezone.now() + timedelta(seconds=PROBE_SECONDS)
    assert publisher.publish_once(soon) == 1  # the probe's answer: sent in the same pass
    assert hands("friday-club") == hands("friday")
    assert status_of(night).line == UP_TO_DATE
    assert publisher.publish_once(soon + timedelta(seconds=PROBE_SECONDS)) == 0
    assert club.probes == probes + 2  # nothing waits: no more probes


class HalfUp(Club):
    """A club's server that answers the probe but not the changes (its database away)."""

    def __call__(self, url: str, data: bytes, headers: dict[str, str]) -> Reply:
        self.bodies.append({})
        return Reply(500, {})


def test_a_club_that_answers_the_probe_but_not_the_changes_keeps_the_back_off(night):  # noqa: F811
    club = HalfUp()
    publisher = Publisher(club, club.answers)
    for n in range(8):  # the waits double up to the longest
        publisher.publish_once(timezone.now() + timedelta(minutes=n + 1))
    assert publisher.waits[night.pk] == LONGEST_WAIT
    sent = len(club.bodies)
    assert publisher.publish_once() == 1  # the probe answered: tried early, once
    for n in range(1, 6):  # then the back-off runs its course, unprobed
        assert publisher.publish_once(timezone.now() + timedelta(seconds=PROBE_SECONDS * n)) == 0
    assert len(club.bodies) == sent + 1
    assert publisher.publish_once(timezone.now() + timedelta(seconds=LONGEST_WAIT + 1)) == 1


def test_the_club_answers_the_probe_without_work():
    """The probe's premise: a HEAD of the publishing path is refused at once (405), which
    says a server is there, with no token asked for and none counted wrong."""
    for _n in range(20):
        assert Client().head(protocol.PATH).status_code == 405


def test_a_new_token_is_tried_at_once(night):  # noqa: F811
    good = Destination.objects.get().token
    Destination.objects.update(token="wrong")
    club = Club()
    publisher = Publisher(club, never)
    assert publisher.publish_once() == 1
    assert status_of(night).line.startswith("Not published: The club's server does not know")
    assert publisher.publish_once() == 0  # the refusal's wait
    services.set_destination(url="http://club.example/", token=good, venue="Riverside", user=None)
    assert "does not know" not in status_of(night).line  # the old refusal is not shown
    assert publisher.publish_once() == 1
    assert status_of(night).line == UP_TO_DATE


def test_no_connection_with_nothing_waiting_says_so(night):  # noqa: F811
    club = Club()
    publisher = Publisher(club, never)
    publisher.publish_once()
    club.up = False
    publisher.publish_once(timezone.now() + timedelta(seconds=protocol.HEARTBEAT_SECONDS + 1))
    found = status_of(night)
    assert found.trouble and found.behind == 0
    assert found.line.startswith("The club's server is up to date; no connection since ")


def test_a_new_destination_is_tried_at_once(night):  # noqa: F811
    club = Club()
    publisher = Publisher(club, never)  # the probe never answers: only the new address counts
    club.up = False
    publisher.publish_once()
    club.up = True
    assert publisher.publish_once() == 0  # backing off
    saved = Destination.objects.get()
    services.set_destination(url=saved.url, token=saved.token, venue="Hall B", user=None)
    assert publisher.publish_once() == 1
    assert hands("friday-club") == hands("friday")


def test_a_rename_goes_at_once(night, client):  # noqa: F811
    Publication.objects.filter(tournament=night).update(slug="")
    club = Club()
    publisher = Publisher(club, never)
    publisher.publish_once()  # "friday" is the venue's own tournament here: taken
    assert status_of(night).slug_taken
    assert publisher.publish_once() == 0  # the refusal's wait
    client.force_login(night.owner)
    answer = client.post(reverse("publishing:publish-as", args=[night.slug]), {"slug": "fri-2"})
    assert answer.status_code == 302
    assert publisher.publish_once() == 1
    assert hands("fri-2") == hands("friday")
    assert status_of(night).line == UP_TO_DATE
