"""A whole 8-player tournament through the browser, and a Hollywood match in a second one.

The director creates the tournament, registers the field, previews and generates the
bracket, and every hand of every match is entered through the pages: one match from a
phone through its table link, the rest by the director, with one correction on the way.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from scoring.loading import sheet_for
from tests.factories import PASSWORD, make_director
from tournaments.models import Match, Tournament

from .conftest import screenshot
from .helpers import enter_hand

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [
    "Ada Lovelace", "Bruno Díaz", "Carmen Ruiz", "Dmitri Volkov",
    "Elena Sánchez", "Farid Haddad", "Grace Hopper", "Héctor Gómez",
]  # fmt: skip


def win_3_1(winner: str, loser: str) -> list[dict]:
    """A best-of-five to 100 that ``winner`` takes 3-1 in five hands."""
    return [
        {"kind": "Knock", "by": winner, "deadwood": 2, "defender": 40},  # 38
        {"kind": "Gin", "by": winner, "defender": 60},  # 85: 123, game 1
        {"kind": "Gin", "by": loser, "defender": 98},  # 123: game 2 to the loser
        {"kind": "Gin", "by": winner, "defender": 90},  # game 3
        {"kind": "Gin", "by": winner, "defender": 80},  # game 4, match
    ]


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def create_tournament(page: Page, name: str, preset: str, **knobs: str) -> Tournament:
    page.goto("/director/tournaments/new/")
    page.fill("#id_name", name)
    page.select_option("#id_preset", preset)
    page.fill("#id_tables", "3")
    if knobs:
        page.get_by_text("Change individual rules").click()
    for knob, value in knobs.items():
        page.fill(f"#id_{knob}", value)
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return Tournament.objects.get(name=name)


def register(page: Page, tournament: Tournament, names: list[str]) -> None:
    page.goto(f"/t/{tournament.slug}/manage/entries/")
    for name in names:
        page.goto(f"/t/{tournament.slug}/manage/entries/")
        form = page.locator("#new-player")
        form.get_by_label("Name").fill(name)
        form.get_by_role("button", name="Add to registry and enter").click()
        expect(page.locator("#entry-list")).to_contain_text(name)


def generate(page: Page, tournament: Tournament) -> None:
    page.goto(f"/t/{tournament.slug}/manage/bracket/")
    expect(page.get_by_role("heading", name="Preview")).to_be_visible()
    screenshot(page, "bracket-preview")
    page.get_by_role("button", name="Generate the bracket").click()
    expect(page.locator(".message")).to_contain_text("Bracket generated")


def play_on(page: Page, hands: list[dict]) -> None:
    for hand in hands:
        enter_hand(page, **hand)


def test_eight_player_tournament(browser, desktop, phone, live_server):
    make_director(username="director")
    page = desktop
    log_in(page, "director")
    tournament = create_tournament(page, "Spring Open", "tournament", game_target="100")
    assert tournament.ruleset.game_target == 100 and tournament.ruleset.games_to_win == 3
    register(page, tournament, PLAYERS)
    generate(page, tournament)
    assert tournament.matches.count() == 7

    corrected = phoned = False
    upset_key = "W1-2"  # the only match the lower seed wins
    for round_number in (1, 2, 3):
        matches = list(tournament.matches.filter(round=round_number).order_by("position"))
        for match in matches:
            match.refresh_from_db()
            assert match.status == Match.Status.READY, match
            a, b = match.side_name("A"), match.side_name("B")
            winner, loser = (b, a) if match.key == upset_key else (a, b)
            hands = win_3_1(winner, loser)
            if not phoned:
                # The players at table 1 use the QR link on their sheet, on a phone.
                page.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
                table_link = page.locator(".director-box a code").inner_text()
                phone.goto(table_link)
                play_on(phone, hands)
                screenshot(phone, "full-table-link-decided")
                phone.get_by_role("button", name=f"I, {loser}, confirm the result").click()
                expect(phone.locator(".message")).to_contain_text("Result confirmed")
                phoned = True
                continue
            page.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
            if not corrected:
                # A wrong number goes in, the director corrects it, then play goes on.
                enter_hand(page, kind="Knock", by=winner, deadwood=2, defender=30)
                page.locator("#match-sheet .row-extra").first.get_by_role(
                    "link", name="Edit"
                ).click()
                page.fill('input[name="defender_deadwood"]', "40")
                page.get_by_role("button", name="Check the correction").click()
                expect(page.locator(".confirm-box")).to_contain_text("38 for " + winner)
                page.get_by_role("button", name="Yes, save the correction").click()
                expect(page.locator(".message")).to_contain_text("Hand 1 corrected.")
                expect(page.locator("#match-sheet")).to_contain_text("+38")
                play_on(page, hands[1:])
                corrected = True
            else:
                play_on(page, hands)
            expect(page.get_by_role("heading", name="The match is decided")).to_be_visible()
            page.get_by_role("button", name="Confirm the result").click()
            expect(page.locator(".message")).to_contain_text("Result confirmed")
            match.refresh_from_db()
            assert match.status == Match.Status.COMPLETE
            assert match.winner.player.name == winner

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final = tournament.matches.get(round=3)
    champion = final.winner.player.name
    for match in tournament.matches.all():
        sheet = sheet_for(match)
        assert (match.total_a, match.total_b) == (sheet.match.total.a, sheet.match.total.b)
        assert match.winner_side == sheet.match.winner.value

    check_public_pages(page, tournament, champion)


def check_public_pages(page: Page, tournament: Tournament, champion: str) -> None:
    page.goto(f"/t/{tournament.slug}/")
    expect(page.locator("body")).to_contain_text(champion)
    screenshot(page, "public-tournament")
    standings = json.loads(page.request.get(f"/t/{tournament.slug}/standings.json").text())
    assert standings["standings"][0]["name"] == champion
    assert standings["standings"][0]["place"] in (1, "1")
    page.goto(f"/t/{tournament.slug}/display/")
    expect(page.locator("body")).to_contain_text(champion)
    screenshot(page, "projector")


def test_hollywood_match(desktop, live_server):
    make_director(username="hollywood")
    page = desktop
    log_in(page, "hollywood")
    tournament = create_tournament(page, "Hollywood Night", "hollywood")
    register(page, tournament, ["Ann Lee", "Bo Chen"])
    generate(page, tournament)
    match = tournament.matches.get()
    page.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
    a, b = match.side_name("A"), match.side_name("B")
    enter_hand(page, kind="Gin", by=a, defender=98)  # column 1 closes for A
    enter_hand(page, kind="Gin", by=b, defender=98)  # B opens and closes column 2
    expect(page.locator("#match-sheet")).to_contain_text("Column 2 · won by " + b)
    enter_hand(page, kind="Knock", by=a, deadwood=3, defender=60)  # A into column 3: 57
    enter_hand(page, kind="Gin", by=a, defender=50)  # 75 more: column 3 closes
    expect(page.get_by_role("heading", name="The match is decided")).to_be_visible()
    expect(page.locator("#match-head")).to_contain_text(re.compile(r"2\s*–\s*1"))
    screenshot(page, "hollywood-match")
    page.get_by_role("button", name="Confirm the result").click()
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE and match.winner_side == "A"
    sheet = sheet_for(match)
    assert [c.winner.value for c in sheet.games] == ["A", "B", "A"]
    assert match.total_a == sheet.match.total.a
    check_public_pages(page, tournament, a)
