"""Club figures for ``make bench`` (issue 17), on the bench's database:

- **Rating recompute**: N completed matches (10,000 by default) between 200 club players,
  spread over tournaments; :func:`club.ratings.recompute` rates them all again in the
  order played and stores every row (the whole rebuild a correction to the first match
  costs: each sample flips the winner of the first match played, then recomputes).
  Budget: one second of CPU on a machine where RLCard's deadwood routine takes 18 µs a
  hand, i.e. 1 s × (that routine's µs per hand measured in this run ÷ 18). The anchor
  (:mod:`tools.bench.rlcard_anchor`, on the cards bench's dealt hands) is timed before
  the first sample and after every sample (anchor, recompute, anchor, recompute, …,
  anchor), each sample is judged against the mean of the two passes either side of it
  (its seconds × 18 ÷ those µs: what it would take where RLCard takes 18 µs), and the
  median of those is held to 1 s: a busy moment slows a sample and the passes beside it
  alike. The raw seconds, the anchor's µs and the pure replay through openskill alone
  are reported beside it.
- **Player page**: one player in T tournaments (200 by default), each a played-out
  eight-player bracket with a hand per match; ``/players/<id>/`` is requested with the
  ratings current. Its queries must be the same at T/4 and T tournaments (they do not
  grow with the history); the median CPU time at both sizes is reported.

Matches are stored with ``bulk_create`` (the bench measures the reads, not the writes).
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club import ratings
from club.rating import Played, replay
from scoring.models import Hand
from tools.bench import cards_bench, rlcard_anchor
from tournaments.models import Entry, Match, Player, Tournament

RECOMPUTE_BUDGET_SECONDS = 1.0  # on a machine where the anchor takes ANCHOR_REFERENCE_US
ANCHOR_REFERENCE_US = 18.0  # RLCard's deadwood routine, µs per hand
ANCHOR_DEALS = 2000  # the cards bench's dealt hands (two a deal)
CLUB_PLAYERS = 200
PER_TOURNAMENT = 100  # matches in each of the recompute's tournaments


def _cpu(action: Any) -> tuple[Any, float, float]:
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = action()
    return result, time.process_time() - start_cpu, time.perf_counter() - start_wall


def anchor_hands(deals: int = ANCHOR_DEALS) -> list[list[rlcard_anchor.Card]]:
    """The cards bench's dealt hands (its seed), as RLCard hands."""
    dealt = cards_bench.deals("dealt", deals, cards_bench.SEED)
    return cards_bench.anchor_hands([mask for deal in dealt for mask in deal])


def anchor_us(hands: list[list[rlcard_anchor.Card]]) -> float:
    """CPU µs per hand of RLCard's deadwood routine over ``hands``."""
    start = time.process_time()
    for hand in hands:
        rlcard_anchor.deadwood(hand)
    return (time.process_time() - start) / len(hands) * 1e6


def at_reference(seconds: list[float], anchors: list[float]) -> float:
    """The median of ``seconds`` as they would be where the anchor takes
    :data:`ANCHOR_REFERENCE_US`: each scaled by the anchor passes either side of it
    (``anchors``: one more than ``seconds``, timed before, between and after them)."""
    if len(anchors) != len(seconds) + 1:
        raise ValueError("one anchor pass before each sample and one after the last")
    return statistics.median(
        spent * ANCHOR_REFERENCE_US / ((anchors[i] + anchors[i + 1]) / 2)
        for i, spent in enumerate(seconds)
    )


def build_matches(total: int, *, owner: Any, seed: int = 17) -> None:
    """``total`` completed round-robin matches among :data:`CLUB_PLAYERS` players."""
    rng = random.Random(seed)
    players = Player.objects.bulk_create(
        Player(name=f"Rated {i}", email=f"rated{i}@bench") for i in range(CLUB_PLAYERS)
    )
    start = timezone.now() - datetime.timedelta(days=total)
    made = 0
    number = 0
    while made < total:
        number += 1
        tournament = Tournament.objects.create(
            owner=owner,
            name=f"Rating night {number}",
            bracket_kind="round_robin",
            status="finished",
        )
        field = rng.sample(players, 24)
        entries = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in field)
        matches = []
        for position in range(min(PER_TOURNAMENT, total - made)):
            a, b = rng.sample(entries, 2)
            at = start + datetime.timedelta(minutes=made)
            matches.append(
                Match(
                    tournament=tournament,
                    key=f"R{position}",
                    section="round_robin",
                    round=1,
                    position=position + 1,
                    side_a=a,
                    side_b=b,
                    status="complete",
                    winner_side=rng.choice("AB"),
                    score_a=1,
                    started_at=at,
                    completed_at=at,
                )
            )
            made += 1
        Match.objects.bulk_create(matches)


