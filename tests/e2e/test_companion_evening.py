"""An evening on two phones (issue 33): self check-in is on; two players check in with
the door's code on their own phones (a wrong code first: refused), wait for the only
table, and are called to it when it frees, within one poll. With "call tables
automatically" off the free table stays free, and the players keep waiting, until the
director sends their match to it from Round control. Playwright's clock runs the poll
timers in an instant; the requests are real."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from public.live import POLL_SECONDS
from tests.e2e.conftest import XHR_IN_FLIGHT_JS, answered, screenshot
from tests.public.test_find import NAMES, entry, field, match_of, player_url
from tests.standings.test_standings import play_match, quick_match

pytestmark = pytest.mark.django_db(transaction=True)

CODE_LABEL = "The check-in code shown at the door"


def poll(page) -> None:
    page.clock.run_for((POLL_SECONDS + 1) * 1000)
    answered(page)


def check_in(page, code: str) -> None:
    page.get_by_label(CODE_LABEL).fill(code)
    page.get_by_role("button", name="Check me in").click()


@pytest.fixture
def second_phone(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(15_000)
    context.add_init_script(XHR_IN_FLIGHT_JS)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("auto_call", [True, False], ids=["auto-call", "by-hand"])
def test_two_phones_check_in_wait_and_are_called(
    phone, second_phone, desktop, live_server, monkeypatch, auto_call
):
    from tournaments import organising, registration, self_checkin
    from tournaments.draw import generate_bracket

    monkeypatch.setattr("public.live.RERENDER_SECONDS", 0)
    t = field(NAMES[:4], draw=False, tables=1)
    code = self_checkin.set_self_checkin(tournament=t, on=True, user=t.owner).checkin_code
    # Seeds 2 and 3 meet in the match that waits for the only table (1 v 4 holds it).
    phones = {2: phone, 3: second_phone}
    for seed, page in phones.items():
        page.clock.install()
        page.goto(player_url(t, entry(t, seed)))
        assert page.locator("main").get_attribute("data-state") == "check-in"

    check_in(phone, "ZZZZ" if code != "ZZZZ" else "YYYY")
    assert "That is not the code" in phone.locator(".messages").inner_text()
    assert phone.locator("main").get_attribute("data-state") == "check-in"
    assert not entry(t, 2).checked_in
    for seed, page in phones.items():
        check_in(page, code)
        assert "You are checked in." in page.locator(".messages").inner_text()
        assert entry(t, seed).checked_in and entry(t, seed).self_checked_in

    for seed in (1, 4):  # the other two are checked in by hand at the door
        registration.set_entry_flag(
            entry=entry(t, seed), field="checked_in", value=True, user=t.owner
        )
    generate_bracket(tournament=t, user=t.owner)
    t.refresh_from_db()
    if not auto_call:
        organising.update_tournament(tournament=t, data={"auto_call": False}, user=t.owner)
    titles = {}
    for seed, page in phones.items():
        page.goto(player_url(t, entry(t, seed)))
        assert page.locator("main").get_attribute("data-state") == "waiting"
        titles[seed] = page.title()

    play_match(match_of(t, 1), "A", quick_match)  # table 1 frees
    if not auto_call:
        for page in phones.values():
            poll(page)
            assert page.locator("main").get_attribute("data-state") == "waiting"
        client = Client()
        client.force_login(t.owner)
        session = client.cookies["sessionid"].value
        desktop.context.add_cookies(
            [{"name": "sessionid", "value": session, "url": live_server.url}]
        )
        desktop.goto(f"/t/{t.slug}/manage/rounds/")
        send = desktop.get_by_role("button", name="Send to table 1")
        expect(send).to_have_count(1)
        screenshot(desktop, "autocall-send-to-table")
        send.click()
        expect(desktop.locator("#round-control")).to_contain_text("sent to table 1")

    against = {2: "María Núñez", 3: "Ana Żółć"}
    for seed, page in phones.items():
        assert page.locator("main").get_attribute("data-state") == "waiting"  # till it polls
        poll(page)
        assert page.title() == "▶ Table 1 — You're up" != titles[seed]
        assert page.locator("main").get_attribute("data-state") == "called"
        assert f"You're up: table 1 against {against[seed]}" in page.locator(".pv-now").inner_text()
