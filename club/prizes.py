"""A tournament's money as its pages show it: the fee, who paid, the pool, the prizes by
place and, once places are final, by name (:mod:`club.money` does the sums)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from public.data import load
from tournaments.models import Tournament

from .models import TournamentMoney
from .money import Prize
from .pool import amounts, by_place, paid, pool_of


@dataclass(frozen=True, slots=True)
class PlacePrize:
    place: int
    percent: Decimal
    cents: int


@dataclass(frozen=True, slots=True)
class Prizes:
    money: TournamentMoney
    pool: int
    paid: dict[str, int]
    """Cents by method (cash, card; free counts the entries let in free)."""
    places: tuple[PlacePrize, ...]
    winners: tuple[Prize, ...]


def settings_of(tournament: Tournament) -> TournamentMoney:
    found = TournamentMoney.objects.filter(tournament=tournament).first()
    return found or TournamentMoney(tournament=tournament)


def prizes(tournament: Tournament, *, with_winners: bool = True) -> Prizes:
    money = settings_of(tournament)
    found = paid(tournament)
    pool = pool_of(found)
    percentages, place_cents = amounts(money, pool)
    places = tuple(
        PlacePrize(i, p, c)
        for i, (p, c) in enumerate(zip(percentages, place_cents, strict=True), 1)
    )
    winners: tuple[Prize, ...] = ()
    if with_winners and place_cents:
        rows = load(tournament).standings.rows
        won = by_place([row.place for row in rows], place_cents)
        winners = tuple(
            Prize(row.stats.name, row.place_label, w, row.stats.player_id)
            for row, w in zip(rows, won, strict=True)
            if w
        )
    return Prizes(money, pool, dict(found), places, winners)
