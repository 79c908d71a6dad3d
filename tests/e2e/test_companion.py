"""The player's page on a phone (issue 33): waiting for a table, then called to one when it
frees; the next poll brings the state "called", and the page makes itself noticed: its
state on the main element, the title flashing the call, the phone vibrating, and the
sound only when the player switched it on. The browser's clock is Playwright's, so the
poll timers run in an instant; the requests are real."""

from __future__ import annotations

import pytest

from public.live import POLL_SECONDS
from tests.e2e.conftest import answered
from tests.public.test_find import NAMES, entry, field, match_of, player_url
from tests.standings.test_standings import play_match, quick_match

pytestmark = pytest.mark.django_db(transaction=True)

# What the page's script asks of the phone, recorded instead of done.
RECORD = """
window.__vibrated = [];
window.__played = [];
navigator.vibrate = function (pattern) { window.__vibrated.push(pattern); return true; };
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src);
  return Promise.resolve();
};
"""


def poll(page) -> None:
    page.clock.run_for((POLL_SECONDS + 1) * 1000)
    answered(page)


@pytest.mark.parametrize("sound", [False, True])
def test_a_waiting_player_is_called_when_a_table_frees(phone, live_server, monkeypatch, sound):
    monkeypatch.setattr("public.live.RERENDER_SECONDS", 0)
    t = field(NAMES[:4], tables=1)
    seed = 2  # 2 v 3 waits for the only table, which 1 v 4 holds
    phone.add_init_script(RECORD)
    phone.clock.install()
    phone.goto(player_url(t, entry(t, seed)))
    main = phone.locator("main")
    assert main.get_attribute("data-state") == "waiting"
    assert phone.locator("#companion-sound").is_visible()  # the script shows the switch
    if sound:
        phone.locator("#companion-sound").check()
        assert phone.evaluate("localStorage.getItem('ginclub.companion.sound')") == "1"
        phone.evaluate("window.__played = []")  # the tap's own test of the sound
    title = phone.title()

    poll(phone)  # nothing changed: nothing noticed
    assert phone.evaluate("window.__vibrated") == []

    play_match(match_of(t, 1), "A", quick_match)  # table 1 frees: 2 v 3 is called to it
    poll(phone)
    assert main.get_attribute("data-state") == "called"
    assert "You're up: table 1 against María Núñez" in phone.locator(".pv-now").inner_text()
    assert phone.title() == "▶ Table 1 — You're up"
    phone.clock.run_for(1000)
    assert phone.title() == title  # flashing: the page's own title, then the call again
    phone.clock.run_for(1000)
    assert phone.title() == "▶ Table 1 — You're up"
    assert len(phone.evaluate("window.__vibrated")) == 1
    played = phone.evaluate("window.__played")
    if sound:
        assert len(played) == 1 and played[0].endswith("/static/sounds/called.wav")
    else:
        assert played == []

    poll(phone)  # still called: noticed once, not at every poll
    assert len(phone.evaluate("window.__vibrated")) == 1


def test_a_player_checks_in_with_the_code_on_their_phone_a_wrong_one_refused(phone):
    from tournaments import self_checkin

    t = field(NAMES[:4], draw=False)
    code = self_checkin.set_self_checkin(tournament=t, on=True, user=t.owner).checkin_code
    phone.goto(player_url(t, entry(t, 1)))
    assert phone.locator("main").get_attribute("data-state") == "check-in"
    wrong = "ZZZZ" if code != "ZZZZ" else "YYYY"
    phone.get_by_label("The check-in code shown at the door").fill(wrong)
    phone.get_by_role("button", name="Check me in").click()
    assert "That is not the code" in phone.locator(".messages").inner_text()
    assert phone.locator("main").get_attribute("data-state") == "check-in"
    phone.get_by_label("The check-in code shown at the door").fill(code.lower())
    phone.get_by_role("button", name="Check me in").click()
    assert "You are checked in." in phone.locator(".messages").inner_text()
    assert phone.locator("main").get_attribute("data-state") == "waiting"
    assert entry(t, 1).checked_in and entry(t, 1).self_checked_in
