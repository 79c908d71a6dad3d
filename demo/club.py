"""The demo club's history (``seed_demo``): three finished club nights in the last weeks,
in one season, so that player pages, the club rating and the season table have something
to show on a fresh clone. Played through the services, hand by hand."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from club import ratings, services
from club.models import Season
from demo.hands import match_hands
from engine import PRESETS
from money import services as money_services
from scoring.services import confirm_result, record_hand
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Player, Tournament

# Who came to which night (indexes into the demo's names); seeded in this order.
NIGHTS = (
    ("Club night, week 1 (demo)", 21, (0, 1, 2, 3, 4, 5, 6, 7)),
    ("Club night, week 2 (demo)", 14, (0, 2, 4, 6, 8, 9, 10, 11)),
    ("Club night, week 3 (demo)", 7, (1, 3, 0, 5, 7, 9, 11, 12)),
)
SEASON = "Autumn league (demo)"
FEE = Decimal("5.00")
PAYOUT = (50, 30, 20)  # percent of the pool to 1st, 2nd, and 3rd–4th shared


def seed_history(director: Any, names: list[str]) -> Season:
    """The nights, played and finished, then the season of them; ratings computed."""
    today = datetime.date.today()
    nights = [
        _night(director, name, today - datetime.timedelta(days=days), [names[i] for i in who], n)
        for n, (name, days, who) in enumerate(NIGHTS)
    ]
    season = Season(
        name=SEASON,
        owner=director,
        scoring=Season.Scoring.PLACING,
        placing_points=[10, 7, 5, 5, 2, 2, 2, 2],
        best_of=2,
    )
    services.save_season(season=season, tournaments=nights, user=director)
    ratings.recompute()
    return season


def _night(
    director: Any, name: str, date: datetime.date, players: list[str], number: int
) -> Tournament:
    tournament = Tournament.objects.create(
        name=name,
        date=date,
        venue="Club room",
        owner=director,
        tables=4,
        rules=PRESETS["modern"].to_dict(),
        status=Tournament.Status.REGISTRATION,
    )
    money_services.save_money(
        tournament=tournament,
        entry_fee=FEE,
        currency="€",
        payout=[Decimal(p) for p in PAYOUT],
        rounding=Decimal(1),
        user=director,
    )
    for seed, player_name in enumerate(players, start=1):
        player, _ = Player.objects.get_or_create(name=player_name)
        entry = Entry.objects.create(
            tournament=tournament, player=player, seed=seed, checked_in=True
        )
        # Everyone pays at the door, by card or in cash; the last seed plays free (a guest).
        method = "free" if seed == len(players) else ("card" if seed % 3 == 0 else "cash")
        money_services.record_payment(entry=entry, method=method, amount=FEE, user=director)
    generate_bracket(tournament=tournament, user=director)
    rules = tournament.ruleset
    seed = 1000 * (number + 1)
    while ready := list(
        Match.objects.filter(tournament=tournament, status=Match.Status.READY)
        .exclude(side_a=None)
        .exclude(side_b=None)
        .order_by("round", "section", "position")
    ):
        for match in ready:
            seed += 1
            for hand_number, hand in enumerate(match_hands(rules, seed=seed), start=1):
                record_hand(match=match, number=hand_number, data=hand, user=director)
            match.refresh_from_db()
            confirm_result(match=match, user=director, version=match.version)
    return tournament
