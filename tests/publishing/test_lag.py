"""How far a mirror is behind its venue (issue 43): the age of the oldest change it lacks,
from ages the venue measured on its own clock (the two machines' clocks may differ),
said the same way on the mirror's pages and on the venue's Round control, in en, es and
af, and carried as ``data-behind-seconds`` for scripts."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format

from publishing import lag, protocol
from publishing.models import Mirror, Publication
from publishing.sending import Publisher, changes_of
from publishing.status import status_of
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play

from .test_receiving import change, secret, send, venue  # noqa: F401  (fixtures)
from .test_sending import Club, night  # noqa: F401  (fixture)

RECEIVED = datetime(2026, 12, 7, 20, 14, 30, tzinfo=UTC)
"""When the club's server received the venue's last word (its own clock)."""


def heard(body: dict, *, through: int = 10, applied: int = 10) -> Mirror:
    """A mirror at ``applied`` that received ``body`` at :data:`RECEIVED`."""
    return Mirror(
        applied_through=applied, received_at=RECEIVED, **lag.told(body, through, RECEIVED)
    )


def at(seconds: float) -> datetime:
    return RECEIVED + timedelta(seconds=seconds)


def clock(moment: datetime) -> str:
    return time_format(timezone.localtime(moment))


def test_up_to_date_says_when_the_venue_last_changed_anything():
    mirror = heard({"age": 42.0})
    found = lag.freshness(mirror, at(5))
    assert found.behind == 0
    last = clock(RECEIVED - timedelta(seconds=42))
    assert found.line == f"Live from the venue · up to date (last change at {last})"


def test_behind_is_the_age_of_the_oldest_change_it_lacks_whatever_the_venues_clock():
    """The venue said (its clock an hour off, which no one compares): its newest change is
    2 s old, the oldest the club has not acknowledged 12 s. Three seconds after, the mirror
    still at 10 of 15 is 15 s behind; not the 3 s since the last word."""
    mirror = heard({"age": 2.0, "waiting": 12.0}, through=15, applied=10)
    found = lag.freshness(mirror, at(3))
    assert (found.behind, found.line) == (15, "Live from the venue · 15 s behind")
    assert lag.freshness(mirror, at(10)).behind == 22


def test_silent_after_two_missed_heartbeats_says_when_it_last_heard():
    mirror = heard({"age": 1.0})
    assert lag.freshness(mirror, at(protocol.LIVE_SECONDS)).behind == 0
    found = lag.freshness(mirror, at(protocol.LIVE_SECONDS + 1))
    assert found.behind is None
    assert found.line == f"Last news from the venue at {clock(RECEIVED)}"
    never = lag.freshness(Mirror(), at(0))
    assert (never.behind, never.line) == (None, "No news from the venue yet")


def test_a_venue_of_before_is_counted_from_its_last_word():
    mirror = heard({}, through=12, applied=10)
    assert lag.freshness(mirror, at(4)).behind == 4
    current = heard({})
    assert lag.freshness(current, at(4)).line == "Live from the venue · up to date"


def test_a_mirror_that_lacks_a_change_is_never_up_to_date():
    mirror = heard({"age": 0.0, "waiting": 0.1}, through=11)
    assert lag.freshness(mirror, at(0)).behind == 1


@pytest.mark.parametrize(
    "told",
    [{"age": -1}, {"age": float("inf")}, {"age": 1e300}, {"age": "5"}, {"age": True}],
)
def test_an_age_out_of_range_is_ignored_not_believed(told):
    fields = lag.told({**told, "waiting": told["age"]}, 2**40, RECEIVED)
    assert fields == {"venue_through": 2**31 - 1, "last_change_at": None, "lacking_since": None}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "es",
            [
                "En directo desde el local · al día (último cambio a las {last})",
                "En directo desde el local · 15 s de retraso",
                "Últimas noticias del local a las {heard}",
            ],
        ),
        (
            "af",
            [
                "Regstreeks van die saal · op datum (laaste verandering om {last})",
                "Regstreeks van die saal · 15 s agter",
                "Laaste nuus van die saal om {heard}",
            ],
        ),
    ],
)
def test_the_three_states_in_spanish_and_afrikaans(language, expected):
    with translation.override(language):
        lines = [
            lag.freshness(heard({"age": 42.0}), at(5)).line,
            lag.freshness(heard({"age": 2, "waiting": 12}, through=15), at(3)).line,
            lag.freshness(heard({}), at(protocol.LIVE_SECONDS + 1)).line,
        ]
        last, last_heard = clock(RECEIVED - timedelta(seconds=42)), clock(RECEIVED)
    assert lines == [line.format(last=last, heard=last_heard) for line in expected]


# Through the club's receiving view and its pages.


def freshness_line(slug: str) -> tuple[str, str]:
    """The mirror's public page's freshness line and its data-behind-seconds."""
    page = html.unescape(Client().get(f"/t/{slug}/").content.decode())
    found = re.search(r'class="mirror-status"[^>]*data-behind-seconds="([^"]*)">([^<]*)<', page)
    assert found, page
    return found.group(2), found.group(1)


@pytest.mark.django_db
def test_the_mirrors_page_carries_how_far_behind_it_is(venue, secret):  # noqa: F811
    body = change(venue)
    assert send({**body, "age": 30.0}, secret).status_code == 200
    line, behind = freshness_line("friday-club")
    assert behind == "0" and line.startswith("Live from the venue · up to date (last change at")
    # A heartbeat says the venue is 3 changes further, the oldest of them 12 s old.
    heartbeat = {**body, "archive": None, "through": body["through"] + 3, "waiting": 12.0}
    assert send(heartbeat, secret).json() == {"applied_through": body["through"]}
    line, behind = freshness_line("friday-club")
    assert (
        int(behind) >= 12 and line == f"Live from the venue · {behind} s behind · Riverside laptop"
    )
    long_ago = timezone.now() - timedelta(seconds=protocol.LIVE_SECONDS + 5)
    Mirror.objects.update(received_at=long_ago)
    line, behind = freshness_line("friday-club")
    assert behind == "" and line.startswith("Last news from the venue at")


# At the venue: what it tells, and Round control.


@pytest.mark.django_db
def test_the_venue_tells_the_age_of_its_changes_with_each_request(night):  # noqa: F811
    club = Club()
    publisher = Publisher(club)
    publisher.publish_once()
    first = club.bodies[-1]
    assert 0 <= first["age"] <= first["waiting"]  # nothing acknowledged yet: all waits
    later = timezone.now() + timedelta(seconds=protocol.HEARTBEAT_SECONDS + 1)
    publisher.publish_once(later)
    heartbeat = club.bodies[-1]
    assert heartbeat["archive"] is None and heartbeat["age"] >= 0 and "waiting" not in heartbeat
    mirror = Mirror.objects.get()
    assert mirror.venue_through == mirror.applied_through == changes_of([night])[night.pk]
    assert mirror.last_change_at is not None


@pytest.mark.django_db
def test_round_control_says_how_far_behind_the_club_is(night, client):  # noqa: F811
    Publisher(Club()).publish_once()
    client.force_login(night.owner)
    rounds = reverse("tournaments:round-control", args=[night.slug])
    page = html.unescape(client.get(rounds).content.decode())
    assert 'data-behind-seconds="0"' in page
    assert "Published: the club's server is up to date" in page
    play(seated(night)[1], [knock("B", 2, 20)])  # not sent yet
    waiting = changes_of([night])[night.pk] - Publication.objects.get().acknowledged_through
    line = status_of(night).line
    assert re.fullmatch(rf"The club's server is \d+ s behind: {waiting} changes on their way", line)
    with translation.override("es"):
        assert re.fullmatch(
            rf"El servidor del club va \d+ s por detrás: {waiting} cambios en camino",
            status_of(night).line,
        )
    with translation.override("af"):
        assert re.fullmatch(
            rf"Die klub se bediener is \d+ s agter: {waiting} veranderinge op pad",
            status_of(night).line,
        )
    # Its age is the oldest unsent change's, on the venue's own clock.
    Publication.objects.update(
        acknowledged_through=changes_of([night])[night.pk] - waiting,
    )
    from tournaments.models import AuditEntry

    oldest = AuditEntry.objects.filter(tournament=night).order_by("-pk")[waiting - 1]
    AuditEntry.objects.filter(pk=oldest.pk).update(at=timezone.now() - timedelta(seconds=70))
    assert 70 <= status_of(night).behind <= 80
