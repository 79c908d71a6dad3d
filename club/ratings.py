"""The stored club rating: kept in step with the results, read by the pages.

Every completed match with two players and a winner (not a bye, not a walkover) is rated,
in the order played: by when its first hand was entered (a correction reopens a match and
its confirmation comes later, but it keeps its place), then by id. The rows of
:class:`~club.models.RatingChange` are rebuilt from scratch (:func:`recompute`) whenever
the results they were built from change: :func:`ensure_current` compares a fingerprint of
the rated matches (how many, their ids and versions, who won) with the one stored, one
aggregate query, and the pages that show ratings call it first. A hand corrected in an old
match moves its version, so everything after it is rated again, and nothing before it
changes (the replay up to it is the same). Whatever path wrote the result (hand entry,
confirmation, walkover, the admin, an archive import, a restore) is covered, and the
lower apps need not know the club app exists.

When a recompute changes ratings already shown (not only appends new matches), the public
version of each tournament whose rating rows changed is counted (:mod:`tournaments.public_version`),
so their cached standings show the new numbers.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments import public_version
from tournaments.models import Match, Player, Tournament

from .models import RatingChange, RatingState
from .rating import Played, provisional, replay, shown, spread

RATED = (
    Q(status=Match.Status.COMPLETE, is_bye=False, forfeit=False)
    & Q(side_a__isnull=False, side_b__isnull=False)
    & ~Q(winner_side="")
    # The club rating is a player's: a partnership match (a team entry) rates no one.
    & Q(side_a__team_name="", side_b__team_name="")
    # A draft is its directors' only: its matches count once it is published.
    & ~Q(tournament__status=Tournament.Status.DRAFT)
)
STATE = 1  # the one RatingState row
_rebuilding = threading.Lock()


def rated_matches():  # -> QuerySet[Match]
    return Match.objects.filter(RATED)


def fingerprint() -> str:
    """What the ratings depend on, in one aggregate query."""
    found = rated_matches().aggregate(
        n=Count("pk"),
        ids=Sum("pk"),
        versions=Sum("version"),
        a_won=Count("pk", filter=Q(winner_side="A")),
        last=Max("completed_at"),
        started=Max("started_at"),
    )
    last = found["last"].isoformat() if found["last"] else "-"
    started = found["started"].isoformat() if found["started"] else "-"
    counts = f"{found['n']}:{found['ids'] or 0}:{found['versions'] or 0}:{found['a_won']}"
    return f"{counts}:{last}:{started}"


def ensure_current() -> int:
    """Recompute the stored ratings if the results changed since; returns how many
    matches the stored ratings rate (0: the club has no rating yet). Two queries when
    nothing changed (or there is nothing to rate yet: then nothing is written)."""
    state = RatingState.objects.filter(pk=STATE).first()
    current = fingerprint()
    if state is not None and state.fingerprint == current:
        return state.matches
    if state is None and current.startswith("0:"):
        return 0
    with _rebuilding:  # this process's other requests wait here, then find them current
        return recompute(unless_current=True)


COLUMNS = (
    "match_id", "tournament_id", "player_id", "opponent_id", "sequence", "won",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
)  # fmt: skip


def _replayed() -> tuple[int, list[tuple[Any, ...]]]:
    """How many matches are rated, and the rows of every rating step, in order."""
    rows = list(
        rated_matches()
        .alias(played=Coalesce("started_at", "completed_at"))
        .order_by(F("played").asc(nulls_first=True), "pk")
        .values_list("pk", "tournament_id", "side_a__player_id", "side_b__player_id", "winner_side")
    )
    tournament_of = {row[0]: row[1] for row in rows}
    steps = replay(Played(pk, a, b, winner == "A") for pk, _t, a, b, winner in rows)
    return len(rows), [
        (
            s.match_id,
            tournament_of[s.match_id],
            s.player,
            s.opponent,
            s.sequence,
            s.won,
            s.mu_before,
            s.sigma_before,
            s.mu_after,
            s.sigma_after,
        )
        for s in steps
    ]


def recompute(*, unless_current: bool = False) -> int:
    """Rate every completed match again, in the order played, and store what changed;
    returns how many matches are rated. ``unless_current``: not if the stored ratings are
    found current after all (the page that found them stale waited for another that was
    rebuilding them: a room of followers polling after a result costs one replay, not one
    each).

    The replay is always whole (it is cheap), and done before the write lock is taken, so
    that the tables entering hands do not wait for it; under the lock, the results'
    fingerprint is read again and, if a result came in meanwhile, the replay done again.
    The rows are rewritten from the first one that differs from what is stored: a new
    result appends two rows, a correction to an old match rewrites everything after it.
    The rows go in with one ``executemany`` (the ORM's ``bulk_create`` built 20,000 model
    instances for a full rebuild, 2 of its 3 seconds)."""
    replayed_for = fingerprint()
    if unless_current:
        state = RatingState.objects.filter(pk=STATE).first()
        if state is not None and state.fingerprint == replayed_for:
            return state.matches
    rated, new = _replayed()
    with transaction.atomic():
        # One row (pk 1); locked, so two rebuilds (two processes) queue.
        state = RatingState.objects.select_for_update().get_or_create(pk=STATE)[0]
        print_ = fingerprint()
        if unless_current and state.fingerprint == print_:
            return state.matches
        if print_ != replayed_for:  # a result came in while replaying: again, locked
            rated, new = _replayed()
        old = list(RatingChange.objects.order_by("sequence", "pk").values_list(*COLUMNS))
        same = 0
        for same, (was, now) in enumerate(zip(old, new, strict=False)):  # noqa: B007
            if was != now:
                break
        else:
            same = min(len(old), len(new))
        if same < len(old):
            RatingChange.objects.filter(sequence__gte=old[same][4]).delete()
            same = sum(1 for row in old[:same] if row[4] < old[same][4])
        if same < len(new):
            _insert(new[same:])
        moved = _moved(old[same:], new)
        state.fingerprint = print_
        state.matches = rated
        state.computed_at = timezone.now()
        state.save()
        if moved:
            public_version.changed(*moved)
    return rated


def _insert(rows: list[tuple[Any, ...]]) -> None:
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in COLUMNS)
    marks = ", ".join(["%s"] * len(COLUMNS))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def _moved(replaced: list[tuple[Any, ...]], new: list[tuple[Any, ...]]) -> set[int]:
    """Tournaments whose shown ratings a rewrite changed (not a mere append)."""
    now = {(row[0], row[2]): row for row in new}
    moved = set()
    for row in replaced:
        fresh = now.get((row[0], row[2]))
        if fresh is None or (shown(fresh[8]), spread(fresh[9])) != (shown(row[8]), spread(row[9])):
            moved.add(row[1])
            if fresh is not None:
                moved.add(fresh[1])
    return moved


# -- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentRating:
    """A player's club rating after a tournament and what the tournament changed."""

    player_id: int
    rating: int
    uncertainty: int
    change: int
    matches: int
    provisional: bool = False
    """Still uncertain (:func:`club.rating.provisional`): shown with a "?"."""


