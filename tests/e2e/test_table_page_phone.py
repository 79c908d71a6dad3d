"""The table link on a 390×844 phone: thumb-sized targets, the score in the first screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.scoring.helpers import knock, play, ready_match

from .conftest import screenshot
from .helpers import enter_hand

pytestmark = pytest.mark.django_db(transaction=True)
TAP = 44  # px: the smallest comfortable touch target


def boxes(locator) -> list[dict[str, float]]:
    return [item.bounding_box() for item in locator.all()]


def heights(locator) -> list[float]:
    return [box["height"] for box in boxes(locator)]


@pytest.mark.parametrize("language", ["en", "es"])
def test_table_page_fits_a_phone(phone, live_server, language):
    match = ready_match()  # best of 5 games to 250
    play(match, [knock("A", 2, 30)])  # A +28
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"/table/{match.token}/")
    assert phone.viewport_size == {"width": 390, "height": 844}

    # The table, both players and the score are on the first screen, without scrolling.
    for region in ("#match-head .table-tag", "#match-head .scoreboard"):
        expect(phone.locator(region)).to_be_in_viewport(ratio=1)
    board = phone.locator("#match-head .scoreboard")
    expect(board.locator("thead")).to_contain_text(match.side_name("A"))
    expect(board.locator("thead")).to_contain_text(match.side_name("B"))
    expect(board.locator("tr.current")).to_contain_text("28")
    assert phone.evaluate("window.scrollY") == 0
    # Nothing is wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    form = phone.locator("form.hand-form")
    choices = form.locator("label.choice")
    assert choices.count() == 6  # four kinds of hand, two players
    assert min(heights(choices)) >= TAP, heights(choices)
    assert min(box["width"] for box in boxes(choices)) >= TAP
    numbers = form.locator('input[type="number"]')
    assert numbers.count() == 2 and min(heights(numbers)) >= TAP, heights(numbers)
    assert numbers.first.get_attribute("inputmode") == "numeric"
    save = form.locator('button[type="submit"]:not([name])')
    assert save.bounding_box()["height"] >= TAP
    # No log-in link on the players' page; the language switcher stays, big enough to tap.
    assert phone.locator('a[href*="/accounts/login/"]').count() == 0
    assert min(heights(phone.locator(".lang-switch button"))) >= TAP
    screenshot(phone, f"table-page-phone-{language}")


def test_the_score_follows_the_hands_entered(phone, live_server):
    match = ready_match()
    a, b = match.side_name("A"), match.side_name("B")
    phone.goto(f"/table/{match.token}/")
    enter_hand(phone, kind="Knock", by=a, deadwood=2, defender=30)  # A +28
    current = phone.locator("#match-head .scoreboard tr.current td")
    expect(current.first).to_have_text("28")
    enter_hand(phone, kind="Gin", by=b, defender=10)  # B +35
    expect(current.last).to_have_text("35")
    expect(phone.locator("#match-head .scoreboard")).to_be_in_viewport(ratio=1)
