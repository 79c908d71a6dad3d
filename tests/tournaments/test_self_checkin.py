"""Self check-in (issue 33): the director turns it on and gets a code of today; a player
types it on their page and is checked in (audited, shown to the director); every refusal
says why and changes nothing; wrong codes are limited per phone, and per address only as
a wide backstop (issue 41); only the tournament's directors can turn it on or off."""

from __future__ import annotations

import datetime
import html
import re
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format

from public import checkin_guesses
from public.checkin_guesses import ADDRESS_LIMIT, DEVICE_LIMIT
from public.checkin_guesses import WINDOW as GUESS_WINDOW
from tests.factories import make_director, make_entries, make_tournament
from tournaments import registration, self_checkin
from tournaments.draw import generate_bracket
from tournaments.models import AuditEntry, Entry, Tournament
from web import limiter

pytestmark = pytest.mark.django_db


def registering(count: int = 4) -> Tournament:
    t = make_tournament()
    make_entries(tournament=t, count=count)
    return t


def turned_on(t: Tournament) -> str:
    on = self_checkin.set_self_checkin(tournament=t, on=True, user=t.owner)
    return on.checkin_code


def first(t: Tournament) -> Entry:
    return t.entries.order_by("seed").first()


def check_in_url(t: Tournament, e: Entry) -> str:
    return reverse("public:self-check-in", kwargs={"slug": t.slug, "entry_id": e.pk})


def player_url(t: Tournament, e: Entry) -> str:
    return reverse("public:player", kwargs={"slug": t.slug, "entry_id": e.pk})


def toggle_url(t: Tournament) -> str:
    return reverse("tournaments:entry-self-checkin", kwargs={"slug": t.slug})


def said(client, t: Tournament, e: Entry, code: str) -> str:
    """The message the player's page shows after sending ``code``."""
    response = client.post(check_in_url(t, e), {"code": code}, follow=True)
    assert response.redirect_chain[-1] == (player_url(t, e), 302)
    found = re.search(r'<li class="message ([a-z ]+)">([^<]+)</li>', response.content.decode())
    assert found is not None
    return found.group(2)


def test_a_code_is_four_clear_characters_new_each_time_it_is_turned_on():
    t = registering()
    codes = {turned_on(t) for _n in range(8)}
    assert len(codes) > 1
    for code in codes:
        assert len(code) == 4 and not set(code) & set("0O1I")
        assert set(code) <= set(self_checkin.ALPHABET)
    t.refresh_from_db()
    assert self_checkin.code_of_today(t) == t.checkin_code
    assert t.checkin_code_date == timezone.localdate()


def test_a_code_of_another_day_is_closed():
    t = registering()
    turned_on(t)
    Tournament.objects.filter(pk=t.pk).update(
        checkin_code_date=timezone.localdate() - datetime.timedelta(days=1)
    )
    t.refresh_from_db()
    assert self_checkin.code_of_today(t) == "" and not self_checkin.is_open(t)


def test_the_right_code_checks_the_player_in_audited_and_shown_to_the_director(client):
    t = registering()
    code = turned_on(t)
    e = first(t)
    html = client.get(player_url(t, e)).content.decode()
    assert 'data-state="check-in"' in html and 'name="code"' in html
    assert said(client, t, e, code.lower()) == "You are checked in."
    e.refresh_from_db()
    assert e.checked_in and e.self_checked_in
    logged = AuditEntry.objects.get(action="entry checked in by the player")
    assert logged.user is None and logged.via == "player's page"
    html = client.get(player_url(t, e)).content.decode()
    assert 'data-state="waiting"' in html and 'name="code"' not in html
    client.force_login(t.owner)
    entries = client.get(reverse("tournaments:entry-list", kwargs={"slug": t.slug}))
    html = entries.content.decode()
    assert code in html and html.count("by the player") == 1
    # Checked out and in again by hand: no longer "by the player".
    registration.set_entry_flag(entry=e, field="checked_in", value=False, user=t.owner)
    e.refresh_from_db()
    assert not e.self_checked_in


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("wrong", "That is not the code: look again at the door."),
        ("off", "Self check-in is closed: ask the director."),
        ("stale", "Self check-in is closed: ask the director."),
        ("drawn", "Check-in is over: the tournament has started. Ask the director."),
        ("started", "Check-in is over: the tournament has started. Ask the director."),
        ("already", "You are already checked in."),
    ],
)
def test_refusals_say_why_and_change_nothing(client, setup, message):
    t = registering()
    code = turned_on(t)
    e = first(t)
    if setup == "wrong":
        code = "ZZZZ" if code != "ZZZZ" else "YYYY"
    elif setup == "off":
        self_checkin.set_self_checkin(tournament=t, on=False, user=t.owner)
    elif setup == "stale":
        day = timezone.localdate() - datetime.timedelta(days=1)
        Tournament.objects.filter(pk=t.pk).update(checkin_code_date=day)
    elif setup == "drawn":
        generate_bracket(tournament=t, user=t.owner)  # the draw starts it: the code is over
    elif setup == "started":
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    elif setup == "already":
        registration.set_entry_flag(entry=e, field="checked_in", value=True, user=t.owner)
    before = list(Entry.objects.order_by("pk").values_list("checked_in", "self_checked_in"))
    audited = AuditEntry.objects.count()
    assert said(client, t, e, code) == message
    after = list(Entry.objects.order_by("pk").values_list("checked_in", "self_checked_in"))
    assert after == before and AuditEntry.objects.count() == audited


