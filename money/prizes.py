"""A tournament's money as its pages show it: the fee, who paid, the pool, the prizes by
place and, once places are final, by name; then each side pot the same way, its prizes
by name once the standings are complete (:mod:`money.money` does the sums)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch

from money.models import SidePot, SidePotEntry, TournamentMoney
from money.money import Prize, cents, pot_pool, ranked_among, shares
from money.pool import amounts, by_place, counted
from standings.data import load
from standings.standings import Standings
from tournaments.models import Tournament


@dataclass(frozen=True, slots=True)
class PlacePrize:
    place: int
    percent: Decimal
    cents: int


@dataclass(frozen=True, slots=True)
class PotPrizes:
    """One side pot: who is in (names, counted in the pool), its pool and prizes."""

    pot: SidePot
    entrants: tuple[str, ...]
    """Their names (none for a copy's pot: who bought in stays at the venue)."""
    count: int
    """How many are in."""
    pool: int
    places: tuple[PlacePrize, ...]
    winners: tuple[Prize, ...]


@dataclass(frozen=True, slots=True)
class Prizes:
    money: TournamentMoney
    pool: int
    paid: dict[str, int]
    """Cents by method (cash, card; free counts the entries let in free)."""
    places: tuple[PlacePrize, ...]
    winners: tuple[Prize, ...]
    side_pots: tuple[PotPrizes, ...] = ()


def settings_of(tournament: Tournament) -> TournamentMoney:
    found = TournamentMoney.objects.filter(tournament=tournament).first()
    return found or TournamentMoney(tournament=tournament)


def _places(table: TournamentMoney | SidePot, pool: int) -> tuple[PlacePrize, ...]:
    percentages, place_cents = amounts(table, pool)
    return tuple(
        PlacePrize(i, p, c)
        for i, (p, c) in enumerate(zip(percentages, place_cents, strict=True), 1)
    )


def prizes(tournament: Tournament, *, with_winners: bool = True) -> Prizes:
    money = settings_of(tournament)
    pool, found = counted(tournament, money)
    places = _places(money, pool)
    pots = side_pots(tournament)
    standings = None
    if with_winners and (places or any(pot.payout for pot in pots)):
        standings = load(tournament).standings
    winners: tuple[Prize, ...] = ()
    if standings is not None and places:
        rows = standings.rows
        won = by_place([row.place for row in rows], [p.cents for p in places])
        winners = tuple(
            Prize(row.stats.name, row.place_label, w, row.stats.player_id, row.stats.entry_id)
            for row, w in zip(rows, won, strict=True)
            if w
        )
    side = tuple(pot_prizes(pot, standings) for pot in pots)
    return Prizes(money, pool, dict(found), places, winners, side)


def side_pots(tournament: Tournament) -> list[SidePot]:
    return list(
        SidePot.objects.filter(tournament=tournament).prefetch_related(
            Prefetch("entrants", SidePotEntry.objects.select_related("entry__player"))
        )
    )


def pot_prizes(pot: SidePot, standings: Standings | None) -> PotPrizes:
    """A withdrawn entrant is out of the pot as out of the main pool (its money handed
    back), and takes no place in it."""
    if pot.venue_results is not None:
        return _kept_pot(pot, standings)
    names = {
        row.entry_id: row.entry.player.name for row in pot.entrants.all() if not row.entry.withdrawn
    }
    pool = pot_pool(cents(pot.buy_in), len(names))
    places = _places(pot, pool)
    winners: tuple[Prize, ...] = ()
    if standings is not None and standings.complete and places:
        ranked = ranked_among(
            [(row, row.place) for row in standings.rows if row.stats.entry_id in names]
        )
        in_cents = [p.cents for p in places]
        won = shares([(rank, sharing) for _row, rank, _label, sharing in ranked], in_cents)
        winners = tuple(
            Prize(row.stats.name, label, w, row.stats.player_id, row.stats.entry_id)
            for (row, _rank, label, _sharing), w in zip(ranked, won, strict=True)
            if w
        )
    ordered = tuple(sorted(names.values(), key=str.casefold))
    return PotPrizes(pot, ordered, len(ordered), pool, places, winners)


def _kept_pot(pot: SidePot, standings: Standings | None) -> PotPrizes:
    """A copy's pot, as the venue counted it (:mod:`money.copies`): its winners named as
    the copy's standings name their entries."""
    kept = pot.venue_results
    count = kept["entrants"]
    pool = pot_pool(cents(pot.buy_in), count)
    rows = {row.stats.entry_id: row for row in standings.rows} if standings is not None else {}
    winners = tuple(
        Prize(rows[entry].stats.name, label, won, rows[entry].stats.player_id, entry)
        for entry, label, won in kept["winners"]
        if entry in rows
    )
    return PotPrizes(pot, (), count, pool, _places(pot, pool), winners)
