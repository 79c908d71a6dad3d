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


# Each word of a text node as a Range (a hyphen ends a word, a line may break after it):
# a word drawn over two lines has client rects on two lines.
BROKEN_WORDS = """cell => {
  const broken = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


def name_players(match, a: str, b: str) -> None:
    for entry, name in ((match.side_a, a), (match.side_b, b)):
        entry.player.name = name
        entry.player.save()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "names",
    [
        ("Søren Kierkegaard", "Ana Ruiz"),
        ("Bartholomew Athanasopoulos", "Agnieszka Wojciechowska"),
        ("María de los Ángeles Fernández-Castellanos", "Nguyễn Thị Minh Khai"),
    ],
    ids=["kierkegaard", "long-words", "long-names"],
)
def test_a_name_in_the_score_header_wraps_at_its_spaces(phone, live_server, language, names):
    """ "Kierkegaar|d" was broken mid-word on the phone's score header (issue 41): a name
    wraps at its spaces, and a long one is set smaller so that its words fit whole."""
    match = ready_match()
    name_players(match, *names)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"/table/{match.token}/")

    sides = phone.locator("#match-head .scoreboard thead th.side")
    expect(sides.first).to_contain_text(names[0])
    for index in range(2):
        assert sides.nth(index).evaluate(BROKEN_WORDS) == [], names[index]
    expect(phone.locator("#match-head .scoreboard")).to_be_in_viewport(ratio=1)
    screenshot(phone, f"score-header-{'-'.join(names[0].split()[:2])}-{language}")


def test_a_word_too_long_for_any_size_is_broken_inside_its_column(phone, live_server):
    """The last resort: one unbroken word wider than the column even when shrunk is
    broken rather than pushed past the score (nothing overflows its cell)."""
    match = ready_match()
    name_players(match, "Wolfeschlegelsteinhausenbergerdorff", "Ana Ruiz")
    phone.goto(f"/table/{match.token}/")

    side = phone.locator("#match-head .scoreboard thead th.side").first
    expect(side).to_contain_text("Wolfeschlegel")
    assert side.evaluate("cell => cell.scrollWidth <= cell.clientWidth")
