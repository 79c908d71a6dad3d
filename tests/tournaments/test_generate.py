"""generate_bracket: stored matches for each format, byes, tables, previews, refusals, and
whole tournaments played through to the end."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from pairing import brackets
from tests.factories import finish_match, make_bracket, make_entries, make_tournament
from tournaments import draw as drawing
from tournaments import services
from tournaments.models import AuditEntry, Entry, Match, Tournament

pytestmark = pytest.mark.django_db

Status = Match.Status
Kind = Tournament.BracketKind


def stored(t):
    return {m.key: m for m in Match.objects.filter(tournament=t).select_related("side_a", "side_b")}


def seed_of(entry):
    return entry.seed if entry is not None else None


def test_choices_match_the_bracket_module():
    assert {s.value for s in brackets.Section} == set(Match.Section.values)
    assert {k.value for k in brackets.BracketKind} == set(Tournament.BracketKind.values)


def test_single_elimination_of_eight_stores_every_match_and_route():
    t = make_bracket(players=8, third_place=True)
    matches = stored(t)
    assert set(matches) == {f"W1-{i}" for i in range(1, 5)} | {"W2-1", "W2-2", "W3-1", "3P"}
    assert [
        (seed_of(m.side_a), seed_of(m.side_b))
        for k, m in sorted(matches.items())
        if k.startswith("W1")
    ] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    w11 = matches["W1-1"]
    assert (w11.next_match.key, w11.next_slot) == ("W2-1", "A")
    assert (matches["W2-1"].loser_next_match.key, matches["W2-1"].loser_next_slot) == ("3P", "A")
    assert all(m.status == Status.READY for k, m in matches.items() if k.startswith("W1"))
    assert all(m.status == Status.WAITING for k, m in matches.items() if not k.startswith("W1"))
    assert sorted(m.table for k, m in matches.items() if k.startswith("W1")) == [1, 2, 3, 4]
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    audit = AuditEntry.objects.get(tournament=t, action="bracket generated")
    assert audit.after["matches"] == 8 and audit.user == t.owner


def test_byes_advance_automatically_to_the_top_seeds():
    t = make_bracket(players=5)
    matches = stored(t)
    byes = [m for m in matches.values() if m.is_bye]
    assert len(byes) == 3
    assert all(m.status == Status.COMPLETE and m.winner.seed in (1, 2, 3) for m in byes)
    # Seed 1 waits in round 2 for the winner of 4 v 5; seeds 2 and 3 meet at once.
    assert seed_of(matches["W2-1"].side_a) == 1 and matches["W2-1"].side_b is None
    assert {seed_of(matches["W2-2"].side_a), seed_of(matches["W2-2"].side_b)} == {2, 3}
    assert matches["W2-2"].status == Status.READY
    assert matches["W1-2"].status == Status.READY
    assert all(m.table is None for m in byes)


def test_tables_run_out_and_the_rest_queue():
    t = make_bracket(players=16, tables=3)
    first_round = [m for m in stored(t).values() if m.round == 1]
    with_table = sorted(m.table for m in first_round if m.table)
    assert with_table == [1, 2, 3]
    queued = [m for m in first_round if m.table is None]
    assert len(queued) == 5 and all(m.queued_at for m in queued)
    freed = Match.objects.get(tournament=t, table=2, status=Status.READY)
    finish_match(freed)
    new = Match.objects.get(tournament=t, table=2, status=Status.READY)
    assert new.round == 1
    assert new.position == min(m.position for m in queued)


def test_double_elimination_routes_losers_and_plays_the_reset_when_needed():
    t = make_bracket(players=4, bracket_kind=Kind.DOUBLE_ELIMINATION)
    matches = stored(t)
    assert {"W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF", "GF2"} == set(matches)
    finish_match(matches["W1-1"], winner="A")
    finish_match(matches["W1-2"], winner="A")
    l11 = Match.objects.get(tournament=t, key="L1-1")
    assert {seed_of(l11.side_a), seed_of(l11.side_b)} == {4, 3}
    finish_match(Match.objects.get(tournament=t, key="W2-1"), winner="A")
    finish_match(l11, winner="A")
    finish_match(Match.objects.get(tournament=t, key="L2-1"), winner="B")
    gf = Match.objects.get(tournament=t, key="GF")
    assert seed_of(gf.side_a) == 1
    finish_match(gf, winner="B")  # the losers' champion wins: a reset
    gf2 = Match.objects.get(tournament=t, key="GF2")
    assert gf2.status == Status.READY
    assert (gf2.side_a, gf2.side_b) == (gf.side_a, gf.side_b)[::-1] or gf2.side_b == gf.winner
    finish_match(gf2, winner="A")
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_two_player_double_elimination_reset():
    t = make_bracket(players=2, bracket_kind=Kind.DOUBLE_ELIMINATION)
    finish_match(Match.objects.get(tournament=t, key="W1-1"), winner="A")
    gf = Match.objects.get(tournament=t, key="GF")
    assert gf.status == Status.READY
    finish_match(gf, winner="B")
    assert Match.objects.get(tournament=t, key="GF2").status == Status.READY


def test_round_robin_pairs_everyone_once_and_queues_for_tables():
    t = make_bracket(players=5, bracket_kind=Kind.ROUND_ROBIN, tables=2)
    matches = list(stored(t).values())
    assert len(matches) == 10
    pairs = {frozenset((m.side_a.seed, m.side_b.seed)) for m in matches}
    assert len(pairs) == 10
    assert all(m.status == Status.READY for m in matches)
    assert sorted(m.table for m in matches if m.table) == [1, 2]
    assert all(m.next_match is None for m in matches)


def test_random_draw_records_its_seed_and_is_reproducible():
    t1 = make_tournament(random_draw=True, draw_seed=12345)
    t2 = make_tournament(random_draw=True, draw_seed=12345)
    for t in (t1, t2):
        make_entries(tournament=t, count=8)
        drawing.generate_bracket(tournament=t, user=t.owner)
    draw = [
        [
            seed_of(m.side_a)
            for m in Match.objects.filter(tournament=t, round=1).order_by("position")
        ]
        for t in (t1, t2)
    ]
    assert draw[0] == draw[1]
    t3 = make_tournament(random_draw=True)
    make_entries(tournament=t3, count=4)
    drawing.generate_bracket(tournament=t3, user=t3.owner)
    t3.refresh_from_db()
    assert t3.draw_seed is not None


def test_preview_saves_nothing_and_matches_what_is_stored():
    t = make_tournament(third_place=True)
    make_entries(tournament=t, count=6)
    plan = drawing.generate_bracket(tournament=t, user=t.owner, preview=True)
    assert Match.objects.filter(tournament=t).count() == 0
    assert AuditEntry.objects.filter(tournament=t).count() == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    preview = {
        (m.key, m.status, m.table, seed_of(m.side_a), seed_of(m.side_b)) for m in plan.matches
    }
    drawing.generate_bracket(tournament=t, user=t.owner)
    actual = {
        (m.key, m.status, m.table, seed_of(m.side_a), seed_of(m.side_b)) for m in stored(t).values()
    }
    assert preview == actual
    assert plan.rounds()[0][:2] == ("winners", 1)


def test_withdrawn_and_absent_players_are_left_out_and_seeds_renumbered():
    t = make_tournament()
    entries = make_entries(tournament=t, count=6)
    services.withdraw(entry=entries[0], user=t.owner)
    for entry in entries[1:5]:
        Entry.objects.filter(pk=entry.pk).update(checked_in=True)
    plan = drawing.generate_bracket(tournament=t, user=t.owner)
    assert [e.pk for e in plan.entries] == [e.pk for e in entries[1:5]]
    assert {e.pk for e in plan.left_out} == {entries[0].pk, entries[5].pk}
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    assert [seeds[e.pk] for e in entries] == [None, 1, 2, 3, 4, None]


def test_generation_refusals():
    t = make_tournament()
    make_entries(tournament=t, count=1)
    with pytest.raises(ValidationError, match="at least two"):
        drawing.generate_bracket(tournament=t, user=t.owner)
    make_entries(tournament=t, count=1)
    drawing.generate_bracket(tournament=t, user=t.owner)
    with pytest.raises(ValidationError, match="already been generated"):
        drawing.generate_bracket(tournament=t, user=t.owner)
    assert Match.objects.filter(tournament=t).count() == 1


def test_round_robin_too_big_is_a_clear_error():
    t = make_tournament(bracket_kind=Kind.ROUND_ROBIN)
    make_entries(tournament=t, count=brackets.MAX_ROUND_ROBIN_PLAYERS + 1, seeded=False)
    limit = brackets.MAX_ROUND_ROBIN_PLAYERS
    with pytest.raises(ValidationError, match=f"takes at most {limit} players; {limit + 1} can"):
        drawing.generate_bracket(tournament=t, user=t.owner)
    assert not Match.objects.filter(tournament=t).exists()


def test_clear_bracket_only_before_play():
    t = make_bracket(players=4)
    assert drawing.clear_bracket(tournament=t, user=t.owner) == 3
    assert not Match.objects.filter(tournament=t).exists()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    drawing.generate_bracket(tournament=t, user=t.owner)
    finish_match(Match.objects.get(tournament=t, key="W1-1"))
    with pytest.raises(ValidationError, match="played into"):
        drawing.clear_bracket(tournament=t, user=t.owner)
    assert Match.objects.filter(tournament=t).count() == 3


def play_out(t, rng):
    """Confirm ready matches with random winners until none is left."""
    for _ in range(10_000):
        ready = list(
            Match.objects.filter(tournament=t, status=Status.READY).order_by("round", "position")[
                :1
            ]
        )
        if not ready:
            break
        finish_match(ready[0], winner=rng.choice("AB"))
    return stored(t)


CASES = [
    (kind, n, extra)
    for kind, extra in [
        (Kind.SINGLE_ELIMINATION, {"third_place": True, "consolation": True}),
        (Kind.DOUBLE_ELIMINATION, {"bracket_reset": True}),
        (Kind.DOUBLE_ELIMINATION, {"bracket_reset": False}),
        (Kind.ROUND_ROBIN, {}),
    ]
    for n in ((2, 3, 5, 6) if kind == Kind.ROUND_ROBIN else (2, 3, 5, 6, 7, 11))
]


@pytest.mark.parametrize(
    ("kind", "n", "extra"),
    CASES,
    ids=[f"{k.value}-{n}-{'-'.join(e) or 'plain'}" for k, n, e in CASES],
)
def test_whole_tournament_plays_through(kind, n, extra):
    rng = random.Random(n)
    t = make_bracket(players=n, bracket_kind=kind, tables=2, **extra)
    matches = play_out(t, rng)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert all(m.status == Status.COMPLETE for m in matches.values())
    assert not any(m.table for m in matches.values() if m.is_bye)
    played = [m for m in matches.values() if not m.is_bye]
    if kind == Kind.ROUND_ROBIN:
        assert len(played) == n * (n - 1) // 2
    elif kind == Kind.SINGLE_ELIMINATION:
        champions = [
            m.winner for m in matches.values() if m.key.startswith("W") and m.next_match_id is None
        ]
        assert len(champions) == 1
    else:
        losses = dict.fromkeys(Entry.objects.filter(tournament=t).values_list("pk", flat=True), 0)
        for m in played:
            losses[m.loser.pk] += 1
        assert max(losses.values()) <= 2
        survivors = [pk for pk, count in losses.items() if count < 2]
        # Everyone but the champion is out on two losses, unless the winners' champion
        # lost the only grand final (no reset) and so leaves with one.
        assert 1 <= len(survivors) <= 2
        if extra["bracket_reset"]:
            assert len(survivors) == 1
