"""The prize pool and what each final place wins, read from the money store.

Stands on ``tournaments`` and the club's store alone (like :mod:`club.ratings`), so that
the public standings and their PDF can show the prizes without knowing the club's pages:
the caller gives the places in standings order, this gives each one's prize.
:mod:`money.money` does the sums."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from money.models import Payment, SidePot, TournamentMoney
from money.money import cents, payouts, shares
from money.templatetags.money_tags import money
from tournaments.models import Tournament


def paid(tournament: Tournament) -> Counter[str]:
    """Cents paid by method (cash, card; free counts the entries let in free); one query."""
    found: Counter[str] = Counter()
    for method, value in Payment.objects.filter(
        entry__tournament=tournament, entry__withdrawn=False
    ).values_list("method", "amount"):
        found[method] += cents(value) if method != Payment.Method.FREE else 1
    return found


def pool_of(found: Counter[str]) -> int:
    return found[Payment.Method.CASH] + found[Payment.Method.CARD]


def counted(tournament: Tournament, money: TournamentMoney) -> tuple[int, Counter[str]]:
    """The pool in cents and what was paid by method: counted from the payments, or for a
    copy (a mirror), the venue's pool, its payments left at the venue."""
    if money.venue_pool is not None:
        return money.venue_pool, Counter()
    found = paid(tournament)
    return pool_of(found), found


def amounts(money: TournamentMoney | SidePot, pool: int) -> tuple[list[Decimal], list[int]]:
    """The payout table's percentages and each place's prize in cents (of the main pool,
    or of a side pot's: each has its own table and rounding unit)."""
    percentages = [Decimal(str(p)) for p in money.payout]
    return percentages, payouts(pool, percentages, cents(money.rounding))


def by_place(places: Sequence[int | None], prizes: Sequence[int]) -> list[int]:
    """Each row's prize, ``places`` in standings order (None: no final place yet); rows
    sharing a place split the prizes of the places they cover."""
    sharing = Counter(place for place in places if place is not None)
    return shares([(place, sharing.get(place, 1) if place else 1) for place in places], prizes)


@dataclass(frozen=True, slots=True)
class StandingPrizes:
    """The prize of each entry with a final place that pays, for the standings' column."""

    currency: str
    by_entry: dict[int, int]
    """Cents by entry id (entries without a prize are left out)."""

    def text(self, entry_id: int) -> str:
        """The entry's prize as money in the active language; "" without one."""
        return money(self.by_entry[entry_id]) if entry_id in self.by_entry else ""


def standing_prizes(
    tournament: Tournament, places: Sequence[tuple[int, int | None]]
) -> StandingPrizes | None:
    """What each entry wins; ``places``: (entry id, final place or None) in standings
    order. None when the tournament has no payout table or nothing in the pool. One query
    without money settings, two with."""
    money = TournamentMoney.objects.filter(tournament=tournament).first()
    if money is None or not money.payout:
        return None
    _percentages, prizes = amounts(money, counted(tournament, money)[0])
    if not any(prizes):
        return None
    won = by_place([place for _entry, place in places], prizes)
    by_entry = {entry: w for (entry, _place), w in zip(places, won, strict=True) if w}
    return StandingPrizes(money.currency, by_entry)