def tournament_ratings(
    tournament_id: int, players: Collection[int] | None = None
) -> dict[int, TournamentRating]:
    """By player id: rating after the player's last rated match in the tournament and the
    change the tournament caused (players with no rated match there: their rating going
    in, unchanged, if they have one). Call :func:`ensure_current` first. Two queries
    (``players``: the tournament's player ids, if the caller has them)."""
    rows = RatingChange.objects.filter(tournament_id=tournament_id).order_by("sequence")
    first: dict[int, float] = {}
    last: dict[int, tuple[float, float]] = {}
    count: dict[int, int] = {}
    for player_id, mu_before, mu_after, sigma_after in rows.values_list(
        "player_id", "mu_before", "mu_after", "sigma_after"
    ):
        first.setdefault(player_id, mu_before)
        last[player_id] = (mu_after, sigma_after)
        count[player_id] = count.get(player_id, 0) + 1
    found = {
        pid: TournamentRating(
            pid,
            shown(mu),
            spread(sigma),
            shown(mu) - shown(first[pid]),
            count[pid],
            provisional(sigma),
        )
        for pid, (mu, sigma) in last.items()
    }
    if players is not None:
        # All of them, not only those missing, so the queries do not depend on the state.
        others: Any = list(players)
    else:
        others = Player.objects.filter(entries__tournament_id=tournament_id).values("pk")
    for pid, (mu, sigma) in current_ratings(others).items():
        if pid not in found:
            found[pid] = TournamentRating(pid, shown(mu), spread(sigma), 0, 0, provisional(sigma))
    return found


def current_ratings(
    players,
) -> dict[int, tuple[float, float]]:  # players: ids or a values("pk") query
    """Each rated player's latest (mean, uncertainty), by player id; one query."""
    latest = RatingChange.objects.filter(player_id=OuterRef("pk")).order_by("-sequence")
    rows = (
        Player.objects.filter(pk__in=players)
        .annotate(
            mu=Subquery(latest.values("mu_after")[:1]),
            sigma=Subquery(latest.values("sigma_after")[:1]),
        )
        .filter(mu__isnull=False)
        .values_list("pk", "mu", "sigma")
    )
    return {pk: (mu, sigma) for pk, mu, sigma in rows}