def wrong_code(code: str) -> str:
    return "ZZZZ" if code != "ZZZZ" else "YYYY"


def wait_until(when: float) -> str:
    """The time a refusal names for a window ending at ``when`` (a Unix time): its minute,
    rounded up, in the active language's time format."""
    moment = timezone.localtime(datetime.datetime.fromtimestamp(when, tz=datetime.UTC))
    return time_format(moment.replace(second=0, microsecond=0) + datetime.timedelta(minutes=1))


@pytest.fixture
def clock(monkeypatch):
    """time.time(), which the cache and the limiter read, held still until moved."""
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def test_one_phones_wrong_codes_lock_out_that_phone_only(clock):
    """Issue 41: 20 wrong codes from one phone, then 16 other phones behind the same
    address, each with the right code for its own player: all 16 check in."""
    t = registering(17)
    code = turned_on(t)
    guesser, *others = list(t.entries.order_by("seed"))
    phone = Client()
    answers = [said(phone, t, guesser, wrong_code(code)) for _n in range(20)]
    until = wait_until(clock[0] + GUESS_WINDOW)
    assert answers[:DEVICE_LIMIT] == ["That is not the code: look again at the door."] * 10
    phone_wait = (
        f"Too many wrong codes from this phone: try again after {until}, or check in at the desk."
    )
    assert answers[DEVICE_LIMIT:] == [phone_wait] * 10
    # The last ten were turned away unread: the address counted only the ten read.
    assert limiter.failures("127.0.0.1", counter=checkin_guesses.ADDRESS_GUESSES) == 10
    for entry in others:
        assert said(Client(), t, entry, code) == "You are checked in."
    assert Entry.objects.filter(checked_in=True).count() == 16
    # The guessing phone, even with the right code, waits until its window ends...
    assert said(phone, t, guesser, code) == phone_wait
    assert not Entry.objects.get(pk=guesser.pk).checked_in
    clock[0] += GUESS_WINDOW + 1
    # ...and then gets in.
    assert said(phone, t, guesser, code) == "You are checked in."


def test_a_phone_is_given_its_id_with_its_first_answer_and_counted_by_it():
    t = registering()
    code = turned_on(t)
    e = first(t)
    phone = Client()
    phone.post(check_in_url(t, e), {"code": wrong_code(code)})
    cookie = phone.cookies[checkin_guesses.COOKIE]
    assert cookie["path"] == "/t/" and cookie["httponly"]
    device = cookie.value
    assert limiter.failures(device, counter=checkin_guesses.DEVICE_GUESSES) == 1
    phone.post(check_in_url(t, e), {"code": wrong_code(code)})
    assert phone.cookies[checkin_guesses.COOKIE].value == device  # kept, not given again
    assert limiter.failures(device, counter=checkin_guesses.DEVICE_GUESSES) == 2


def test_a_phone_that_refuses_cookies_is_counted_by_its_address_only():
    t = registering(3)
    code = turned_on(t)
    e = first(t)
    for _n in range(DEVICE_LIMIT + 5):
        # A new Client each time: no cookie kept, a new id every code.
        assert said(Client(), t, e, wrong_code(code)) == (
            "That is not the code: look again at the door."
        )
    assert limiter.failures("127.0.0.1", counter=checkin_guesses.ADDRESS_GUESSES) == 15


