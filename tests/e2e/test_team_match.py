"""A whole partnership match (2 v 2) entered through the pages, deal by deal, with a
correction, to a winning team that advances in the bracket."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Hand
from tests.teams import first_match, team_bracket
from tournaments.models import Match

from .conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def fill_board(
    form,
    board: int,
    *,
    kind: str,
    by: str | None = None,
    deadwood: int | None = None,
    defender: int | None = None,
) -> None:
    """Fill board ``board`` (1-based) of the deal form; ``by`` is the team, A or B."""
    fieldset = form.locator("fieldset.board").nth(board - 1)
    exact = re.compile(f"^{re.escape(kind)}$")
    fieldset.locator(".field-kind label.choice", has_text=exact).click()
    if by is not None:
        fieldset.locator(f'.field-by label.choice:has(input[value="{by}"])').click()
    if deadwood is not None:
        fieldset.locator('.field-deadwood input[type="number"]').fill(str(deadwood))
    if defender is not None:
        fieldset.locator('.field-defender input[type="number"]').fill(str(defender))


def save_deal(page: Page, number: int) -> None:
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".message").first).to_contain_text(f"Deal {number} saved.")


def test_a_team_match_entered_through_the_pages_with_a_correction(browser, live_server):
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    a, b = match.side_name("A"), match.side_name("B")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"/table/{match.token}/")
    expect(page.get_by_role("heading", name="Enter deal 1")).to_be_visible()
    expect(page.locator("#match-head")).to_contain_text(f"{a}")
    expect(page.locator("#match-head")).to_contain_text("Team 1 player 1 · Team 1 player 2")

    form = page.locator("form.deal-form")
    # Deal 1: board 1 A knocks 2 v 18 (16), board 2 A gin v 20 (45): A scores 61.
    fill_board(form, 1, kind="Knock", by="A", deadwood=2, defender=18)
    fill_board(form, 2, kind="Gin", by="A", defender=20)
    save_deal(page, 1)
    expect(page.locator("#match-sheet")).to_contain_text("+61")

    # A correction: board 2 was really B's knock, 3 v 15 (12): A nets 16 - 12 = 4.
    page.locator("#match-sheet").get_by_role("link", name="Edit").first.click()
    expect(page.get_by_role("heading", name="Correct deal 1")).to_be_visible()
    form = page.locator("form.deal-form")
    fill_board(form, 2, kind="Knock", by="B", deadwood=3, defender=15)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".message").first).to_contain_text("Deal 1 corrected.")
    expect(page.locator("#match-sheet")).to_contain_text("+4")

    form = page.locator("form.deal-form")
    # Deal 2 (partners change opponents): both boards gin for A, 55 each: 4 + 110 = 114.
    fill_board(form, 1, kind="Gin", by="A", defender=30)
    fill_board(form, 2, kind="Gin", by="A", defender=30)
    save_deal(page, 2)
    # Deal 3: a gin for A (45) and a dead hand: 159, past 125. The match is decided.
    form = page.locator("form.deal-form")
    fill_board(form, 1, kind="Gin", by="A", defender=20)
    fill_board(form, 2, kind="Dead hand (draw)")
    save_deal(page, 3)
    expect(page.get_by_role("heading", name="The match is decided")).to_be_visible()
    screenshot(page, "team-match-decided-desktop")

    page.get_by_role("button", name=f"We, {b}, confirm the result").click()
    expect(page.locator(".message").first).to_contain_text("Result confirmed")
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE and match.winner_side == "A"
    assert Hand.objects.filter(match=match).count() == 6
    following = Match.objects.get(pk=match.next_match_id)
    assert following.entry(match.next_slot).name == a
    page.goto(f"/t/{tournament.slug}/")
    expect(page.locator("body")).to_contain_text(a)
    context.close()


def test_the_team_sheet_on_a_phone(phone, live_server):
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    phone.goto(f"/table/{match.token}/")
    form = phone.locator("form.deal-form")
    fill_board(form, 1, kind="Knock", by="A", deadwood=2, defender=18)
    fill_board(form, 2, kind="Knock", by="B", deadwood=3, defender=15)
    save_deal(phone, 1)
    expect(phone.get_by_role("heading", name="Enter deal 2")).to_be_visible()
    screenshot(phone, "team-match-phone")
    # The page is no wider than the phone.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390


def test_a_director_registers_a_team_in_the_browser(desktop, live_server):
    from tests.factories import make_director, make_player
    from tests.teams import make_teams, team_tournament

    from .test_full_tournament import log_in

    director = make_director(username="teamdir")
    tournament = team_tournament(owner=director, name="Pairs evening")
    make_teams(tournament, 2)
    make_player(name="Ada Lovelace")
    make_player(name="Bruno Díaz")
    make_player(name="Carmen Ruiz")
    log_in(desktop, "teamdir")
    desktop.goto(f"/t/{tournament.slug}/manage/entries/")
    expect(desktop.get_by_role("heading", name="Register a team")).to_be_visible()
    form = desktop.locator("form.team-form")
    form.locator('input[name="team_name"]').fill("The Analysts")
    form.locator('select[name="seat1"]').select_option(label="Ada Lovelace")
    form.locator('select[name="seat2"]').select_option(label="Bruno Díaz")
    form.get_by_role("button", name="Enter team").click()
    expect(desktop.locator(".message").first).to_contain_text("The Analysts entered.")
    expect(desktop.locator("#entry-list")).to_contain_text("Ada Lovelace, Bruno Díaz")
    screenshot(desktop, "team-registration-desktop")
    # One player in both seats: refused, with the reason, and nothing entered.
    form = desktop.locator("form.team-form")
    form.locator('input[name="team_name"]').fill("Soloists")
    form.locator('select[name="seat1"]').select_option(label="Carmen Ruiz")
    form.locator('select[name="seat2"]').select_option(label="Carmen Ruiz")
    form.get_by_role("button", name="Enter team").click()
    expect(desktop.locator(".message").first).to_contain_text(
        "Choose a different player for every seat."
    )
    assert tournament.entries.count() == 3


def test_the_other_teams_phone_sees_the_deal_without_reloading(browser, live_server):
    """One phone per team: a deal saved on one shows on the other within a poll (20 s)."""
    tournament = team_bracket(teams=2)
    match = first_match(tournament)
    phones = []
    for _ in range(2):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, base_url=live_server.url
        )
        context.set_default_timeout(30_000)
        phones.append(context.new_page())
        phones[-1].goto(f"/table/{match.token}/")
    first, second = phones
    form = first.locator("form.deal-form")
    fill_board(form, 1, kind="Knock", by="A", deadwood=2, defender=18)
    fill_board(form, 2, kind="Knock", by="A", deadwood=3, defender=15)
    save_deal(first, 1)
    expect(second.locator("#match-sheet")).to_contain_text("+28", timeout=30_000)
    expect(second.locator("#match-head")).to_contain_text("28")
    for page in phones:
        page.context.close()
