"""One event in a real browser (Playwright, Debian's Chromium): the director runs a Swiss
of six into a top-four knockout on the Stages page (games to 50, to keep it short), the
phones at the tables enter real hands from a seeded random through their table links and
confirm; after every round the invariants (:mod:`tests.events.invariants`) check every
surface for every entrant. It is the event simulator's browser scenario; it lives beside
the other browser tests to share their one Chromium (a second Playwright in the same
process cannot start)."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from tests.e2e.helpers import enter_hand
from tests.e2e.test_full_tournament import log_in
from tests.events.driver import Event, Hands, names, path_of
from tests.events.scenarios import Rounds
from tests.factories import make_director
from tournaments.models import Match, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

KINDS = {"knock": "Knock", "gin": "Gin", "big_gin": "Big gin", "draw": "Dead hand (draw)"}


def stages_page(page: Page, slug: str) -> None:
    page.goto(f"/t/{slug}/manage/stages/")


def press(page: Page, slug: str, button: str, message: str) -> None:
    stages_page(page, slug)
    page.get_by_role("button", name=button).click()
    expect(page.locator(".message")).to_contain_text(message)


def play_at_the_table(director: Page, at_table: Page, match: Match, hands: Hands) -> None:
    """The director's page shows the table link; the phone opens it, enters hands until
    the match is decided, and the losing player confirms."""
    director.goto(f"/t/{match.tournament.slug}/matches/{match.pk}/")
    link = director.locator("a[href*='/table/']").first.get_attribute("href")
    at_table.goto(path_of(link))
    names = {"A": match.side_name("A"), "B": match.side_name("B")}
    confirm = at_table.get_by_role("button", name="confirm the result")
    while not confirm.is_visible():
        hand = hands.hand(match.ruleset)
        enter_hand(
            at_table,
            kind=KINDS[hand["kind"]],
            by=names[hand["by"]] if "by" in hand else None,
            deadwood=hand.get("deadwood"),
            defender=hand.get("defender_deadwood"),
        )
    confirm.click()
    expect(at_table.locator(".message")).to_contain_text("Result confirmed")


def test_a_swiss_into_a_knockout_in_the_browser(desktop, phone, tmp_path):
    rng = random.Random("browser-1")
    hands = Hands(rng)
    director = make_director(username="director")
    client = Client()
    client.force_login(director)
    event = Event(client, rng)
    event.create("Browser night", tables=3)
    for name in names(rng, 6):
        event.register(name)
    rounds = Rounds(event, tmp_path)
    page = desktop
    log_in(page, "director")
    stages_page(page, event.slug)
    form = page.locator(".add-stage form")
    form.locator("#id_kind").select_option("swiss")
    form.locator("#id_name").fill("Qualifying")
    form.locator("#id_rounds").fill("2")
    form.locator("#id_advance").fill("4")
    form.locator("#id_game_target").fill("50")
    form.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".message")).to_contain_text("added")
    form = page.locator(".add-stage form")
    form.locator("#id_kind").select_option("single_elimination")
    form.locator("#id_name").fill("Knockout")
    form.locator("#id_game_target").fill("50")
    form.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".message")).to_contain_text("added")
    press(page, event.slug, "Start the tournament with this stage", "has started")
    for number in (1, 2):
        for match in event.ready():
            play_at_the_table(page, phone, match, hands)
        rounds.after(f"Swiss round {number}")
        if number == 1:
            press(page, event.slug, "Pair round 2", "Round 2 is paired")
    press(page, event.slug, "Close the stage and make the cut", "has started with 4 players")
    rounds.after("the cut")
    wave = 0
    while ready := event.ready():
        wave += 1
        for match in ready:
            play_at_the_table(page, phone, match, hands)
        rounds.after(f"Knockout wave {wave}")
    assert event.tournament.status == Tournament.Status.FINISHED
    rounds.done()
