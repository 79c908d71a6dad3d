"""The pages that refresh themselves (htmx polling) never replace a form in use or the
element that has focus: round control (every 15 s), the match and table pages (20 s) and
the public page (15 s). The browser's clock is Playwright's, so a test runs the timers of
a minute in an instant; the requests themselves are real."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.conftest import answered
from tests.factories import make_bracket
from tests.scoring.helpers import knock, play
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def watch_polls(page) -> list[str]:
    """The URLs of the htmx requests the page makes from now on."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if r.headers.get("hx-request") else None)
    return seen


def poll(page, seconds: int) -> None:
    """Let ``seconds`` of the page's timers run, then the requests they start finish."""
    page.clock.run_for(seconds * 1000)
    answered(page)


def mark(page, selector: str) -> None:
    """Tag an element, to tell later whether it is still the same node."""
    page.locator(selector).evaluate("element => { element.dataset.seen = 'yes' }")


def replaced(page, selector: str) -> bool:
    return page.locator(selector).evaluate("element => element.dataset.seen !== 'yes'")


def focused(page) -> dict:
    return page.evaluate(
        "() => ({tag: document.activeElement.tagName, id: document.activeElement.id,"
        " seen: document.activeElement.dataset.seen || '',"
        " text: document.activeElement.textContent.trim()})"
    )


def semi_final():
    tournament = make_bracket(players=4)
    match = Match.objects.filter(tournament=tournament, round=1).order_by("position").first()
    return tournament, match


def test_round_control_keeps_a_walkover_being_chosen(desktop, live_server):
    tournament, match = semi_final()
    log_in(desktop, live_server, tournament.owner)
    desktop.clock.install()
    desktop.goto(f"/t/{tournament.slug}/manage/rounds/")
    polls = watch_polls(desktop)
    # Nobody touching it, round control refreshes itself.
    mark(desktop, "#round-control")
    poll(desktop, 16)
    assert polls and replaced(desktop, "#round-control")

    # The director picks player B for a walkover; the dropdown keeps the focus.
    choice = desktop.locator(f"#wo-{match.pk}")
    choice.select_option("B")
    choice.focus()
    mark(desktop, f"#wo-{match.pk}")
    polls.clear()
    poll(desktop, 40)
    expect(choice).to_have_value("B")
    assert focused(desktop)["id"] == f"wo-{match.pk}"
    assert not replaced(desktop, f"#wo-{match.pk}")
    assert polls == []
    # Focus elsewhere, the choice not yet sent: still not replaced.
    desktop.locator("h1").first.click()
    assert focused(desktop)["tag"] == "BODY"
    poll(desktop, 40)
    expect(choice).to_have_value("B")
    assert not replaced(desktop, f"#wo-{match.pk}")

    desktop.locator(f"#wo-{match.pk} ~ button").click()
    # The confirmation names the winner; nothing is awarded until it is pressed.
    confirm = desktop.locator("#round-control .confirm-box button[type=submit]")
    expect(confirm).to_contain_text(match.name_b)
    match.refresh_from_db()
    assert not match.forfeit
    confirm.click()
    expect(desktop.locator("#round-control .message")).to_contain_text("Walkover:")
    match.refresh_from_db()
    assert match.forfeit and match.winner_side == "B"
    # Sent, the form is no longer in use: refreshing resumes.
    polls.clear()
    poll(desktop, 16)
    assert polls


@pytest.mark.parametrize("via", ["director", "table"])
def test_match_page_keeps_the_focus(desktop, live_server, via):
    tournament, match = semi_final()
    play(match, [knock("A", 2, 30), knock("B", 3, 40)])
    if via == "director":
        log_in(desktop, live_server, tournament.owner)
        url = f"/t/{tournament.slug}/matches/{match.pk}/"
    else:
        url = f"/table/{match.token}/"
    desktop.clock.install()
    desktop.goto(url)
    polls = watch_polls(desktop)
    mark(desktop, "#match-sheet")
    poll(desktop, 21)
    assert polls and replaced(desktop, "#match-sheet")

    # Someone tabs to a hand's Edit link (or taps it and comes back): it keeps the focus.
    edit = desktop.locator("#match-sheet a", has_text="Edit").first
    edit.focus()
    mark(desktop, "#match-sheet a >> nth=0")
    before = focused(desktop)
    assert before["text"] == "Edit" and before["seen"] == "yes"
    poll(desktop, 61)
    assert focused(desktop) == before
    # Typing a hand meanwhile is not disturbed either.
    desktop.locator('#match-entry input[name="defender_deadwood"]').fill("17")
    poll(desktop, 21)
    expect(desktop.locator('#match-entry input[name="defender_deadwood"]')).to_be_focused()
    expect(desktop.locator('#match-entry input[name="defender_deadwood"]')).to_have_value("17")


def test_public_page_keeps_the_focus(desktop, live_server):
    tournament, match = semi_final()
    play(match, [knock("A", 2, 30)])
    desktop.clock.install()
    desktop.goto(f"/t/{tournament.slug}/")
    polls = watch_polls(desktop)
    mark(desktop, "#bracket")
    poll(desktop, 16)
    assert polls and replaced(desktop, "#bracket")

    link = desktop.locator("#bracket a.mbox").first
    link.focus()
    mark(desktop, "#bracket a.mbox >> nth=0")
    before = focused(desktop)
    assert before["tag"] == "A" and before["seen"] == "yes"
    poll(desktop, 46)
    assert focused(desktop) == before
    # The standings, where the focus is not, go on refreshing.
    mark(desktop, "#standings")
    poll(desktop, 16)
    assert replaced(desktop, "#standings")
