"""Self check-in (issue 33): the director turns it on and gets a code of today; a player
types it on their page and is checked in (audited, shown to the director); every refusal
says why and changes nothing; wrong codes are limited per address; only the tournament's
directors can turn it on or off."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from public.views.checkin import GUESS_LIMIT
from tests.factories import make_director, make_entries, make_tournament
from tournaments import registration, self_checkin
from tournaments.draw import generate_bracket
from tournaments.models import AuditEntry, Entry, Tournament

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


def test_wrong_codes_are_limited_per_address(client):
    t = registering()
    code = turned_on(t)
    e = first(t)
    wrong = "ZZZZ" if code != "ZZZZ" else "YYYY"
    for _n in range(GUESS_LIMIT):
        assert said(client, t, e, wrong) == "That is not the code: look again at the door."
    # Past the limit even the right code is turned away, unread, from that address.
    assert said(client, t, e, code) == "Too many wrong codes from here: wait a few minutes."
    assert not Entry.objects.get(pk=e.pk).checked_in
    other = client.post(check_in_url(t, e), {"code": code}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302 and Entry.objects.get(pk=e.pk).checked_in


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
