"""Round control's "When the tables should be done" (issue 33): each table in play with its
likely finish and range, a table far behind the room's pace flagged, the queue with when
each match should get a table; the same estimates as ``tables.json``; constant queries."""

from __future__ import annotations

import html
import re
from datetime import datetime

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.formats import get_format

from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import paced, seated
from tests.scoring.helpers import play, win_games
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def round_control(client, t: Tournament) -> str:
    client.force_login(t.owner)
    response = client.get(reverse("tournaments:round-control", kwargs={"slug": t.slug}))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def region(page: str) -> str:
    found = re.search(r'<section id="table-estimates".*?</section>', page, re.S)
    assert found, "no estimates on Round control"
    return found.group(0)


def rows(part: str) -> dict[str, str]:
    """Each table's row text, by "Table N"."""
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", part, re.S):
        text = " ".join(re.sub(r"<[^>]+>", " ", row).split())
        found = re.match(r"(Table \d+)", text)
        if found:
            out[found.group(1)] = text
    return out


def clock(moment: str) -> str:
    """An ISO time as Round control shows it (the language's TIME_FORMAT)."""
    return time_format(
        timezone.localtime(datetime.fromisoformat(moment)), get_format("TIME_FORMAT")
    )


@pytest.fixture
def room():
    """Three tables: 1 and 2 at 3 minutes a hand, 3 at 9 (far behind); five queued."""
    t = make_bracket(players=16, tables=3, owner=make_director())
    for match, minutes in zip(seated(t), (3, 3, 9), strict=True):
        paced(match, 4, minutes, ago=1)
    return t


def test_each_table_says_when_it_is_likely_done_as_tables_json_does(client, room):
    part = region(round_control(client, room))
    estimates = client.get(reverse("public:tables-json", kwargs={"slug": room.slug})).json()
    shown = rows(part)
    assert set(shown) == {"Table 1", "Table 2", "Table 3"}
    for table in estimates["tables"]:
        text = shown[f"Table {table['table']}"]
        assert f"likely done {clock(table['estimated_finish'])}" in text, text
        # Two times, as the language's TIME_FORMAT writes them: "3:54 p.m.", "8 p.m."
        assert re.search(r"between \d+(:\d\d)?\D* and \d+(:\d\d)?", text), text
    queued = [clock(q["estimated_start"]) for q in estimates["queue"] if q["estimated_start"]]
    assert queued, "the queue has estimated starts"
    assert [f"about {at}" in part for at in queued] == [True] * len(queued)


def test_a_table_far_behind_the_room_is_flagged(client, room):
    shown = rows(region(round_control(client, room)))
    assert "behind the room's pace" in shown["Table 3"]
    assert "behind the room's pace" not in shown["Table 1"] + shown["Table 2"]


def test_a_decided_table_and_one_without_a_hand_say_so(client):
    t = make_bracket(players=8, tables=3, owner=make_director())
    first, second, _third = seated(t)
    paced(first, 2, 4, ago=1)
    play(second, win_games("A", 3))
    shown = rows(region(round_control(client, t)))
    assert "likely done" in shown["Table 1"]
    assert "decided: free once confirmed" in shown["Table 2"]
    assert "no hand yet" in shown["Table 3"]


def test_in_spanish(client, room):
    client.force_login(room.owner)
    client.cookies["django_language"] = "es"
    response = client.get(reverse("tournaments:round-control", kwargs={"slug": room.slug}))
    page = html.unescape(response.content.decode())
    assert "Cuándo deberían terminar las mesas" in page
    assert "probablemente termina" in page


def render(t: Tournament) -> str:
    return Template("{% load table_estimates %}{% table_estimates t %}").render(Context({"t": t}))


def test_queries_do_not_grow_with_the_tables(django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players, tables in ((4, 2), (16, 8)):
        t = make_bracket(players=players, tables=tables)
        for match in seated(t):
            paced(match, 3, 4, ago=1)
        with CaptureQueriesContext(connection) as captured:
            assert "likely done" in render(t)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts
