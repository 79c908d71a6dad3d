"""A tournament's money as its pages show it: the fee, who paid, the pool, the prizes by
place and, once places are final, by name (:mod:`club.money` does the sums)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from public.data import load
from tournaments.models import Tournament

from .models import Payment, TournamentMoney
from .money import Prize, cents, payouts, shared


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
    paid: Counter[str] = Counter()
    for method, value in Payment.objects.filter(
        entry__tournament=tournament, entry__withdrawn=False
    ).values_list("method", "amount"):
        paid[method] += cents(value) if method != Payment.Method.FREE else 1
    pool = paid[Payment.Method.CASH] + paid[Payment.Method.CARD]
    percentages = [Decimal(str(p)) for p in money.payout]
    amounts = payouts(pool, percentages, cents(money.rounding))
    places = tuple(
        PlacePrize(i, p, c) for i, (p, c) in enumerate(zip(percentages, amounts, strict=True), 1)
    )
    winners: tuple[Prize, ...] = ()
    if with_winners and amounts:
        rows = load(tournament).standings.rows
        sharing = Counter(row.place for row in rows if row.place is not None)
        winners = tuple(
            shared(
                [(r.stats.name, r.place, r.place_label, sharing.get(r.place, 1)) for r in rows],
                amounts,
            )
        )
    return Prizes(money, pool, dict(paid), places, winners)
