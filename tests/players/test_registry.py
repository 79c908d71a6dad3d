"""Player registry: forms, duplicates, and the all-or-nothing CSV import."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from players import registry
from tests.factories import make_director, make_player
from tournaments import registration
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db


def run_import(text, user=None):
    return registry.import_players_csv(text=text, user=user or make_director())


def test_import_all_good_rows():
    result = run_import(
        "name,email,phone,club_id,rating,notes\n"
        "Ana Torres,ana@example.com,,C-1,1510,\n"
        "\n"
        "Ben Okafor,,555-0102,C-2,,left-handed\n"
    )
    assert result.ok, result.errors
    assert [p.name for p in Player.objects.order_by("name")] == ["Ana Torres", "Ben Okafor"]
    assert Player.objects.get(name="Ana Torres").rating == 1510
    assert AuditEntry.objects.get(action="players imported").after["count"] == 2


def test_columns_in_any_order_and_a_byte_order_mark():
    text = registry.decode_csv("\ufeffclub_id,Name\nC-9,Cy Young\n".encode())
    result = run_import(text)
    assert result.ok and Player.objects.get().club_id == "C-9"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("name,email\nAna,not-an-email\n", 2, "email"),
        ("name,rating\nAna,high\n", 2, "whole number"),
        ("name,email\n,ana@example.com\n", 2, "required"),
        ("name,email\nAna\n", 2, "Expected 2 columns"),
        ("name,email,phone\nAna,a@example.com,1,2\n", 2, "Expected 3 columns"),
        ("fullname,email\nAna,a@example.com\n", 1, "name the columns"),
        ("name,name\nAna,Ana\n", 1, "name the columns"),
        ("", 1, "empty"),
        ("name\n", 1, "no players"),
        ("name,club_id\nAna,C-1\nBen,C-1\n", 3, "club id C-1 is also on line 2"),
        ("name,email\nAna,A@x.org\nana,a@x.org\n", 3, "also on line 2"),
        ("name\n" + "x" * 200 + "\n", 2, "at most 120"),
    ],
    ids=[
        "bad-email",
        "bad-rating",
        "missing-name",
        "short-row",
        "long-row",
        "unknown-column",
        "repeated-column",
        "empty-file",
        "header-only",
        "duplicate-club-id-in-file",
        "duplicate-name-email-in-file",
        "name-too-long",
    ],
)
def test_bad_rows_are_reported_by_line_and_nothing_is_imported(text, line, fragment):
    result = run_import(text)
    assert not result.ok
    assert (line, fragment) in [
        (n, fragment) for n, message in result.errors if fragment in message
    ], result.errors
    assert Player.objects.count() == 0


def test_every_bad_row_is_listed_and_good_rows_are_not_imported_either():
    result = run_import("name,email,rating\nGood One,,\nBad,nope,\nGood Two,,\nWorse,,x\n")
    assert [line for line, _message in result.errors] == [3, 5]
    assert Player.objects.count() == 0


def test_duplicates_against_the_registry():
    make_player(name="Ana Torres", email="ana@example.com")
    make_player(name="Ben", club_id="C-2")
    result = run_import(
        "name,email,club_id\nANA TORRES,Ana@Example.com,\nBenjamin,,C-2\nNew,,C-3\n"
    )
    assert [line for line, _m in result.errors] == [2, 3]
    assert "already registered" in result.errors[0][1]
    assert "C-2" in result.errors[1][1] and "Ben" in result.errors[1][1]
    assert Player.objects.count() == 2


def test_quoted_fields_and_multiline_notes_keep_line_numbers_right():
    result = run_import('name,notes\n"Lee, Ann","two\nlines"\nBad,\n,x\n')
    assert [line for line, _m in result.errors] == [5]


def test_decode_reads_windows_latin_and_refuses_huge_files():
    # Windows Latin-1 is what a Spanish Excel writes (more in test_csv_import.py).
    assert registry.decode_csv("name\nJosé\n".encode("latin-1")) == "name\nJosé\n"
    with pytest.raises(ValidationError, match="too large"):
        registry.decode_csv(b"x" * (registry.MAX_CSV_BYTES + 1))


# -- through the screens ---------------------------------------------------------------------


@pytest.fixture
def director_client(client):
    client.director = make_director()
    client.force_login(client.director)
    return client


def upload(client, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        reverse("players:player-import"),
        {"file": SimpleUploadedFile("players.csv", content, content_type="text/csv")},
    )


def test_import_page_reports_lines(director_client):
    response = upload(director_client, b"name,email\nAna,bad\nBen,\n")
    assert response.status_code == 200
    body = response.content.decode()
    assert "nothing was imported" in body
    assert '<td class="num">2</td>' in body
    assert Player.objects.count() == 0
    response = upload(director_client, b"name,email\nAna,\nBen,\n")
    assert response.status_code == 200  # the preview: nothing saved until confirmed
    assert Player.objects.count() == 0
    confirm = {"confirm": response.context["confirm"]}
    response = director_client.post(reverse("players:player-import"), confirm)
    assert response.status_code == 302
    assert Player.objects.count() == 2


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\xff\xfe\x00garbage", "must name the columns"),  # a UTF-16 mark, then nonsense
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
    ],
    ids=["bom-then-garbage", "png"],
)
def test_import_page_refuses_binary(director_client, raw, reason):
    response = upload(director_client, raw)
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert "confirm" not in response.context
    assert Player.objects.count() == 0


def test_add_and_edit_player(director_client):
    response = director_client.post(
        reverse("players:player-create"), {"name": "  Ana Torres ", "email": "ana@example.com"}
    )
    assert response.status_code == 302
    ana = Player.objects.get()
    assert ana.name == "Ana Torres"
    response = director_client.post(
        reverse("players:player-edit", args=[ana.pk]), {"name": "Ana Torres", "rating": "1600"}
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.rating == 1600 and ana.email == ""
    edit = AuditEntry.objects.get(action="player edited")
    assert edit.after == {"email": "", "rating": 1600}


def test_duplicate_player_form_shows_error(director_client):
    make_player(name="Ana", club_id="C-1")
    response = director_client.post(
        reverse("players:player-create"), {"name": "Other", "club_id": "C-1"}
    )
    assert response.status_code == 200
    assert "already has this club id" in response.content.decode()
    assert Player.objects.count() == 1


def test_player_edit_unknown_id_is_404(director_client):
    assert director_client.get(reverse("players:player-edit", args=[12345])).status_code == 404


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_player_search(director_client, htmx):
    make_player(name="Ana Torres", club_id="C-1")
    make_player(name="Ben Okafor", email="ben@example.com")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = director_client.get(reverse("players:player-list"), {"q": "okaf"}, **headers)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Ben Okafor" in body and "Ana Torres" not in body
    assert ("<html" in body) is not htmx
    assert body.lstrip().startswith('<section id="player-list"') is htmx
    assert "HX-Request" in response["Vary"]


# -- the rating's range ----------------------------------------------------------------------


@pytest.mark.parametrize("rating", ["99999999999", "4001", "-1"], ids=["huge", "over", "negative"])
def test_a_rating_out_of_range_is_refused_by_the_forms(director_client, rating):
    ana = make_player(name="Ana", rating=1500, created_by=director_client.director)
    response = director_client.post(
        reverse("players:player-create"), {"name": "Ben", "rating": rating}
    )
    assert response.status_code == 200
    assert "A rating is a whole number from 0 to 4000." in response.content.decode()
    response = director_client.post(
        reverse("players:player-edit", args=[ana.pk]), {"name": "Ana", "rating": rating}
    )
    assert response.status_code == 200
    assert "A rating is a whole number from 0 to 4000." in response.content.decode()
    assert list(Player.objects.values_list("name", "rating")) == [("Ana", 1500)]
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("rating", ["0", "4000"])
def test_the_rating_range_includes_its_ends(director_client, rating):
    response = director_client.post(
        reverse("players:player-create"), {"name": "Ben", "rating": rating}
    )
    assert response.status_code == 302
    assert Player.objects.get().rating == int(rating)


def test_a_rating_out_of_range_is_refused_by_the_csv_import_by_line():
    result = run_import("name,rating\nAna,1500\nBen,99999999999\nCy,-5\n")
    assert [line for line, _m in result.errors] == [3, 4]
    assert all("from 0 to 4000" in message for _line, message in result.errors)
    assert all(message.startswith("Rating: ") for _line, message in result.errors)
    assert Player.objects.count() == 0


def test_the_new_player_form_labels_the_rating_with_a_capital(director_client):
    html = director_client.get(reverse("players:player-create")).content.decode()
    assert '<label for="id_rating">Rating' in html


def test_the_model_refuses_a_rating_out_of_range():
    with pytest.raises(ValidationError, match="4000"):
        registration.create_player(data={"name": "Ana", "rating": 99_999_999_999}, user=None)
    assert Player.objects.count() == 0
