"""The player CSV import: broken quoting, the preview the director confirms, and the
files spreadsheets really write (encodings, separators, Spanish headers)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players import csv_import
from tests.factories import make_director, make_player
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db

IMPORT = "players:player-import"


def run_import(text, user=None):
    return csv_import.import_players_csv(text=text, user=user or make_director())


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


# -- the files spreadsheets write ------------------------------------------------------------

SPANISH = (
    "nombre;apellidos;club;correo;teléfono;notas\r\n"
    "José;Núñez Peña;C-10;jose@example.com;600 111 222;zurdo, llega tarde\r\n"
    "María;;C-11;;;\r\n"
)


@pytest.mark.parametrize(
    "raw",
    [
        SPANISH.encode("cp1252"),
        SPANISH.encode("utf-8-sig"),
        SPANISH.encode("utf-8"),
        SPANISH.encode("utf-16"),  # with its byte-order mark, as Excel writes it
        SPANISH.encode("utf-16-le"),  # without one
        "\ufeff".encode("utf-16-be") + SPANISH.encode("utf-16-be"),
        SPANISH.replace(";", "\t").encode("utf-16"),  # Excel's "Unicode text"
        ("sep=;\r\n" + SPANISH).encode("cp1252"),  # Excel's separator hint
    ],
    ids=[
        "cp1252",
        "utf8-bom",
        "utf8",
        "utf16-bom",
        "utf16le-no-bom",
        "utf16be-bom",
        "utf16-tabs",
        "sep-line",
    ],
)
def test_spanish_excel_files_are_read(raw):
    result = run_import(csv_import.decode_csv(raw))
    assert result.ok, result.errors
    jose = Player.objects.get(club_id="C-10")
    assert (jose.name, jose.email, jose.phone, jose.notes) == (
        "José Núñez Peña",
        "jose@example.com",
        "600 111 222",
        "zurdo, llega tarde",
    )
    assert Player.objects.get(club_id="C-11").name == "María"


@pytest.mark.parametrize(
    "header",
    [
        "Nombre;Apellidos;Correo electrónico;Teléfono;Nº socio;Puntuación;Observaciones",
        "NOMBRE;APELLIDOS;E-mail;Telefono;Club;Rating;Notas",
        "First name;Last name;E-mail;Phone;Club ID;Rating;Notes",
        "name;surname;email;phone;club_id;rating;notes",
    ],
    ids=["spanish-long", "spanish-shouting", "english-split", "codes"],
)
def test_headers_in_both_languages(header):
    text = header + "\nAna;Torres;ana@example.com;600;C-1;1510;nota\n"
    result = run_import(text)
    assert result.ok, result.errors
    ana = Player.objects.get()
    assert (ana.name, ana.email, ana.phone, ana.club_id, ana.rating, ana.notes) == (
        "Ana Torres",
        "ana@example.com",
        "600",
        "C-1",
        1510,
        "nota",
    )


def test_the_separator_is_read_from_the_header_not_guessed_from_the_data():
    # Semicolons in a comma file's notes, commas in a semicolon file's names.
    assert run_import("name,notes\nAna,a; b; c\n").ok
    assert Player.objects.get(name="Ana").notes == "a; b; c"
    assert run_import("nombre\nLee, Ann\nBen\n").ok
    assert Player.objects.filter(name="Lee, Ann").exists()


def test_unnamed_empty_columns_are_ignored_but_a_value_under_one_is_refused():
    assert run_import("nombre;correo;;\nAna;;;\n").ok
    result = run_import("nombre;correo;\nBen;;x\n")
    assert result.errors == [(2, result.errors[0][1])]
    assert "column 3" in result.errors[0][1]
    assert list(Player.objects.values_list("name", flat=True)) == ["Ana"]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("nombre;edad\nAna;30\n", 1, "Unknown: edad"),
        ("nombre;name\nAna;Ana\n", 1, "Named twice: nombre, name"),
        ("apellidos;correo\nTorres;\n", 1, "There is no name column"),
        ("nombre;correo\nAna;no-es-correo\nBen;x;y\n", 2, "email"),
        ("nombre;correo\nAna;no-es-correo\nBen;x;y\n", 3, "Expected 2 columns"),
        ("nombre;puntuación\nAna;99999\n", 2, "from 0 to 4000"),
        ("nombre;apellidos;correo\n;;a@example.com\n", 2, "required"),
    ],
    ids=[
        "unknown-column",
        "repeated-column",
        "no-name-column",
        "bad-email",
        "bad-row-length",
        "bad-rating",
        "no-name",
    ],
)
def test_what_is_truly_bad_is_still_refused_by_line(text, line, fragment):
    result = run_import(text)
    assert [n for n, message in result.errors if fragment in message] == [line], result.errors
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b"PK\x03\x04\x14\x00\x06\x00", "Excel workbook"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "Excel workbook"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
        (b"name\nAna \x81\x8d\x9d\n", "cannot be read"),
    ],
    ids=["xlsx", "xls", "png", "undefined-bytes"],
)
def test_files_that_are_not_csv_text_are_refused_with_a_reason(raw, fragment):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match=fragment):
        csv_import.decode_csv(raw)


def test_the_page_previews_a_spanish_excel_file(director_client):
    response = upload(director_client, SPANISH.encode("cp1252"))
    body = response.content.decode()
    assert "José Núñez Peña" in body and "Import these 2 players" in body
    director_client.post(reverse(IMPORT), {"confirm": confirm_token(response)})
    assert Player.objects.count() == 2
