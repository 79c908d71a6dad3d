"""The projector's estimates and self check-in (issue 33): each table in play says when it
is likely done, the queue when each match should get a table (the same times as
``tables.json``), and while self check-in is open every panel shows its code, large."""

from __future__ import annotations

import html
import re
from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.formats import get_format

from tests.factories import make_bracket, make_director, make_entries, make_tournament
from tests.public.test_tables_json import paced, seated
from tests.scoring.helpers import play, win_games
from tournaments import self_checkin
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def projector(client, t: Tournament, **query: str) -> str:
    response = client.get(reverse("public:display", kwargs={"slug": t.slug}), query)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def clock(moment: str) -> str:
    local = timezone.localtime(datetime.fromisoformat(moment))
    return time_format(local, get_format("TIME_FORMAT"))


def tables_json(client, t: Tournament) -> dict:
    return client.get(reverse("public:tables-json", kwargs={"slug": t.slug})).json()


def test_each_table_and_the_queue_show_their_estimates(client):
    t = make_bracket(players=8, tables=2)
    first, second = seated(t)
    paced(first, 4, 3, ago=1)
    paced(second, 4, 9, ago=1)
    page = projector(client, t, panel="tables")
    data = tables_json(client, t)
    articles = re.findall(r'<article class="pj-table.*?</article>', page, re.S)
    assert len(articles) == 2
    for article, row in zip(articles, data["tables"], strict=True):
        assert f"Table {row['table']}" in article
        assert f"likely done {clock(row['estimated_finish'])}" in article
    queue = page[page.index('class="pj-queue"') :].split("</p>")[0]
    for row in data["queue"]:
        assert f"(about {clock(row['estimated_start'])})" in queue


def test_a_table_without_a_hand_or_decided_has_no_estimate(client):
    t = make_bracket(players=8, tables=2)
    first, _second = seated(t)
    play(first, win_games("A", 3))
    page = projector(client, t, panel="tables")
    assert "likely done" not in page


def test_the_estimate_moves_on_with_a_hand(client):
    t = make_bracket(players=8, tables=1)
    (first,) = seated(t)
    paced(first, 3, 4, ago=1)
    before = tables_json(client, t)["tables"][0]["estimated_finish"]
    assert f"likely done {clock(before)}" in projector(client, t, panel="tables")
    paced(first, 1, 30, ago=0)  # a slow hand just now: later
    after = tables_json(client, t)["tables"][0]["estimated_finish"]
    assert after != before
    assert f"likely done {clock(after)}" in projector(client, t, panel="tables")


@pytest.fixture
def open_checkin():
    director = make_director()
    t = make_tournament(owner=director, status="registration")
    make_entries(tournament=t, count=4)
    return self_checkin.set_self_checkin(tournament=t, on=True, user=director)


def test_self_checkin_open_shows_its_code_on_every_panel(client, open_checkin):
    code = self_checkin.code_of_today(open_checkin)
    assert code
    page = projector(client, open_checkin)
    shown = re.findall(r'class="pj-checkin-code">([^<]+)<', page)
    assert shown == [code]
    assert "Check in on your phone" in page
    for panel in ("standings",):
        part = client.get(
            reverse("public:display", kwargs={"slug": open_checkin.slug}),
            {"panel": panel},
            HTTP_HX_REQUEST="true",
        )
        assert code in part.content.decode()


def test_self_checkin_closed_or_started_shows_no_code(client, open_checkin):
    code = self_checkin.code_of_today(open_checkin)
    self_checkin.set_self_checkin(tournament=open_checkin, on=False, user=open_checkin.owner)
    assert code not in projector(client, open_checkin)
    assert "pj-checkin" not in projector(client, open_checkin)


def test_in_spanish_and_afrikaans(client, open_checkin):
    for language, words in (("es", "Regístrate con tu móvil"), ("af", "Meld met jou foon aan")):
        client.cookies["django_language"] = language
        assert words in projector(client, open_checkin)
