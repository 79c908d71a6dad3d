"""The demo's second tournament: a Swiss qualifying stage cut into a knockout.

Sixteen players play four Swiss rounds of one game to 100; the top eight go into a
single elimination played best of three to 100, with a best-of-five final. The Swiss
rounds are all played with realistic hands, the cut is made, and the quarterfinals
have begun (two confirmed, one in play), so a newcomer sees stages at once.
"""

from __future__ import annotations

import datetime
from typing import Any

from demo.hands import match_hands
from scoring.services import confirm_result, record_hand
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.stages import services as stage_services

NAMES = [
    "Quentin Blake", "Rosa Montero", "Sipho Dlamini", "Thandi Nkosi", "Ulla Berg",
    "Víctor Jara", "Wilma Mankiller", "Ximena Sariñana", "Yusuf Kaya", "Zanele Mbeki",
    "Anneke de Wet", "Bongani Zulu", "Chiara Rossi", "Dolores Ibárruri", "Emil Nolde",
    "Fatima Meer",
]  # fmt: skip


def seed_stages_demo(director: Any) -> Tournament:
    """Create and play the staged demo tournament; returns it."""
    from engine import PRESETS

    tournament = Tournament.objects.create(
        name="Swiss Open (demo)",
        date=datetime.date.today(),
        venue="Club room",
        owner=director,
        tables=8,
        rules=PRESETS["modern"].to_dict(),
        status=Tournament.Status.REGISTRATION,
    )
    for seed, name in enumerate(NAMES, start=1):
        player, _ = Player.objects.get_or_create(name=name, defaults={"rating": 1900 - seed * 20})
        Entry.objects.create(
            tournament=tournament, player=player, seed=seed, checked_in=True, paid=True
        )
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=4,
        advance=8,
        rules={"game_target": 100, "games_to_win": 1},
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        name="Knockout",
        rules={"game_target": 100, "games_to_win": 2},
        round_rules={"3": {"game_target": 100, "games_to_win": 3}},
    )
    stage_services.start(tournament=tournament, user=director)
    for round_ in range(1, 5):
        if round_ > 1:
            stage_services.pair_next_round(stage=swiss, user=director)
        for match in Match.objects.filter(stage=swiss, round=round_, status="ready"):
            _play(match, director, seed=round_ * 100 + match.position)
            confirm_result(match=match, user=director)
    stage_services.close_stage(stage=swiss, user=director)
    quarters = list(Match.objects.filter(stage=knockout, round=1).order_by("position"))
    for index, match in enumerate(quarters[:3]):
        _play(match, director, seed=900 + index, limit=None if index < 2 else 5)
        if index < 2:
            confirm_result(match=match, user=director)
    knockout.refresh_from_db()
    stage_services.start_clock(stage=knockout, minutes=45, user=director)
    return tournament


def _play(match: Match, director: Any, *, seed: int, limit: int | None = None) -> None:
    match.refresh_from_db()
    for number, hand in enumerate(match_hands(match.ruleset, seed=seed, limit=limit), start=1):
        record_hand(match=match, number=number, data=hand, user=director)
