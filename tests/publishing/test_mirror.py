"""A mirrored tournament at the club's server (issue 34): its pages say how fresh it is,
and a write to it is refused with the venue named, nothing changed."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format

from publishing.models import Mirror
from tests.publishing.test_receiving import change, send
from tournaments.models import Tournament

from .test_receiving import secret, venue  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def page(client: Client, path: str) -> str:
    return html.unescape(client.get(path).content.decode())


@pytest.fixture
def copy(venue, secret):  # noqa: F811
    assert send(change(venue), secret).status_code == 200
    return Tournament.objects.get(slug="friday-club")


def test_live_then_last_news_on_every_public_page(copy):
    client = Client()
    paths = [f"/t/{copy.slug}/", f"/t/{copy.slug}/display/"]
    paths.append(reverse("public:player", args=[copy.slug, copy.entries.first().pk]))
    for path in paths:
        shown = page(client, path)
        assert "Live from the venue · up to date · Riverside laptop" in shown, path
    mirror = Mirror.objects.get(tournament=copy)
    long_ago = timezone.now() - timedelta(minutes=5)
    Mirror.objects.filter(pk=mirror.pk).update(received_at=long_ago)
    from django.db import transaction

    from tournaments import public_version

    with transaction.atomic():
        public_version.changed(copy)
    at = time_format(timezone.localtime(long_ago))
    assert f"Last news from the venue at {at}" in page(client, f"/t/{copy.slug}/")


def test_the_sites_own_tournaments_say_nothing(venue):  # noqa: F811
    assert "from the venue" not in page(Client(), f"/t/{venue.slug}/")


def test_a_write_is_refused_naming_the_venue_and_changes_nothing(copy):
    client = Client()
    client.force_login(copy.owner)
    before = Tournament.objects.get(pk=copy.pk).name
    url = reverse("tournaments:tournament-setup", args=[copy.slug])
    answer = client.post(url, {"name": "Renamed"})
    assert answer.status_code == 403
    shown = html.unescape(answer.content.decode())
    assert "published from the venue “Riverside laptop”: make changes there" in shown
    assert Tournament.objects.get(pk=copy.pk).name == before
    htmx = client.post(url, {"name": "Renamed"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 403 and "Riverside laptop" in htmx.json()["error"]


def test_its_table_links_do_not_open(copy, venue):  # noqa: F811
    venue_tokens = set(venue.matches.values_list("token", flat=True))
    for match in copy.matches.all():
        assert match.token_revoked and match.token not in venue_tokens
        assert Client().get(f"/table/{match.token}/").status_code == 410


def test_the_read_only_check_follows_mirrors_made_and_removed(venue, client):  # noqa: F811
    """The map of mirrored tournaments is kept in the cache without expiry: made or deleted,
    a mirror is seen by the next write at once; a write to the site's own pays no query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from publishing.mirrors import mirrored

    assert mirrored() == {}
    with CaptureQueriesContext(connection) as seen:
        assert mirrored() == {}
    assert len(seen) == 0
    mirror = Mirror.objects.create(tournament=venue, owner=venue.owner, venue="Hall B")
    assert mirrored() == {"friday": "Hall B"}
    client.force_login(venue.owner)
    url = reverse("tournaments:tournament-setup", args=[venue.slug])
    assert client.post(url, {"name": "Renamed"}).status_code == 403
    mirror.save()  # a word from the venue: the map stays as it is
    with CaptureQueriesContext(connection) as seen:
        assert mirrored() == {"friday": "Hall B"}
    assert len(seen) == 0
    mirror.delete()
    assert mirrored() == {}
    assert client.post(url, {"name": "Renamed"}).status_code != 403
