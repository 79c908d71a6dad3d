"""The permission matrix: every write URL of the director's screens refuses anonymous
visitors (login redirect), another director, and scorekeepers (403), and changes nothing.

Club-wide registry URLs are for any director, so there "another director" is allowed by
design; they are checked against anonymous visitors and non-director accounts. Editing one
player is for a registrar or the director who added that player (more in
test_registry_roles.py).
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from tests.factories import make_bracket as _make_bracket
from tests.factories import (
    make_director,
    make_player,
    make_tournament,
    make_user,
)
from tournaments import services
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    owner = make_director(username="owner")
    keeper = make_user(username="keeper")
    t = make_tournament(owner=owner, name="Spring Open", scorekeepers=(keeper,))
    _make_bracket(tournament=t, players=4)
    match = Match.objects.get(tournament=t, key="W1-1")
    services.set_match_progress(
        match=match,
        score_a=1,
        score_b=0,
        total_a=150,
        total_b=20,
        decided_winner="A",
        has_hands=True,
    )
    other = make_director(username="rival")
    make_tournament(owner=other, name="Rival Cup")
    elsewhere_keeper = make_user(username="elsewhere")
    make_tournament(owner=other, name="Rival Night", scorekeepers=(elsewhere_keeper,))
    entry = Entry.objects.filter(tournament=t).first()
    return {
        "t": t,
        "owner": owner,
        "keeper": keeper,
        "other": other,
        "elsewhere": elsewhere_keeper,
        "entry": entry,
        "match": match,
        "player": make_player(name="Registry Person"),
    }


def _csv():
    upload = io.BytesIO(b"name,email\nNew Person,new@example.com\n")
    upload.name = "players.csv"
    return upload


# (url name, kwargs builder, POST data builder)
TOURNAMENT_WRITES = [
    (
        "tournaments:tournament-setup",
        lambda w: {},
        lambda w: {
            "name": "Hijacked",
            "preset": "modern",
            "tables": 3,
            "date": "2030-01-01",
            "page_size": "A4",
            "language": "en",
            "bracket_kind": "round_robin",
        },
    ),
    ("tournaments:tournament-status", lambda w: {}, lambda w: {"status": "draft"}),
    ("tournaments:entry-add", lambda w: {}, lambda w: {"player": w["player"].pk}),
    ("tournaments:entry-new", lambda w: {}, lambda w: {"new-name": "Sneaky"}),
    ("tournaments:entry-seed-by-rating", lambda w: {}, lambda w: {}),
    ("tournaments:entry-seed", lambda w: {"entry_id": w["entry"].pk}, lambda w: {"seed": 9}),
    (
        "tournaments:entry-flag",
        lambda w: {"entry_id": w["entry"].pk, "field": "paid"},
        lambda w: {"value": "1"},
    ),
    ("tournaments:entry-withdraw", lambda w: {"entry_id": w["entry"].pk}, lambda w: {}),
    ("tournaments:entry-reinstate", lambda w: {"entry_id": w["entry"].pk}, lambda w: {}),
    ("tournaments:entry-remove", lambda w: {"entry_id": w["entry"].pk}, lambda w: {}),
    ("tournaments:bracket-generate", lambda w: {}, lambda w: {}),
    ("tournaments:bracket-clear", lambda w: {}, lambda w: {}),
    ("tournaments:tables-assign", lambda w: {}, lambda w: {}),
    ("tournaments:match-confirm", lambda w: {"match_id": w["match"].pk}, lambda w: {}),
    (
        "tournaments:match-walkover",
        lambda w: {"match_id": w["match"].pk},
        lambda w: {"winner_side": "B"},
    ),
    ("accounts:role-add", lambda w: {}, lambda w: {"username": "rival", "role": "co_director"}),
    (
        "accounts:role-remove",
        lambda w: {},
        lambda w: {"user": w["keeper"].pk, "role": "scorekeeper"},
    ),
]
TOURNAMENT_READS = [
    "tournaments:tournament-setup",
    "tournaments:entry-list",
    "tournaments:bracket",
    "tournaments:round-control",
    "accounts:roles",
    "tournaments:audit-log",
]
REGISTRY_WRITES = [
    ("players:player-create", lambda w: {}, lambda w: {"name": "Sneaky"}),
    ("players:player-edit", lambda w: {"player_id": w["player"].pk}, lambda w: {"name": "Renamed"}),
    ("players:player-import", lambda w: {}, lambda w: {"file": _csv()}),
    (
        "tournaments:tournament-create",
        lambda w: {},
        lambda w: {
            "name": "Mine now",
            "preset": "modern",
            "tables": 3,
            "date": "2030-01-01",
            "page_size": "A4",
            "language": "en",
            "bracket_kind": "round_robin",
        },
    ),
]

INTRUDERS = ["anonymous", "other", "elsewhere", "keeper"]


def state():
    """Everything the director's screens can change, as comparable values."""
    return (
        list(Tournament.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
        list(Match.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        AuditEntry.objects.count(),
        sorted(Tournament.co_directors.through.objects.values_list("tournament_id", "user_id")),
        sorted(Tournament.scorekeepers.through.objects.values_list("tournament_id", "user_id")),
    )


def as_(client, world, who):
    client.logout()
    if who != "anonymous":
        client.force_login(world[who])
    return client


def assert_refused(response, who):
    if who == "anonymous":
        assert response.status_code == 302, who
        assert response["Location"].startswith(reverse("login")), who
    else:
        assert response.status_code == 403, who


# One world per URL; the intruders take turns inside the test (building the world is
# the slow part, and nothing they do may change it anyway).


@pytest.mark.parametrize(
    ("name", "kwargs", "data"), TOURNAMENT_WRITES, ids=[row[0] for row in TOURNAMENT_WRITES]
)
def test_tournament_writes_are_refused(client, world, name, kwargs, data):
    url = reverse(name, kwargs={"slug": world["t"].slug, **kwargs(world)})
    before = state()
    for who in INTRUDERS:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = as_(client, world, who).post(url, data(world), **headers)
            assert_refused(response, who)
            assert state() == before, who


@pytest.mark.parametrize("name", TOURNAMENT_READS)
def test_tournament_pages_are_refused(client, world, name):
    url = reverse(name, kwargs={"slug": world["t"].slug})
    for who in INTRUDERS:
        assert_refused(as_(client, world, who).get(url), who)


@pytest.mark.parametrize(
    ("name", "kwargs", "data"), REGISTRY_WRITES, ids=[row[0] for row in REGISTRY_WRITES]
)
def test_registry_writes_need_a_director(client, world, name, kwargs, data):
    url = reverse(name, kwargs=kwargs(world))
    before = state()
    for who in ("anonymous", "elsewhere", "keeper"):
        assert_refused(as_(client, world, who).post(url, data(world)), who)
        assert state() == before, who


def test_registry_pages_need_a_director(client, world):
    for name, kwargs, _data in REGISTRY_WRITES:
        url = reverse(name, kwargs=kwargs(world))
        for who in ("anonymous", "elsewhere", "keeper"):
            assert_refused(as_(client, world, who).get(url), who)
    assert_refused(as_(client, world, "keeper").get(reverse("players:player-list")), "keeper")


def test_a_player_is_edited_only_by_a_registrar_or_whoever_added_them(client, world):
    url = reverse("players:player-edit", kwargs={"player_id": world["player"].pk})
    before = state()
    for who in ("owner", "other"):
        assert_refused(as_(client, world, who).get(url), who)
        assert_refused(as_(client, world, who).post(url, {"name": "Renamed"}), who)
        assert state() == before, who


def test_writes_need_post(client, world):
    client.force_login(world["owner"])
    for name, kwargs, _data in TOURNAMENT_WRITES:
        if name == "tournaments:tournament-setup":
            continue
        url = reverse(name, kwargs={"slug": world["t"].slug, **kwargs(world)})
        assert client.get(url).status_code == 405, name


def test_co_director_may_direct(client, world):
    co = make_director(username="co")
    world["t"].co_directors.add(co)
    client.force_login(co)
    url = reverse(
        "tournaments:match-confirm", kwargs={"slug": world["t"].slug, "match_id": world["match"].pk}
    )
    world["match"].refresh_from_db()
    assert client.post(url, {"version": world["match"].version}).status_code == 302
    world["match"].refresh_from_db()
    assert world["match"].status == Match.Status.COMPLETE
    assert AuditEntry.objects.filter(action="match confirmed", user=co).exists()


def test_ids_from_another_tournament_are_not_found(client, world):
    client.force_login(world["owner"])
    rival = Tournament.objects.get(name="Rival Cup")
    foreign = make_player(name="Foreign")
    foreign_entry = Entry.objects.create(tournament=rival, player=foreign)
    slug = world["t"].slug
    before = state()
    for name, kwargs in [
        ("entry-withdraw", {"entry_id": foreign_entry.pk}),
        ("entry-seed", {"entry_id": 999_999}),
        ("match-confirm", {"match_id": 999_999}),
    ]:
        response = client.post(reverse(f"tournaments:{name}", kwargs={"slug": slug, **kwargs}))
        assert response.status_code == 404
    assert client.get("/t/no-such-tournament/manage/").status_code == 404
    assert state() == before
