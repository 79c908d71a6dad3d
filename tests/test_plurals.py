"""Every count a person reads takes its plural form from the catalogue (ngettext /
blocktranslate count): "Imported 1 player.", never "Imported 1 players."."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import make_entries, make_tournament
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def import_csv(client, content: bytes):
    upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    preview = client.post(reverse("players:player-import"), {"file": upload})
    return client.post(reverse("players:player-import"), {"confirm": preview.context["confirm"]})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name\nAna Torres\n", "Imported 1 player."),
        (b"name\nAna Torres\nBen Okafor\n", "Imported 2 players."),
    ],
    ids=["one", "two"],
)
def test_import_message_counts_players(director_client, content, message):
    response = import_csv(director_client, content)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [message]


def test_registration_counts_take_the_singular_for_one(director_client, director):
    tournament = make_tournament(owner=director)
    first, *_ = make_entries(tournament=tournament, count=3)
    Entry.objects.filter(pk=first.pk).update(checked_in=True, paid=True)
    html = director_client.get(
        reverse("tournaments:entry-list", args=[tournament.slug])
    ).content.decode()
    assert "3 players entered" in html
    assert "1 checked in" in html and "1 paid" in html
