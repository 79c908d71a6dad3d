"""CSV exports: public data only, formula injection defused, Spanish Excel's layout."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.urls import reverse

from club.csv_text import BOM, safe, write
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Ann O'Neil", "Ann O'Neil"),
        (-12, -12),
        (2.5, "2.5"),
        (None, ""),
    ],
)
def test_cells_are_defused(value, cell):
    assert safe(value) == cell


def test_spanish_and_afrikaans_files_use_semicolons_and_decimal_commas():
    text = write(["Nombre", "Media"], [["Ñandú", 3.5]], language="es")
    assert text.startswith(BOM)
    assert text == BOM + "Nombre;Media\r\nÑandú;3,5\r\n"
    assert write(["a"], [[1.5]], language="af") == BOM + "a\r\n1,5\r\n"
    assert write(["a", "b"], [[1.5, 2]], language="en") == BOM + "a,b\r\n1.5,2\r\n"


@pytest.fixture
def played(db):
    director = make_director()
    players = [
        make_player(name="=cmd|' /C calc'!A0", email="evil@example.com", phone="555"),
        make_player(name="José Núñez", email="jose@example.com", club_id="S-77"),
        make_player(name="Ann"),
        make_player(name="Ben"),
    ]
    return run_tournament(
        players, owner=director, date=datetime.date(2026, 2, 1), winner=by_rank(players)
    )


def rows(client, url, language="en") -> list[list[str]]:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment")
    raw = response.content
    assert raw.startswith(BOM.encode("utf-8"))
    text = raw.decode("utf-8")
    for private in ("example.com", "555", "S-77"):
        assert private not in text
    delimiter = ";" if language == "es" else ","
    return list(csv.reader(io.StringIO(text.removeprefix(BOM)), delimiter=delimiter))


def test_standings_csv(client, played):
    table = rows(client, reverse("club:standings-csv", args=[played.slug]))
    assert table[0][:3] == ["Place", "Player", "Progress"]
    assert table[0][-2:] == ["Club rating", "Rating change"]
    champion = table[1]
    assert champion[:2] == ["1", "'=cmd|' /C calc'!A0"]
    assert int(champion[-1]) > 0 and int(champion[-2]) == 1500 + int(champion[-1])


def test_matches_csv_in_spanish(client, played):
    table = rows(client, reverse("club:matches-csv", args=[played.slug]), language="es")
    assert len(table[0]) == 12  # split on the semicolons, as Spanish Excel does
    assert table[0][1] == "Mesa"  # in the visitor's language
    assert len(table) == 1 + 3
    names = {cell for row in table[1:] for cell in row[2:4]}
    assert "José Núñez" in names and "'=cmd|' /C calc'!A0" in names
