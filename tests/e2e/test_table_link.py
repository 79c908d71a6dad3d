"""Players at a table enter a whole match from a phone through their table link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.loading import sheet_for
from scoring.models import Hand
from tests.scoring.helpers import ready_match
from tournaments.models import Match

from .conftest import screenshot
from .helpers import choose, enter_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_phone_enters_a_match_previews_points_and_confirms(phone, live_server):
    match = ready_match(preset="modern")  # one game to 100
    a, b = match.side_name("A"), match.side_name("B")
    phone.goto(f"/table/{match.token}/")
    expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    form = phone.locator("form.hand-form")
    choose(form, "kind", "Gin")
    choose(form, "by", a)
    form.locator('input[name="defender_deadwood"]').fill("20")
    expect(phone.locator("#hand-preview")).to_contain_text(f"Scores 45 for {a}")
    form.get_by_role("button", name="Save hand").click()
    expect(phone.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    # The sheet reloads itself on the hand-recorded event.
    expect(phone.locator("#match-sheet")).to_contain_text("+45")

    enter_hand(phone, kind="Knock", by=b, deadwood=9, defender=5)  # undercut: A +29
    expect(phone.locator("#match-sheet")).to_contain_text("undercut")
    enter_hand(phone, kind="Dead hand (draw)")
    enter_hand(phone, kind="Gin", by=a, defender=26)  # 45 + 29 + 51 = 125: game and match
    expect(phone.get_by_role("heading", name="The match is decided")).to_be_visible()
    screenshot(phone, "table-link-phone-decided")

    phone.get_by_role("button", name=f"I, {b}, confirm the result").click()
    expect(phone.locator(".message")).to_contain_text("Result confirmed")
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE and match.winner_side == "A"
    assert Hand.objects.filter(match=match).count() == 4
    sheet = sheet_for(match)
    assert (match.total_a, match.total_b) == (sheet.match.total.a, sheet.match.total.b)
    # The link has closed; the public sheet still shows the result.
    phone.goto(f"/table/{match.token}/")
    expect(phone.get_by_role("heading", name="This table link does not work")).to_be_visible()


def test_entry_works_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    match = ready_match(preset="modern")
    page.goto(f"/table/{match.token}/")
    form = page.locator("form.hand-form")
    choose(form, "kind", "Knock")
    choose(form, "by", match.side_name("A"))
    page.fill('input[name="deadwood"]', "3")
    page.fill('input[name="defender_deadwood"]', "30")
    page.get_by_role("button", name="Show points").click()
    expect(page.locator("#hand-preview")).to_contain_text("Scores 27 for")
    assert Hand.objects.count() == 0
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".message")).to_contain_text("Hand 1 saved.")
    assert Hand.objects.get().defender_deadwood == 30
    context.close()
