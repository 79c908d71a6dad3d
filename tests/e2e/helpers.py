"""Driving the hand-entry form like a person would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def choose(form, field: str, label: str) -> None:
    """Tap the big radio button whose label is exactly ``label``."""
    exact = re.compile(f"^{re.escape(label)}$")
    form.locator(f".field-{field} label.choice", has_text=exact).click()


def enter_hand(
    page: Page,
    *,
    kind: str,
    by: str | None = None,
    deadwood: int | None = None,
    defender: int | None = None,
    card: str | None = None,
) -> None:
    """Fill the entry form (kind and winner by their visible labels) and save."""
    form = page.locator("form.hand-form")
    number = form.locator('input[name="number"]').input_value()
    choose(form, "kind", kind)
    if by is not None:
        choose(form, "by", by)
    if deadwood is not None:
        form.locator('input[name="deadwood"]').fill(str(deadwood))
    if defender is not None:
        form.locator('input[name="defender_deadwood"]').fill(str(defender))
    if card is not None:
        form.locator('select[name="knock_card"]').select_option(card)
    form.get_by_role("button", name="Save hand").click()
    # htmx swaps in a fresh form for the next hand (or the confirmation box).
    expect(page.locator(f'form.hand-form input[name="number"][value="{number}"]')).to_have_count(0)
