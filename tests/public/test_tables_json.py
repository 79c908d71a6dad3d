"""``/t/<slug>/tables.json`` (issue 33): the tables in play with their estimated finish and
the queue with its estimated starts; cached per public version; names only; constant
queries."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from engine import hands_left
from public.live import forget
from scoring.models import Hand
from tests.factories import make_bracket, make_tournament
from tests.scoring.helpers import knock, play, win_games
from tests.standings.test_standings import playable
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

NAMED = {"stage", "round", "label"}  # issue 41: each match named as the pages name it
TABLE_KEYS = {"table", "match", "players", "hands", "started_at", "estimated_finish", *NAMED}
QUEUE_KEYS = {"match", "players", "estimated_start", *NAMED}


def url(t: Tournament) -> str:
    return reverse("public:tables-json", kwargs={"slug": t.slug})


def paced(match: Match, hands: int, minutes: float, *, ago: float) -> None:
    """``hands`` small knocks played at ``match``, entered ``minutes`` apart, the last
    one ``ago`` minutes before now."""
    play(match, [knock("A" if n % 2 else "B", 5, 15) for n in range(hands)])
    last = timezone.now() - timedelta(minutes=ago)
    for number in range(1, hands + 1):
        when = last - timedelta(minutes=minutes * (hands - number))
        Hand.objects.filter(match=match, number=number).update(entered_at=when)
    Match.objects.filter(pk=match.pk).update(started_at=last - timedelta(minutes=minutes * hands))


def seated(t: Tournament) -> list[Match]:
    return sorted((m for m in playable(t) if m.table), key=lambda m: m.table)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.fixture
def room():
    """Eight players at two tables: table 1 quick (3 minutes a hand), table 2 slow (9),
    two quarterfinals queued."""
    t = make_bracket(players=8, tables=2)
    first, second = seated(t)
    paced(first, 4, 3, ago=1)
    paced(second, 4, 9, ago=1)
    return t


def test_the_contract(client, room):
    response = client.get(url(room))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert set(data) == {"tables", "queue"}
    assert [row["table"] for row in data["tables"]] == [1, 2]
    matches = {m.key: m for m in Match.objects.filter(tournament=room)}
    for row in data["tables"]:
        assert set(row) == TABLE_KEYS
        match = matches[row["match"]]
        assert match.table == row["table"]
        assert row["players"] == [match.side_a.name, match.side_b.name]
        assert row["hands"] == 4
        assert (row["stage"], row["round"]) == (None, "Quarterfinals")
        assert row["label"] == f"Quarterfinals · Match {match.position}"
        assert when(row["started_at"]) == match.started_at.replace(microsecond=0)
        # in play with a hand: an estimate, after its last hand
        assert when(row["estimated_finish"]) > timezone.now() - timedelta(minutes=1)
    assert len(data["queue"]) == 2
    for row in data["queue"]:
        assert set(row) == QUEUE_KEYS
        match = matches[row["match"]]
        assert match.table is None and match.status == Match.Status.READY
        assert row["players"] == [match.side_a.name, match.side_b.name]
    # The queue in the order tables are given, each the next table expected to be free.
    queued = sorted((matches[row["match"]] for row in data["queue"]), key=lambda m: m.position)
    assert [row["match"] for row in data["queue"]] == [m.key for m in queued]
    finishes = sorted(when(row["estimated_finish"]) for row in data["tables"])
    assert [when(row["estimated_start"]) for row in data["queue"]] == finishes


def test_a_slow_table_finishes_later(client, room):
    quick, slow = client.get(url(room)).json()["tables"]
    assert when(slow["estimated_finish"]) - when(quick["estimated_finish"]) > timedelta(minutes=5)


def test_no_hand_or_a_decided_match_has_no_estimate(client):
    t = make_bracket(players=8, tables=3)
    first, second, _third = seated(t)
    paced(first, 2, 4, ago=1)
    play(second, win_games("A", 3))  # decided: awaiting confirmation
    rows = client.get(url(t)).json()
    by_table = {row["table"]: row for row in rows["tables"]}
    assert by_table[1]["estimated_finish"] is not None
    assert by_table[2]["estimated_finish"] is None  # awaiting confirmation
    assert by_table[3]["estimated_finish"] is None and by_table[3]["started_at"] is None
    assert by_table[3]["hands"] == 0
    # The decided match's table is free first (now); then table 1's.
    (queued,) = rows["queue"]
    assert when(queued["estimated_start"]) < when(by_table[1]["estimated_finish"])


def test_a_queue_past_the_estimates_has_no_start(client):
    t = make_bracket(players=8, tables=1)
    (first,) = seated(t)
    paced(first, 2, 4, ago=1)
    queue = client.get(url(t)).json()["queue"]
    assert len(queue) == 3
    assert queue[0]["estimated_start"] is not None
    assert queue[1]["estimated_start"] is None and queue[2]["estimated_start"] is None


def test_before_the_bracket_it_is_empty(client):
    t = make_tournament()
    assert client.get(url(t)).json() == {"tables": [], "queue": []}


def test_cached_per_version_with_a_304(client, room):
    first = client.get(url(room))
    etag = first["ETag"]
    assert etag and "no-cache" in first["Cache-Control"]
    again = client.get(url(room), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    play(seated(room)[0], [knock("A", 5, 15)])  # a hand moves the public version on
    fresh = client.get(url(room), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert fresh.json()["tables"][0]["hands"] == 5


def test_a_render_after_one_hand_plays_out_that_table_only(client, room, monkeypatch):
    import standings.tables

    played = []

    def counted(sheet):
        played.append(len(sheet.hands))
        return hands_left(sheet)

    monkeypatch.setattr(standings.tables, "hands_left", counted)
    client.get(url(room))
    assert sorted(played) == [4, 4]
    play(seated(room)[1], [knock("B", 5, 15)])
    assert client.get(url(room)).json()["tables"][1]["hands"] == 5
    assert sorted(played) == [4, 4, 5]


def test_a_team_match_is_timed_deal_by_deal(client):
    from scoring.loading import sheet_for
    from tests import teams

    t = teams.team_bracket(teams=4)
    match = teams.first_match(t)
    teams.play_deals(match, [[teams.knock("A", 2, 18), teams.knock("B", 3, 15)]] * 3)
    last = timezone.now() - timedelta(minutes=1)
    for number in range(1, 7):  # boards 1-2 are deal 1: each deal 10 minutes, its boards 2 apart
        deal = (number + 1) // 2
        board = last - timedelta(minutes=10 * (3 - deal) + (2 if number % 2 else 0))
        Hand.objects.filter(match=match, number=number).update(entered_at=board)
    row = next(r for r in client.get(url(t)).json()["tables"] if r["match"] == match.key)
    assert row["hands"] == 3  # deals
    match.refresh_from_db()
    left = hands_left(sheet_for(match)).median
    # The room is this one table: 10 minutes a deal (its boards would say 2 and 8).
    expected = last + timedelta(minutes=10 * left)
    assert abs(when(row["estimated_finish"]) - expected) <= timedelta(seconds=1)


def test_names_only(client):
    t = make_bracket(players=4, tables=2)
    for entry in t.entries.select_related("player"):
        entry.player.email = f"p{entry.pk}@secret.example"
        entry.player.phone = "600 00 00"
        entry.player.save()
    body = client.get(url(t)).content.decode()
    assert "secret.example" not in body and "600 00" not in body


def count(client, t: Tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(t)).status_code == 200
    return len(captured)


def test_queries_do_not_grow_with_the_field(client, django_assert_num_queries):
    small, large = make_bracket(players=8, tables=2), make_bracket(players=32, tables=6)
    for t in (small, large):
        for match in seated(t):
            paced(match, 3, 4, ago=1)
    assert count(client, small) == count(client, large)
    forget()  # rendered again: neither this process's copy nor the shared cache's
    cache.clear()
    # The tournament with its version, its row, its matches, its hands (the read model),
    # the room's hand times and the tables' start times.
    with django_assert_num_queries(6):
        client.get(url(large))


def test_unknown_slug_and_writes(client):
    assert client.get(reverse("public:tables-json", kwargs={"slug": "nope"})).status_code == 404
    assert client.post(url(make_tournament())).status_code == 405
