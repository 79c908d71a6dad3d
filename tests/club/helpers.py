"""Tournaments played through the services, with the same club players each time."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from scoring import services as scoring_services
from tests.factories import make_tournament
from tests.scoring.helpers import gin, play
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Player, Tournament


def by_rank(players: Sequence[Player]) -> Callable[[Player, Player], Player]:
    """The player earlier in ``players`` always wins."""
    order = {p.pk: i for i, p in enumerate(players)}
    return lambda a, b: a if order[a.pk] < order[b.pk] else b


def open_matches(tournament: Tournament) -> list[Match]:
    return list(
        tournament.matches.filter(status__in=[Match.Status.READY, Match.Status.IN_PLAY])
        .exclude(side_a=None)
        .exclude(side_b=None)
        .select_related("side_a__player", "side_b__player")
        .order_by("round", "section", "position")
    )


def play_match(match: Match, winner_side: str, *, user: Any) -> None:
    """One gin to 100 (the ``modern`` preset: one game) wins it; then confirmed."""
    play(match, [gin(winner_side)], user=user)
    match.refresh_from_db()
    scoring_services.confirm_result(match=match, user=user, version=match.version)


def run_tournament(
    players: Sequence[Player],
    *,
    owner: Any,
    date: datetime.date,
    winner: Callable[[Player, Player], Player],
    name: str | None = None,
    **fields: Any,
) -> Tournament:
    """A single-elimination tournament of ``players`` (seeded in that order), every match
    played to its end with ``winner`` deciding each one."""
    tournament = make_tournament(owner=owner, preset="modern", date=date, name=name, **fields)
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(tournament=tournament, player=player, seed=seed)
    generate_bracket(tournament=tournament, user=owner)
    tournament.refresh_from_db()
    while matches := open_matches(tournament):
        for match in matches:
            a, b = match.side_a.player, match.side_b.player
            play_match(match, "A" if winner(a, b) == a else "B", user=owner)
    return tournament
