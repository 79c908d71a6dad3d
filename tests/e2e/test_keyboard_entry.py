"""Hand entry from the keyboard alone, at a table link: reach the form in a few Tabs,
enter and save a hand, hear "Hand 1 saved", and start the next one where the focus lands;
a refused hand puts the focus on the field that is wrong."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.scoring.helpers import ready_match

pytestmark = pytest.mark.django_db(transaction=True)


def focused(page) -> dict:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return {tag: e.tagName, name: e.name || '', value: e.value || '', id: e.id || '',"
        " invalid: e.getAttribute('aria-invalid')}; }"
    )


def tab_to(page, name: str, limit: int) -> int:
    """Press Tab until a control named ``name`` has the focus; how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if focused(page)["name"] == name:
            return presses
    raise AssertionError(f"{name} not reached in {limit} Tabs (at {focused(page)})")


def test_enter_save_and_start_the_next_hand_by_keyboard(desktop, live_server):
    match = ready_match()
    desktop.goto(f"/table/{match.token}/")
    # The form comes before the sheet: a handful of Tabs, not eighteen.
    assert tab_to(desktop, "kind", limit=8) <= 8
    desktop.keyboard.press("Space")  # the first kind: Knock
    tab_to(desktop, "by", limit=2)
    desktop.keyboard.press("Space")  # the first player
    tab_to(desktop, "deadwood", limit=2)
    desktop.keyboard.type("5")
    desktop.keyboard.press("Tab")
    desktop.keyboard.type("40")
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#entry-status")).to_have_text("Hand 1 saved.")
    expect(desktop.locator('form.hand-form input[name="number"]')).to_have_value("2")
    # The focus moves once the new form has settled: wait for it (a busy machine is slower).
    expect(desktop.locator('form.hand-form input[name="kind"][value="knock"]')).to_be_focused()
    hand = Hand.objects.get(match=match)
    assert (hand.kind, hand.by, hand.deadwood, hand.defender_deadwood) == ("knock", "A", 5, 40)

    # Hand 2 starts right there; a refused count sends the focus to its field.
    desktop.keyboard.press("Space")
    tab_to(desktop, "by", limit=2)
    desktop.keyboard.press("Space")
    tab_to(desktop, "deadwood", limit=2)
    desktop.keyboard.type("11")
    desktop.keyboard.press("Tab")
    desktop.keyboard.type("40")
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#id_deadwood-error")).to_contain_text("over the knock limit")
    expect(desktop.locator("#id_deadwood")).to_be_focused()
    expect(desktop.locator("#id_deadwood")).to_have_attribute("aria-invalid", "true")
    assert desktop.locator("text=Who dealt the first hand?").count() == 0
    assert Hand.objects.filter(match=match).count() == 1
