"""The demo's team event (``seed_demo``): four teams of two, partnership rules, partly
played, so a newcomer sees a team bracket, a confirmed team match, one awaiting the
losing team's confirmation, and the team match sheet.

Nothing here is used when real players enter deals.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from demo.hands import random_hand
from engine import TEAM_PRESETS, RuleSet, Side, score_boards
from scoring.deals import record_deal
from scoring.loading import HandData
from scoring.services import confirm_result
from tournaments.draw import generate_bracket
from tournaments.models import Match, Player, Tournament
from tournaments.registration import add_team

TEAMS = [
    ("Aces High", ["Quentin Blake", "Rosa Parks"]),
    ("Knock Knock", ["Sven Olsen", "Tamsin Reid"]),
    ("Big Gin Energy", ["Uma Patel", "Victor Hugo"]),
    ("Undercutters", ["Wanda Kowalska", "Xavier Lopes"]),
]


def team_deals(
    rules: RuleSet, *, seed: int, strength: float = 0.55, limit: int | None = None
) -> list[list[HandData]]:
    """Plausible deals of one team match (or its first ``limit`` deals), ending when it is
    decided (seeded, so reproducible)."""
    rng = random.Random(seed)
    deals: list[list[HandData]] = []
    while limit is None or len(deals) < limit:
        boards = [random_hand(rng, rules, strength) for _ in range(rules.team_size)]
        inputs = [board.to_input() for deal in [*deals, boards] for board in deal]
        deals.append(boards)
        if score_boards(rules, inputs, Side.A).complete:
            break
    return deals


def seed_team_event(director: Any) -> Tournament:
    """The team event: registered, drawn, one semifinal confirmed, the other decided."""
    tournament = Tournament.objects.create(
        name="Partnership night (demo)",
        date=datetime.date.today(),
        venue="Club room",
        owner=director,
        tables=2,
        rules=TEAM_PRESETS["partnership"].to_dict(),
        status=Tournament.Status.REGISTRATION,
    )
    for seed, (name, members) in enumerate(TEAMS, start=1):
        players = [Player.objects.get_or_create(name=member)[0] for member in members]
        add_team(tournament=tournament, name=name, players=players, seed=seed, user=director)
    generate_bracket(tournament=tournament, user=director)
    rules = tournament.ruleset
    semifinals = Match.objects.filter(tournament=tournament, round=1).order_by("position")
    for index, match in enumerate(semifinals):
        match.refresh_from_db()
        for number, boards in enumerate(team_deals(rules, seed=700 + index), start=1):
            record_deal(match=match, number=number, boards=boards, user=director, dealer="A")
        if index == 0:
            match.refresh_from_db()
            confirm_result(match=match, user=director)
    return tournament
