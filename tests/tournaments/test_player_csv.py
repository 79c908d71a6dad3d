"""The player CSV import: broken quoting, the preview the director confirms, and the
files spreadsheets really write (encodings, separators, Spanish headers)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import make_director, make_player
from tournaments import player_csv
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db

IMPORT = "tournaments:player-import"


def run_import(text, user=None):
    return player_csv.import_players_csv(text=text, user=user or make_director())


def upload(client, content: bytes, name: str = "players.csv"):
    return client.post(
        reverse(IMPORT), {"file": SimpleUploadedFile(name, content, content_type="text/csv")}
    )


def confirm_token(response) -> str:
    return response.context["confirm"]


# -- broken quoting --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('name,notes\nAna,"left-handed\nBen,x\n', 2, "lines 2 to 3"),
        ('name,notes\nAna,"left-handed\nBen,x\nCy,"tall"\n', 2, "lines 2 to 4"),
        ('name,notes\nAna,x\n"Ben" Okafor,y\n', 3, "quote"),
        ('name,"notes\nAna,x\n', 1, "quote"),
    ],
    ids=["never-closed", "closed-too-late", "quote-inside-a-cell", "in-the-header"],
)
def test_a_broken_quote_is_reported_at_its_line_and_nothing_is_imported(text, line, fragment):
    result = run_import(text)
    assert not result.ok
    assert [n for n, message in result.errors if fragment in message] == [line], result.errors
    assert Player.objects.count() == 0
    assert not AuditEntry.objects.exists()


def test_an_unclosed_quote_does_not_swallow_the_next_row_on_the_page(director_client):
    response = upload(director_client, b'name,notes\nAna,"left-handed\nBen,x\n')
    body = response.content.decode()
    assert response.status_code == 200
    assert "nothing was imported" in body
    assert '<td class="num">2</td>' in body
    assert "confirm" not in response.context or not response.context["confirm"]
    assert Player.objects.count() == 0


# -- the preview the director confirms -------------------------------------------------------


def test_a_good_file_is_previewed_and_only_imported_once_confirmed(director_client):
    text = b"name,email,rating\nAna Torres,ana@example.com,1510\nBen,,\n"
    response = upload(director_client, text)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ana Torres" in body and "ana@example.com" in body and "1510" in body
    assert "Import these 2 players" in body
    assert Player.objects.count() == 0 and not AuditEntry.objects.exists()

    response = director_client.post(reverse(IMPORT), {"confirm": confirm_token(response)})
    assert response.status_code == 302
    assert sorted(Player.objects.values_list("name", "email", "rating")) == [
        ("Ana Torres", "ana@example.com", 1510),
        ("Ben", "", None),
    ]
    assert AuditEntry.objects.get(action="players imported").after["count"] == 2


def test_a_cell_over_several_lines_is_pointed_out_before_anything_is_saved(director_client):
    # The quote on line 2 closes on line 3: either real two-line notes or a swallowed row.
    response = upload(director_client, b'name,notes\nAna,"left\nBen,x"\nCy,y\n')
    body = response.content.decode()
    assert response.status_code == 200
    assert "Lines 2 to 3 are one row" in body
    assert "Import these 2 players" in body
    assert Player.objects.count() == 0
    director_client.post(reverse(IMPORT), {"confirm": confirm_token(response)})
    assert dict(Player.objects.values_list("name", "notes")) == {"Ana": "left\nBen,x", "Cy": "y"}


def test_a_tampered_or_foreign_confirmation_imports_nothing(director_client, client):
    response = upload(director_client, b"name\nAna\n")
    token = confirm_token(response)
    for bad in (token[:-2] + "xx", "", "garbage"):
        response = director_client.post(reverse(IMPORT), {"confirm": bad})
        assert response.status_code == 200
        assert "upload the file again" in response.content.decode()
    other = make_director()
    client.force_login(other)
    response = client.post(reverse(IMPORT), {"confirm": token})
    assert "upload the file again" in response.content.decode()
    assert Player.objects.count() == 0


def test_a_confirmation_finds_the_registry_changed_and_imports_nothing(director_client):
    response = upload(director_client, b"name,club_id\nAna,C-1\nBen,C-2\n")
    make_player(name="Bea", club_id="C-2")
    response = director_client.post(reverse(IMPORT), {"confirm": confirm_token(response)})
    assert response.status_code == 200
    body = response.content.decode()
    assert "nothing was imported" in body and "C-2" in body
    assert list(Player.objects.values_list("name", flat=True)) == ["Bea"]
