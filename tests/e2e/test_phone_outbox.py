"""The phone's outbox (issue 32, static/js/outbox.js) on a 390×844 phone: a hand saved
while the Wi-Fi is gone, an answer lost after the server stored the hand, a second phone
entering the same hand, a dead server, a reload with an unsent hand, a correction whose
answer was lost. Each ends with the hand stored exactly once and the phone showing the
server's answer, with no further tap.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Hand
from tests.scoring.helpers import gin, knock, play, ready_match
from tournaments.models import Match

from .conftest import ARTIFACTS, wait_until
from .helpers import choose, enter_hand

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NOT_SENT = "Not sent yet: will send when the connection is back."
# Where the pictures of each state go (not committed): OUTBOX_SHOTS, or test-artifacts/.
SHOTS = Path(os.environ.get("OUTBOX_SHOTS", ARTIFACTS / "outbox"))


@pytest.fixture
def other_phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def fill_hand(page: Page, *, kind: str, by: str, deadwood: int | None = None, defender: int):
    form = page.locator("form.hand-form")
    choose(form, "kind", kind)
    choose(form, "by", by)
    if deadwood is not None:
        form.locator('input[name="deadwood"]').fill(str(deadwood))
    form.locator('input[name="defender_deadwood"]').fill(str(defender))


def save(page: Page) -> None:
    page.locator("form.hand-form").get_by_role("button", name="Save hand").click()


def hands(match: Match) -> list[tuple[int, str, str, int | None, int | None]]:
    return list(
        Hand.objects.filter(match=match)
        .order_by("number")
        .values_list("number", "kind", "by", "deadwood", "defender_deadwood")
    )


def state(page: Page, name: str):
    return expect(page.locator("#outbox")).to_have_class(re.compile(rf"\b{name}\b"))


def ends_saved(page: Page, *, next_hand: int, score: str) -> None:
    """The phone says "Saved", shows the new score and offers the next hand."""
    state(page, "saved")
    expect(page.locator("#outbox .outbox-state")).to_have_text("Saved")
    expect(page.get_by_role("heading", name=f"Enter hand {next_hand}")).to_be_visible()
    expect(page.locator("#match-head .scoreboard tr.current td").first).to_have_text(score)


def test_a_hand_saved_offline_is_kept_shown_and_sent_once_back_online(phone, live_server):
    match = ready_match()
    a = match.side_name("A")
    phone.goto(f"/table/{match.token}/")
    fill_hand(phone, kind="Knock", by=a, deadwood=2, defender=30)
    phone.context.set_offline(True)
    failed = []
    phone.on("requestfailed", lambda r: failed.append(r) if r.url.endswith("/hands/") else None)
    save(phone)

    box = phone.locator("#outbox")
    state(phone, "pending")
    expect(box).to_contain_text(NOT_SENT)
    for value in ("Hand 1", "Knock", a, "2", "30"):
        expect(box).to_contain_text(value)
    expect(box.get_by_role("button", name="Send now")).to_be_visible()
    # Still the form as typed: nothing lost, nothing stored.
    expect(phone.locator('input[name="defender_deadwood"]')).to_have_value("30")
    wait_until(phone, lambda: len(failed) >= 2, "a resend, still offline")
    assert hands(match) == []

    phone.context.set_offline(False)  # no tap: it goes by itself
    ends_saved(phone, next_hand=2, score="28")
    expect(box).to_contain_text("Hand 1")
    assert hands(match) == [(1, "knock", "A", 2, 30)]
    assert phone.evaluate("Object.keys(localStorage)") == []


def test_an_answer_lost_after_the_hand_was_stored_ends_on_saved(phone, live_server):
    match = ready_match()
    b = match.side_name("B")
    lost: list[int] = []

    def lose_the_answer(route):
        if lost:
            route.continue_()
            return
        lost.append(route.fetch().status)  # the server stores the hand and answers …
        route.abort("connectionreset")  # … and the Wi-Fi drops before the phone hears it

    phone.route("**/hands/", lose_the_answer)
    phone.goto(f"/table/{match.token}/")
    fill_hand(phone, kind="Gin", by=b, defender=10)
    save(phone)

    ends_saved(phone, next_hand=2, score="0")
    expect(phone.locator("#match-head .scoreboard tr.current td").last).to_have_text("35")
    assert lost == [200]
    assert hands(match) == [(1, "gin", "B", None, 10)]
    expect(phone.locator(".form-error")).to_have_count(0)  # never "already entered"


def test_the_second_phone_is_told_what_was_stored_and_from_which_phone(
    phone, other_phone, live_server
):
    match = ready_match()
    a, b = match.side_name("A"), match.side_name("B")
    phone.goto(f"/table/{match.token}/")
    other_phone.goto(f"/table/{match.token}/")
    fill_hand(other_phone, kind="Gin", by=b, defender=10)  # the other phone is still typing

    enter_hand(phone, kind="Knock", by=a, deadwood=2, defender=30)  # A +28
    label = next(c["value"] for c in phone.context.cookies() if c["name"] == "ginclub_phone")
    save(other_phone)

    refusal = other_phone.locator("#match-entry .form-error")
    expect(refusal).to_contain_text(
        f"Hand 1 was already entered from phone {label} at table 1: {a} knocked: 2 v 30."
    )
    expect(refusal).to_contain_text("Yours was not saved.")
    # Beside what was stored, what this phone had sent.
    state(other_phone, "refused")
    expect(other_phone.locator("#outbox .outbox-state")).to_have_text("Not saved. This phone sent:")
    expect(other_phone.locator("#outbox .outbox-what")).to_contain_text(f"Gin · {b}")
    expect(other_phone.locator("#match-head .scoreboard tr.current td").first).to_have_text("28")
    expect(other_phone.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    assert hands(match) == [(1, "knock", "A", 2, 30)]


def test_a_hand_sent_to_a_dead_server_is_resent_once_it_is_back(phone, live_server):
    match = ready_match()
    a = match.side_name("A")
    server = {"down": True, "tries": 0}
    asleep = []

    def dead_server(route):
        if not server["down"]:
            route.continue_()
            return
        if not route.request.url.endswith("/hands/"):
            route.abort("connectionrefused")
            return
        server["tries"] += 1
        if server["tries"] == 1:
            asleep.append(route)  # the laptop is asleep: no answer at all (timeout)
        elif server["tries"] == 2:
            route.fulfill(status=502, body="Bad Gateway")  # the venue's proxy, no server
        else:
            route.abort("connectionrefused")  # restarting

    phone.goto(f"/table/{match.token}/")
    fill_hand(phone, kind="Knock", by=a, deadwood=4, defender=24)
    phone.route("**/*", dead_server)
    save(phone)
    state(phone, "sending")
    # Noticed after the request's own timeout, not left "Sending…" for ever.
    expect(phone.locator("#outbox")).to_contain_text(NOT_SENT, timeout=15_000)
    wait_until(phone, lambda: server["tries"] >= 3, "the third try")
    assert hands(match) == []

    server["down"] = False
    ends_saved(phone, next_hand=2, score="20")
    assert hands(match) == [(1, "knock", "A", 4, 24)]
    for route in asleep:
        with contextlib.suppress(Exception):
            route.abort()


def test_a_reloaded_page_still_shows_its_unsent_hand_then_sends_it(phone, live_server):
    match = ready_match()
    a = match.side_name("A")
    phone.route("**/hands/", lambda route: route.abort("connectionrefused"))
    phone.goto(f"/table/{match.token}/")
    fill_hand(phone, kind="Knock", by=a, deadwood=1, defender=41)
    save(phone)
    state(phone, "pending")

    phone.reload()
    box = phone.locator("#outbox")
    expect(box).to_contain_text(NOT_SENT)
    for value in ("Hand 1", "Knock", a, "41"):
        expect(box).to_contain_text(value)
    assert hands(match) == []

    phone.unroute("**/hands/")
    ends_saved(phone, next_hand=2, score="40")
    assert hands(match) == [(1, "knock", "A", 1, 41)]


def test_a_correction_whose_answer_was_lost_is_resent_and_done_once(phone, live_server):
    match = ready_match()
    play(match, [knock("A", 2, 30)])  # A +28
    match.refresh_from_db()
    version = match.version
    lost: list[int] = []

    def lose_the_confirmed_answer(route):
        if lost or "confirm=1" not in (route.request.post_data or ""):
            route.continue_()
            return
        lost.append(route.fetch(max_redirects=0).status)
        route.abort("connectionreset")

    phone.route("**/hands/1/edit/", lose_the_confirmed_answer)
    phone.goto(f"/table/{match.token}/hands/1/edit/")
    phone.locator('input[name="defender_deadwood"]').fill("40")
    phone.get_by_role("button", name="Check the correction").click()
    confirm = phone.get_by_role("button", name="Yes, save the correction")
    expect(confirm).to_be_visible()
    # The confirmation is a page of its own: its outbox script runs by the time it has
    # loaded. Tapped before that (CI, busy), the form went without the outbox, so the lost
    # answer was the browser's error page, not a resend.
    phone.wait_for_load_state("load")
    confirm.click()

    expect(phone.locator(".message")).to_have_text(["Hand 1 corrected."])  # said once
    expect(phone.locator("#match-head .scoreboard tr.current td").first).to_have_text("38")
    assert lost == [302]
    assert hands(match) == [(1, "knock", "A", 2, 40)]
    match.refresh_from_db()
    assert match.version == version + 1  # changed once


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Sending…", NOT_SENT, "Saved", "Yours was not saved.", "Not saved.")),
        (
            "es",
            (
                "Enviando…",
                "Aún no enviado: se enviará cuando vuelva la conexión.",
                "Guardado",
                "La tuya no se guardó.",
                "No guardado.",
            ),
        ),
        (
            "af",
            (
                "Stuur tans…",
                "Nog nie gestuur nie: dit word gestuur sodra die verbinding terug is.",
                "Gestoor",
                "Joune is nie gestoor nie.",
                "Nie gestoor nie.",
            ),
        ),
    ],
)
def test_each_state_in_each_language(phone, other_phone, live_server, language, words):
    """Not sent, sending, saved and refused, as the players read them (and pictured)."""
    sending, not_sent, saved, refused, not_saved = words
    match = ready_match()
    a = match.side_name("A")
    for page in (phone, other_phone):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.goto(f"/table/{match.token}/")
    box = phone.locator("#outbox")
    SHOTS.mkdir(parents=True, exist_ok=True)

    def picture(page: Page, name: str) -> None:
        page.screenshot(path=str(SHOTS / f"{language}-{name}.png"))

    form = phone.locator("form.hand-form")
    form.locator(".field-kind label.choice").first.click()  # knock
    form.locator(".field-by label.choice").first.click()  # A
    form.locator('input[name="deadwood"]').fill("3")
    form.locator('input[name="defender_deadwood"]').fill("25")
    other = other_phone.locator("form.hand-form")
    other.locator(".field-kind label.choice").nth(1).click()  # gin
    other.locator(".field-by label.choice").nth(1).click()  # B
    other.locator('input[name="defender_deadwood"]').fill("12")

    phone.context.set_offline(True)
    form.locator('button[type="submit"]:not([name])').click()
    expect(box.locator(".outbox-state")).to_have_text(not_sent)
    expect(box).to_contain_text(a)
    picture(phone, "1-not-sent")

    held = []
    phone.route("**/hands/", lambda route: held.append(route))
    phone.context.set_offline(False)
    expect(box.locator(".outbox-state")).to_have_text(sending)
    picture(phone, "2-sending")
    wait_until(phone, lambda: bool(held), "the resend")
    held[0].continue_()
    expect(box.locator(".outbox-state")).to_have_text(saved)
    expect(phone.locator("#match-head .scoreboard tr.current td").first).to_have_text("22")
    picture(phone, "3-saved")

    other_phone.locator('form.hand-form button[type="submit"]:not([name])').click()
    expect(other_phone.locator("#match-entry .form-error")).to_contain_text(refused)
    expect(other_phone.locator("#outbox .outbox-state")).to_contain_text(not_saved)
    expect(other_phone.locator("#match-head .scoreboard tr.current td").first).to_have_text("22")
    picture(other_phone, "4-refused")
    assert hands(match) == [(1, "knock", "A", 3, 25)]


def test_a_hand_entered_elsewhere_refreshes_an_untouched_form_and_keeps_a_started_one(
    phone, other_phone, live_server
):
    match = ready_match()
    a, b = match.side_name("A"), match.side_name("B")
    phone.goto(f"/table/{match.token}/")
    other_phone.goto(f"/table/{match.token}/")
    fill_hand(other_phone, kind="Gin", by=b, defender=10)  # started, not sent
    play(match, [knock("A", 2, 30)])  # entered elsewhere: A +28

    for page in (phone, other_phone):  # back from a Wi-Fi drop: the score is checked
        page.context.set_offline(True)
        page.context.set_offline(False)
        expect(page.locator("#match-head .scoreboard tr.current td").first).to_have_text("28")
    # Untouched: the next hand's form, for the score shown.
    expect(phone.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    expect(phone.locator("#outbox")).to_be_hidden()
    # Started: kept as typed, for the hand it was (the server will say what hand 1 holds).
    expect(other_phone.locator("#outbox")).to_contain_text(
        "The score changed: a hand was entered on another phone or screen."
    )
    expect(other_phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    expect(other_phone.locator('input[name="defender_deadwood"]')).to_have_value("10")
    save(other_phone)
    expect(other_phone.locator("#match-entry .form-error")).to_contain_text(
        f"Hand 1 was already entered from another phone: {a} knocked: 2 v 30."
    )
    expect(other_phone.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    assert hands(match) == [(1, "knock", "A", 2, 30)]


def test_a_confirmation_whose_answer_was_lost_ends_on_the_confirmed_result(phone, live_server):
    match = ready_match(preset="modern")  # one game to 100
    play(match, [gin("A", 98)])  # decided: waiting for the loser's confirmation
    b = match.side_name("B")
    lost: list[int] = []

    def lose_the_answer(route):
        if lost:
            route.continue_()
            return
        lost.append(route.fetch(max_redirects=0).status)
        route.abort("connectionreset")

    phone.route("**/confirm/", lose_the_answer)
    phone.goto(f"/table/{match.token}/")
    phone.get_by_role("button", name=f"I, {b}, confirm the result").click()

    expect(phone.locator(".message")).to_have_text(["Result confirmed. Thank you!"])
    assert lost == [302]
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_the_outbox_says_the_time_as_every_other_screen(browser, live_server, language):
    """The outbox said "06:40 PM" where the server's pages say "6:40 p.m." (issue 41): it
    writes the language's TIME_FORMAT with Django's own words, as the pages do."""
    import datetime

    from django.utils import formats, translation

    context = browser.new_context(base_url=live_server.url, timezone_id="UTC", **PHONE)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    match = ready_match()
    page.goto(f"/table/{match.token}/")
    page.clock.set_fixed_time(datetime.datetime(2026, 11, 25, 18, 40, tzinfo=datetime.UTC))
    form = page.locator("form.hand-form")
    form.locator(".field-kind label.choice").first.click()  # knock
    form.locator(".field-by label.choice").first.click()  # A
    form.locator('input[name="deadwood"]').fill("2")
    form.locator('input[name="defender_deadwood"]').fill("30")
    page.context.set_offline(True)

    form.locator('button[type="submit"]:not([name])').click()

    with translation.override(language):
        expected = formats.time_format(datetime.time(18, 40))
    assert expected == {"en": "6:40 p.m.", "es": "18:40", "af": "18:40"}[language]
    expect(page.locator("#outbox .outbox-what strong")).to_have_text(
        re.compile(rf" · {re.escape(expected)}$")
    )
    page.screenshot(path=str(ARTIFACTS / f"outbox-time-{language}.png"))
    context.close()
