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
version of each tournament whose rating rows changed is counted (:mod:`tournaments.changes`),
so their cached standings show the new numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments import changes
from tournaments.models import Match, Player

from .models import RatingChange, RatingState
from .rating import Played, replay, shown, spread

RATED = (
    Q(status=Match.Status.COMPLETE, is_bye=False, forfeit=False)
    & Q(side_a__isnull=False, side_b__isnull=False)
    & ~Q(winner_side="")
)
BATCH = 2000


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
    nothing changed."""
    state = RatingState.objects.first()
    if state is not None and state.fingerprint == fingerprint():
        return state.matches
    return recompute()


def _played(rows: Iterable[tuple[int, int, int, str]]) -> list[Played]:
    return [Played(pk, a, b, winner == "A") for pk, a, b, winner in rows]


def recompute() -> int:
    """Rate every completed match again, in the order played; returns how many."""
    with transaction.atomic():
        state = RatingState.objects.select_for_update().first() or RatingState.objects.create()
        print_ = fingerprint()
        rows = list(
            rated_matches()
            .alias(played=Coalesce("started_at", "completed_at"))
            .order_by(F("played").asc(nulls_first=True), "pk")
            .values_list(
                "pk",
                "tournament_id",
                "side_a__player_id",
                "side_b__player_id",
                "winner_side",
                "completed_at",
            )
        )
        tournament_of = {row[0]: row[1] for row in rows}
        played_at = {row[0]: row[5] for row in rows}
        before = {
            (match_id, player_id): (tournament_id, mu, sigma)
            for match_id, player_id, tournament_id, mu, sigma in RatingChange.objects.values_list(
                "match_id", "player_id", "tournament_id", "mu_after", "sigma_after"
            )
        }
        steps = list(replay(_played((row[0], row[2], row[3], row[4]) for row in rows)))
        moved: set[int] = set()
        after = {(s.match_id, s.player): s for s in steps}
        for key, (tournament_id, mu, sigma) in before.items():
            step = after.get(key)
            if (
                step is None
                or shown(step.mu_after) != shown(mu)
                or spread(step.sigma_after) != spread(sigma)
            ):
                moved.add(tournament_id)
                if step is not None:
                    moved.add(tournament_of[step.match_id])
        RatingChange.objects.all().delete()
        RatingChange.objects.bulk_create(
            (
                RatingChange(
                    match_id=s.match_id,
                    tournament_id=tournament_of[s.match_id],
                    player_id=s.player,
                    opponent_id=s.opponent,
                    sequence=s.sequence,
                    won=s.won,
                    mu_before=s.mu_before,
                    sigma_before=s.sigma_before,
                    mu_after=s.mu_after,
                    sigma_after=s.sigma_after,
                    played_at=played_at[s.match_id],
                )
                for s in steps
            ),
            batch_size=BATCH,
        )
        state.fingerprint = print_
        state.matches = len(rows)
        state.computed_at = timezone.now()
        state.save()
        if moved:
            changes.changed(*moved)
    return len(rows)


# -- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentRating:
    """A player's club rating after a tournament and what the tournament changed."""

    player_id: int
    rating: int
    uncertainty: int
    change: int
    matches: int


def tournament_ratings(tournament_id: int) -> dict[int, TournamentRating]:
    """By player id: rating after the player's last rated match in the tournament and the
    change the tournament caused (players with no rated match there: their rating going
    in, unchanged, if they have one). Call :func:`ensure_current` first. Two queries."""
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
            pid, shown(mu), spread(sigma), shown(mu) - shown(first[pid]), count[pid]
        )
        for pid, (mu, sigma) in last.items()
    }
    others = Player.objects.filter(entries__tournament_id=tournament_id).exclude(pk__in=list(found))
    for pid, (mu, sigma) in current_ratings(others.values("pk")).items():
        found[pid] = TournamentRating(pid, shown(mu), spread(sigma), 0, 0)
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
