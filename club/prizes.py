"""A tournament's money as its pages show it: the fee, who paid, the pool, the prizes by
place and, once places are final, by name (:mod:`club.money` does the sums)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from public.data import load
from public.standings import Standing
from tournaments.models import Tournament

from .models import Payment, TournamentMoney
from .money import Prize, cents, payouts, shares


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


def _paid(tournament: Tournament) -> Counter[str]:
    """Cents paid by method (cash, card; free counts the entries let in free); one query."""
    paid: Counter[str] = Counter()
    for method, value in Payment.objects.filter(
        entry__tournament=tournament, entry__withdrawn=False
    ).values_list("method", "amount"):
        paid[method] += cents(value) if method != Payment.Method.FREE else 1
    return paid


def _amounts(money: TournamentMoney, pool: int) -> tuple[list[Decimal], list[int]]:
    percentages = [Decimal(str(p)) for p in money.payout]
    return percentages, payouts(pool, percentages, cents(money.rounding))


def _by_row(rows: Sequence[Standing], amounts: Sequence[int]) -> list[int]:
    sharing = Counter(row.place for row in rows if row.place is not None)
    return shares([(row.place, sharing.get(row.place, 1)) for row in rows], amounts)


def prizes(tournament: Tournament, *, with_winners: bool = True) -> Prizes:
    money = settings_of(tournament)
    paid = _paid(tournament)
    pool = paid[Payment.Method.CASH] + paid[Payment.Method.CARD]
    percentages, amounts = _amounts(money, pool)
    places = tuple(
        PlacePrize(i, p, c) for i, (p, c) in enumerate(zip(percentages, amounts, strict=True), 1)
    )
    winners: tuple[Prize, ...] = ()
    if with_winners and amounts:
        rows = load(tournament).standings.rows
        winners = tuple(
            Prize(row.stats.name, row.place_label, won, row.stats.player_id)
            for row, won in zip(rows, _by_row(rows, amounts), strict=True)
            if won
        )
    return Prizes(money, pool, dict(paid), places, winners)


@dataclass(frozen=True, slots=True)
class StandingPrizes:
    """The prize of each entry with a final place that pays, for the standings' column."""

    currency: str
    by_entry: dict[int, int]
    """Cents by entry id (entries without a prize are left out)."""


def standing_prizes(tournament: Tournament, rows: Sequence[Standing]) -> StandingPrizes | None:
    """What the standings ``rows`` (in order) win; None when the tournament has no payout
    table or nothing in the pool. One query without money settings, two with."""
    money = TournamentMoney.objects.filter(tournament=tournament).first()
    if money is None or not money.payout:
        return None
    paid = _paid(tournament)
    _percentages, amounts = _amounts(money, paid[Payment.Method.CASH] + paid[Payment.Method.CARD])
    if not any(amounts):
        return None
    won = _by_row(rows, amounts)
    by_entry = {row.stats.entry_id: w for row, w in zip(rows, won, strict=True) if w}
    return StandingPrizes(money.currency, by_entry)
