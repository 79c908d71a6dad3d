"""A small two-stage event run to a champion through the pages: six players in two Swiss
rounds of one game to 100, a round decided on time, the top four cut into a knockout
played best of one with a best-of-three final; the projector shows the clock."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.factories import make_director, make_entries, make_tournament
from tournaments.models import Match, Tournament

from .conftest import screenshot
from .helpers import enter_hand
from .test_full_tournament import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def stages_url(tournament: Tournament) -> str:
    return f"/t/{tournament.slug}/manage/stages/"


def add_stage(page: Page, tournament: Tournament, **fields: str) -> None:
    page.goto(stages_url(tournament))
    form = page.locator(".add-stage form")
    form.locator("#id_kind").select_option(fields.pop("kind"))
    for name, value in fields.items():
        form.locator(f"#id_{name}").fill(value)
    form.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".message")).to_contain_text("added")


def press(page: Page, tournament: Tournament, button: str, message: str) -> None:
    page.goto(stages_url(tournament))
    page.get_by_role("button", name=button).click()
    expect(page.locator(".message")).to_contain_text(message)


def play_match(page: Page, tournament: Tournament, match: Match, winner: str) -> None:
    """Gins for ``winner`` (98 against: 123 points, a game to 100) until it is decided."""
    page.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
    while not page.get_by_role("heading", name="The match is decided").is_visible():
        enter_hand(page, kind="Gin", by=winner, defender=98)
    page.get_by_role("button", name="Confirm the result").click()
    expect(page.locator(".message")).to_contain_text("Result confirmed")


def play_ready(page: Page, tournament: Tournament, *, skip: Match | None = None) -> None:
    for match in Match.objects.filter(tournament=tournament, status="ready").order_by("pk"):
        if skip is not None and match.pk == skip.pk:
            continue
        play_match(page, tournament, match, match.side_name("A"))


def test_two_stage_event_to_a_champion(desktop, live_server):
    director = make_director(username="director")
    tournament = make_tournament(owner=director, name="Stages Night", preset="modern", tables=3)
    make_entries(tournament=tournament, count=6)
    page = desktop
    log_in(page, "director")

    add_stage(page, tournament, kind="swiss", name="Qualifying", rounds="2", advance="4")
    add_stage(page, tournament, kind="single_elimination", name="Knockout", final_games_to_win="2")
    press(page, tournament, "Start the tournament with this stage", "has started")
    screenshot(page, "stages-started")
    play_ready(page, tournament)
    press(page, tournament, "Pair round 2", "Round 2 is paired")

    # Round 2: two tables finish; at the third, time runs out with one hand played.
    round_two = list(Match.objects.filter(stage__number=1, round=2).order_by("position"))
    late = round_two[-1]
    play_ready(page, tournament, skip=late)
    page.goto(stages_url(tournament))
    page.get_by_label("Round clock, minutes").fill("1")
    page.get_by_role("button", name="Start the clock").click()
    # Counting down in the browser, from the end the server recorded.
    expect(page.locator(".round-clock .clock-time")).to_have_text(re.compile(r"^0:[0-5]\d$"))
    page.goto(f"/t/{tournament.slug}/display/")
    expect(page.locator(".pj-clock")).to_be_visible()
    expect(page.locator(".pj-title")).to_contain_text("Qualifying · Round 2")
    screenshot(page, "stages-projector-clock")
    page.goto(f"/t/{tournament.slug}/matches/{late.pk}/")
    enter_hand(page, kind="Knock", by=late.side_name("B"), deadwood=2, defender=30)
    page.goto(stages_url(tournament))
    page.locator("select[name=procedure]").select_option("leader")
    page.get_by_role("button", name="Call time").click()
    # With time left on the clock the page asks first (issue 41); a slow run may find the
    # minute over, and time is then called at once.
    asked = page.locator("#time-confirm")
    expect(page.locator("#time-confirm, .message").first).to_be_visible()
    if asked.count():
        expect(asked).to_contain_text(re.compile(r"0:[0-5]\d left on the clock: decide"))
        asked.get_by_role("button", name="Yes, call time now").click()
    expect(page.locator(".message")).to_contain_text("Decided on time: 1")
    late.refresh_from_db()
    assert late.decided_on_time and late.winner_side == "B"
    page.goto(f"/t/{tournament.slug}/matches/{late.pk}/")
    expect(page.locator(".on-time")).to_contain_text("Decided on time")

    press(page, tournament, "Close the stage and make the cut", "has started with 4 players")
    page.goto(f"/t/{tournament.slug}/")
    expect(page.locator("#stage-1")).to_contain_text("Ranked by, in order:")
    expect(page.locator("#stage-1")).to_contain_text("decided on time")
    screenshot(page, "stages-public")
    knockout = tournament.stages.get(number=2)
    play_ready(page, tournament)  # the semifinals
    final = Match.objects.get(stage=knockout, round=2)
    assert final.ruleset.games_to_win == 2
    play_ready(page, tournament)  # the final, best of three
    final.refresh_from_db()
    assert final.score_a + final.score_b == 2
    page.goto(f"/t/{tournament.slug}/")
    expect(page.locator(".champion-banner")).to_contain_text(final.side_name("A"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
