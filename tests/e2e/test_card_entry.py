"""Entering a hand from its cards on a 390×844 phone, with JavaScript: the picker greys
the cards taken, the preview fills the kind and both counts, and the hand saved is the one
the cards say. Also the picker and the dispute page as pictures (test-artifacts/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.scoring.helpers import ready_match

from .conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)
TAP = 44

KNOCKER = ["5S", "6S", "7S", "2H", "2D", "2C", "AD", "AC", "3H", "4D"]  # deadwood 9
DEFENDER = ["8S", "9S", "KH", "KC", "QD", "QH", "JC", "JD", "4C", "6D"]  # 70 after lay-offs


def tick(form, name: str, cards: list[str]) -> None:
    for card in cards:
        form.locator(f'input[name="{name}"][value="{card}"]').locator("..").tap()


def test_a_hand_entered_from_cards_on_a_phone(phone, live_server):
    match = ready_match()
    phone.goto(f"/table/{match.token}/")
    form = phone.locator("form.hand-form")
    form.locator(".field-by label.choice", has_text=match.side_name("A")).tap()
    picker = form.locator("details.card-picker")
    picker.locator("summary").tap()
    cells = picker.locator("label.pick")
    assert cells.count() == 104
    widths = [cells.nth(i).bounding_box()["width"] for i in range(0, 104, 13)]
    assert min(widths) >= TAP, widths
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    tick(form, "knocker_cards", KNOCKER)
    expect(form.locator('[data-count="knocker_cards"]')).to_have_text("10")
    # a card in the knocker's hand is greyed out and cannot be ticked for the opponent
    taken = form.locator('input[name="defender_cards"][value="5S"]')
    expect(taken).to_be_disabled()
    tick(form, "defender_cards", DEFENDER)
    expect(form.locator('[data-count="defender_cards"]')).to_have_text("10")

    preview = phone.locator("#hand-preview")
    expect(preview.locator(".ruling")).to_be_visible()
    expect(preview).to_contain_text("Scores 61")
    expect(form.locator('input[name="kind"][value="knock"]')).to_be_checked()
    expect(form.locator('input[name="deadwood"]')).to_have_value("9")
    expect(form.locator('input[name="defender_deadwood"]')).to_have_value("70")
    screenshot(phone, "cards-table-page-phone")

    form.locator('button[type="submit"]:not([name])').tap()
    expect(phone.locator("#match-head .scoreboard tr.current td").first).to_have_text("61")
    hand = Hand.objects.get(match=match)
    assert (hand.kind, hand.by, hand.deadwood, hand.defender_deadwood) == ("knock", "A", 9, 70)
    assert sorted(hand.cards["knocker"]) == sorted(KNOCKER)


def test_a_typed_count_the_cards_contradict_is_shown_before_saving(phone, live_server):
    match = ready_match()
    phone.goto(f"/table/{match.token}/")
    form = phone.locator("form.hand-form")
    form.locator(".field-by label.choice", has_text=match.side_name("B")).tap()
    form.locator('input[name="deadwood"]').fill("7")
    form.locator("details.card-picker summary").tap()
    tick(form, "knocker_cards", KNOCKER)
    tick(form, "defender_cards", DEFENDER)
    preview = phone.locator("#hand-preview")
    expect(preview).to_contain_text("The cards give the knocker 9 deadwood, not 7.")
    expect(form.locator('input[name="deadwood"]')).to_have_value("7")  # typed: left alone
    assert not Hand.objects.exists()


def test_pictures_of_the_picker_and_the_dispute_page(browser, live_server, desktop):
    match = ready_match()
    owner = match.tournament.owner
    desktop.goto("/accounts/login/")
    desktop.fill('input[name="username"]', owner.username)
    from tests.factories import PASSWORD

    desktop.fill('input[name="password"]', PASSWORD)
    desktop.locator('form button[type="submit"]').last.click()
    desktop.goto(f"/t/{match.tournament.slug}/matches/{match.pk}/")
    desktop.locator("details.card-picker summary").click()
    tick_click(desktop, "knocker_cards", KNOCKER)
    tick_click(desktop, "defender_cards", DEFENDER)
    expect(desktop.locator("#hand-preview .ruling")).to_be_visible()
    screenshot(desktop, "cards-match-page-desktop")
    query = "&".join(
        [*(f"knocker_cards={c}" for c in KNOCKER), *(f"defender_cards={c}" for c in DEFENDER)]
    )
    desktop.goto(f"/t/{match.tournament.slug}/manage/dispute/?{query}")
    expect(desktop.locator(".verdict")).to_contain_text("61 points")
    screenshot(desktop, "cards-dispute-desktop")
    cookies = desktop.context.cookies()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    phone.add_cookies(cookies)
    page = phone.new_page()
    page.goto(f"/t/{match.tournament.slug}/manage/dispute/?{query}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "cards-dispute-phone")
    page.goto(f"/t/{match.tournament.slug}/matches/{match.pk}/")
    page.locator("details.card-picker summary").tap()
    screenshot(page, "cards-match-page-phone")
    phone.close()
    table = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = table.new_page()
    page.goto(f"/table/{match.token}/")
    page.locator("details.card-picker summary").click()
    tick_click(page, "knocker_cards", KNOCKER[:6])
    screenshot(page, "cards-table-page-desktop")
    table.close()


def tick_click(page, name: str, cards: list[str]) -> None:
    for card in cards:
        page.locator(f'input[name="{name}"][value="{card}"]').locator("..").click()