def test_the_address_is_a_wide_backstop(clock, monkeypatch):
    t = registering(3)
    code = turned_on(t)
    e, other, elsewhere = list(t.entries.order_by("seed"))
    # Phones behind one address guessing: each new (no cookie kept), none past its own.
    started = clock[0]
    for n in range(ADDRESS_LIMIT - 5):  # counted straight away, to spare the test time
        clock[0] = started + n  # a guess a second
        checkin_guesses.count_wrong(checkin_guesses.Guesser(f"phone-{n}", "127.0.0.1", True))
    for _n in range(5):
        assert said(Client(), t, e, wrong_code(code)) == (
            "That is not the code: look again at the door."
        )
    assert limiter.failures("127.0.0.1", counter=checkin_guesses.ADDRESS_GUESSES) == ADDRESS_LIMIT
    until = wait_until(started + GUESS_WINDOW)
    # A phone that never guessed, behind that address, waits too (with where to go)...
    assert said(Client(), t, other, code) == (
        f"Too many wrong codes from this network: try again after {until}, or check in at the desk."
    )
    assert not Entry.objects.get(pk=other.pk).checked_in
    # ...a phone elsewhere does not.
    response = Client().post(check_in_url(t, elsewhere), {"code": code}, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 302 and Entry.objects.get(pk=elsewhere.pk).checked_in
    clock[0] = started + GUESS_WINDOW + 1
    assert said(Client(), t, other, code) == "You are checked in."


@pytest.mark.parametrize(
    ("language", "wording"),
    [
        (
            "en",
            "Too many wrong codes from this phone: try again after {}, or check in at the desk.",
        ),
        (
            "es",
            "Demasiados códigos erróneos desde este teléfono: vuelve a intentarlo después de "
            "las {}, o regístrate en la mesa de entrada.",
        ),
        (
            "af",
            "Te veel verkeerde kodes van hierdie foon af: probeer weer ná {}, of teken in by "
            "die toonbank.",
        ),
    ],
    ids=["en", "es", "af"],
)
def test_the_wait_is_said_in_the_tournaments_language_with_its_time_format(
    clock, language, wording
):
    t = registering()
    Tournament.objects.filter(pk=t.pk).update(language=language)
    t.refresh_from_db()
    code = turned_on(t)
    e = first(t)
    phone = Client()
    for _n in range(DEVICE_LIMIT):
        said(phone, t, e, wrong_code(code))
    with translation.override(language):
        until = wait_until(clock[0] + GUESS_WINDOW)
    assert said(phone, t, e, code) == html.escape(wording.format(until), quote=True)
    if language != "en":
        assert re.fullmatch(r"\d\d:\d\d", until)  # 24-hour, as every other screen


def test_without_self_check_in_the_page_sends_the_player_to_the_desk(client):
    t = registering()
    html = client.get(player_url(t, first(t))).content.decode()
    assert "Check in with the director at the desk." in html and 'name="code"' not in html


def test_the_directors_turn_it_on_and_off_and_nobody_else(client):
    t = registering()
    assert client.post(toggle_url(t), {"on": "1"}).status_code == 302  # to log in
    other = make_director()
    client.force_login(other)
    assert client.post(toggle_url(t), {"on": "1"}).status_code == 403
    t.refresh_from_db()
    assert not t.self_checkin
    client.force_login(t.owner)
    response = client.post(toggle_url(t), {"on": "1"}, follow=True)
    t.refresh_from_db()
    assert t.self_checkin and t.checkin_code in response.content.decode()
    assert "Turn self check-in off" in response.content.decode()
    client.post(toggle_url(t), {"on": "0"})
    t.refresh_from_db()
    assert not t.self_checkin and self_checkin.code_of_today(t) == ""
    assert [
        a.action
        for a in AuditEntry.objects.filter(action__startswith="self check-in").order_by("pk")
    ] == [
        "self check-in on",
        "self check-in off",
    ]


def test_it_cannot_be_turned_on_once_the_tournament_started(client):
    t = registering()
    generate_bracket(tournament=t, user=t.owner)
    client.force_login(t.owner)
    response = client.post(toggle_url(t), {"on": "1"}, follow=True)
    t.refresh_from_db()
    assert not t.self_checkin
    assert "The tournament has started: check-in is over." in response.content.decode()
