"""A Tedesco night in Afrikaans, seen in a browser: the rules form with the house-rule
knobs, the public tournament page, the match sheet and the printed scoresheet (kept in
test-artifacts/ as pictures and the PDF, to look at)."""

from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect

from scoring.loading import HandData
from tests.e2e.conftest import ARTIFACTS, screenshot
from tests.factories import PASSWORD, make_bracket, make_director
from tests.scoring.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tedesco_night_in_afrikaans(desktop, live_server):
    director = make_director(username="direkteur")
    tournament = make_bracket(
        players=2,
        owner=director,
        name="Tedesco-aand",
        venue="Klubsaal",
        preset="tedesco",
        rules={"hollywood_last_doubled": True, "tie": "knocker", "knock_base": 5},
        language="af",
    )
    match = tournament.matches.get()
    play(
        match,
        [
            HandData("gin", "A", None, 110, "2C"),  # 25 + 110 = 135 (an ace counts 15)
            HandData("knock", "B", 3, 3, "5H"),  # a tie: B's, 0 + 5 (knock base)
            HandData("knock", "A", 1, 66, "9D"),  # 65 + 5 = 70: column 1 closes (205)
        ],
        user=director,
    )
    desktop.context.add_cookies(
        [{"name": "django_language", "value": "af", "url": live_server.url}]
    )
    desktop.goto("/accounts/login/")
    desktop.fill("#id_username", "direkteur")
    desktop.fill("#id_password", PASSWORD)
    desktop.locator("main").get_by_role("button", name="Teken aan").click()
    expect(desktop.get_by_role("button", name="Teken af")).to_be_visible()

    desktop.goto(f"/t/{tournament.slug}/manage/")
    desktop.get_by_text("Verander individuele reëls").click()
    expect(desktop.locator("#rules-summary")).to_contain_text("'n ongepaarde aas tel 15")
    expect(desktop.get_by_text("Gelykop by klop")).to_be_visible()
    expect(desktop.locator("#id_knock_base")).to_have_value("5")
    screenshot(desktop, "af-rules-form")

    desktop.goto(f"/t/{tournament.slug}/")
    expect(desktop.get_by_text("Ranglys en statistieke")).to_be_visible()
    screenshot(desktop, "af-tournament-page")

    desktop.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
    expect(desktop.get_by_text("Kolom 1").first).to_be_visible()
    expect(desktop.get_by_text("Voorlopige totaal").first).to_be_visible()
    screenshot(desktop, "af-match-sheet")

    response = desktop.request.get(f"/t/{tournament.slug}/matches/{match.pk}/scoresheet.pdf")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "af-scoresheet.pdf").write_bytes(response.body())
    from pypdf import PdfReader

    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    for words in ("Kolom 1", "Handtekening", "'n ongepaarde aas tel 15", "klopbasis 5"):
        assert words in text, words
