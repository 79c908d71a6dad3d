"""Helpers for team-tournament tests: teams registered through the service, a team
bracket, and whole deals."""

from __future__ import annotations

from typing import Any

from scoring.deals import record_deal
from scoring.loading import HandData
from tests.factories import make_player, make_tournament
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Tournament
from tournaments.registration import add_team


def team_tournament(*, preset: str = "partnership", **extra: Any) -> Tournament:
    return make_tournament(preset=preset, **extra)


def make_teams(tournament: Tournament, count: int, *, prefix: str = "Team") -> list[Entry]:
    """``count`` teams of the tournament's team size, seeded 1..count, of new players."""
    size = tournament.ruleset.team_size
    return [
        add_team(
            tournament=tournament,
            name=f"{prefix} {n}",
            players=[
                make_player(name=f"{prefix} {n} player {seat}") for seat in range(1, size + 1)
            ],
            seed=n,
            user=tournament.owner,
        )
        for n in range(1, count + 1)
    ]


def team_bracket(teams: int = 4, **extra: Any) -> Tournament:
    tournament = team_tournament(**extra)
    make_teams(tournament, teams)
    generate_bracket(tournament=tournament, user=tournament.owner)
    tournament.refresh_from_db()
    return tournament


def first_match(tournament: Tournament) -> Match:
    return (
        tournament.matches.filter(status=Match.Status.READY, is_bye=False)
        .order_by("round", "position")
        .first()
    )


def knock(by: str = "A", deadwood: int = 2, defender: int = 30) -> HandData:
    return HandData("knock", by, deadwood, defender)


def gin(by: str = "A", defender: int = 20) -> HandData:
    return HandData("gin", by, None, defender)


def draw() -> HandData:
    return HandData("draw")


def play_deals(match: Match, deals: list[list[HandData]], *, user: Any = None) -> None:
    start = match.hands.count() // match.tournament.ruleset.team_size
    for offset, boards in enumerate(deals, start=1):
        record_deal(match=match, number=start + offset, boards=boards, user=user)


def deal_post(number: int, boards: list[HandData]) -> dict[str, Any]:
    """The deal form's POST for these boards."""
    data: dict[str, Any] = {"number": number}
    for index, board in enumerate(boards, start=1):
        prefix = f"b{index}-"
        data[prefix + "kind"] = board.kind
        if board.by:
            data[prefix + "by"] = board.by
        if board.deadwood is not None:
            data[prefix + "deadwood"] = board.deadwood
        if board.defender_deadwood is not None:
            data[prefix + "defender_deadwood"] = board.defender_deadwood
    return data