def measure_recompute(
    matches: int, *, owner: Any, samples: int = 5, anchor_deals: int = ANCHOR_DEALS
) -> dict[str, Any]:
    with transaction.atomic():
        build_matches(matches, owner=owner)
    rows = list(
        ratings.rated_matches()
        .filter(tournament__name__startswith="Rating night")
        .order_by("started_at", "pk")
        .values_list("pk", "side_a__player_id", "side_b__player_id", "winner_side")
    )
    played = [Played(pk, a, b, w == "A") for pk, a, b, w in rows]
    pure = [_cpu(lambda: list(replay(played)))[1] for _ in range(samples)]
    full_cpu, full_wall, anchor = [], [], []
    hands = anchor_hands(anchor_deals)
    first = played[0].match_id
    ratings.recompute()
    anchor.append(anchor_us(hands))
    for _ in range(samples):
        # A correction to the first match ever played: every row is rewritten.
        flip = {"A": "B", "B": "A"}[Match.objects.get(pk=first).winner_side]
        Match.objects.filter(pk=first).update(winner_side=flip, version=F("version") + 1)
        rated, cpu, wall = _cpu(ratings.recompute)
        assert rated >= matches, (rated, matches)  # the bench's played tournaments too
        full_cpu.append(cpu)
        full_wall.append(wall)
        anchor.append(anchor_us(hands))
    _rated, current_cpu, _wall = _cpu(ratings.ensure_current)
    return {
        "matches": matches,
        "rated": rated,
        "players": CLUB_PLAYERS,
        "replay_cpu_s": round(statistics.median(pure), 3),
        "recompute_cpu_s": round(statistics.median(full_cpu), 3),
        "recompute_wall_s": round(statistics.median(full_wall), 3),
        "unchanged_check_ms": round(current_cpu * 1000, 2),
        "anchor_us": round(statistics.median(anchor), 2),
        "anchor_hands": len(hands),
        "anchor_reference_us": ANCHOR_REFERENCE_US,
        "recompute_at_reference_s": round(at_reference(full_cpu, anchor), 3),
        "budget_s": RECOMPUTE_BUDGET_SECONDS,
    }


def build_history(tournaments: int, *, owner: Any, seed: int = 23) -> Player:
    """A player in ``tournaments`` eight-player single eliminations, every match played
    with one gin; returns the player."""
    rng = random.Random(seed)
    star = Player.objects.create(name="Bench Star", email="star@bench")
    others = Player.objects.bulk_create(
        Player(name=f"Member {i}", email=f"member{i}@bench") for i in range(40)
    )
    first = timezone.now() - datetime.timedelta(days=7 * tournaments)
    for number in range(tournaments):
        when = first + datetime.timedelta(days=7 * number)
        tournament = Tournament.objects.create(
            owner=owner,
            name=f"Week {number + 1}",
            status="finished",
            date=when.date(),
            rules=_modern(),
        )
        field = [star, *rng.sample(others, 7)]
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, seed=i) for i, p in enumerate(field, 1)
        )
        _bracket(tournament, entries, rng, when)


def _modern() -> dict[str, Any]:
    from engine import PRESETS

    return PRESETS["modern"].to_dict()


def _bracket(tournament: Tournament, entries: list[Entry], rng: random.Random, when: Any) -> None:
    alive = list(entries)
    matches: list[Match] = []
    winners: list[str] = []
    round_ = 1
    while len(alive) > 1:
        survivors = []
        for position in range(len(alive) // 2):
            a, b = alive[2 * position], alive[2 * position + 1]
            side = rng.choice("AB")
            at = when + datetime.timedelta(minutes=len(matches))
            matches.append(
                Match(
                    tournament=tournament,
                    key=f"W{round_}-{position + 1}",
                    section="winners",
                    round=round_,
                    position=position + 1,
                    side_a=a,
                    side_b=b,
                    status="complete",
                    winner_side=side,
                    score_a=int(side == "A"),
                    score_b=int(side == "B"),
                    total_a=123 if side == "A" else 0,
                    total_b=123 if side == "B" else 0,
                    started_at=at,
                    completed_at=at,
                )
            )
            winners.append(side)
            survivors.append(a if side == "A" else b)
        alive = survivors
        round_ += 1
    stored = Match.objects.bulk_create(matches)
    Hand.objects.bulk_create(
        Hand(match=m, number=1, kind="gin", by=side, defender_deadwood=98)
        for m, side in zip(stored, winners, strict=True)
    )


def measure_player_page(tournaments: int, *, owner: Any, samples: int = 5) -> dict[str, Any]:
    with transaction.atomic():
        build_history(tournaments, owner=owner)
    star = Player.objects.get(name="Bench Star")
    ids = list(
        Tournament.objects.filter(entries__player=star)
        .order_by("date")
        .values_list("pk", flat=True)
    )
    client = Client()
    url = reverse("club:player", args=[star.pk])
    figures: dict[str, Any] = {"tournaments": tournaments, "queries": {}, "median_cpu_ms": {}}
    small = max(1, tournaments // 4)
    # The smaller history first: the player's entries beyond it are hidden by moving them
    # to a stand-in player for the measurement.
    stand_in = Player.objects.create(name="Stand-in", email="stand-in@bench")
    for size in (small, tournaments):
        moved = Entry.objects.filter(player=star, tournament_id__in=ids[size:])
        moved_ids = list(moved.values_list("pk", flat=True))
        moved.update(player=stand_in)
        ratings.ensure_current()
        response = client.get(url)
        assert response.status_code == 200, response.status_code
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        count = len(queries)  # now: the next request empties the log the capture reads
        cpu = []
        for _ in range(samples):
            _result, spent, _wall = _cpu(lambda: client.get(url))
            cpu.append(spent)
        figures["queries"][size] = count
        figures["median_cpu_ms"][size] = round(statistics.median(cpu) * 1000, 1)
        Entry.objects.filter(pk__in=moved_ids).update(player=star)
    figures["equal"] = len(set(figures["queries"].values())) == 1
    return figures


def run(*, matches: int, tournaments: int, owner: Any) -> dict[str, Any]:
    return {
        "recompute": measure_recompute(matches, owner=owner),
        "player_page": measure_player_page(tournaments, owner=owner),
    }
