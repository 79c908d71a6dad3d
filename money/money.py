"""Money, pure: the prize pool and the payout table (no Django, no queries).

Amounts are whole cents. The payout table gives percentages of the pool per place; each
prize is rounded down to the chosen unit (say 5.00), and what rounding leaves over goes
to first place, so the prizes always add up to the pool exactly. Players sharing a place
(the two losing semifinalists, "3–4") share the prizes of the places they cover equally.

A side pot pays out the same way, from its own pool (buy-in × entrants) and table, to its
entrants ranked among themselves by their tournament places (:func:`ranked_among`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

T = TypeVar("T")


def payouts(pool: int, percentages: Sequence[Decimal], unit: int) -> list[int]:
    """The prize of each place in cents, rounded down to ``unit`` cents, the rest to 1st."""
    if not percentages or pool <= 0:
        return [0] * len(percentages)
    unit = max(1, unit)
    prizes = [int(pool * p / 100) // unit * unit for p in percentages]
    prizes[0] += pool - sum(prizes)
    return prizes


@dataclass(frozen=True, slots=True)
class Prize:
    name: str
    place_label: str
    cents: int
    player_id: int | None = None
    """The club player's page the name links to (None: none, or hidden)."""
    entry_id: int | None = None


def shares(rows: Sequence[tuple[int | None, int]], prizes: Sequence[int]) -> list[int]:
    """Each row's prize in cents, by final placings. ``rows``: (place, players sharing the
    place) in standings order; a group sharing places ``place``…``place + n - 1`` splits
    their prizes evenly (cents that do not divide go to the first listed); 0 for no prize."""
    result = []
    seen: dict[int, int] = {}
    for place, sharing in rows:
        if place is None or place > len(prizes):
            result.append(0)
            continue
        group = prizes[place - 1 : place - 1 + sharing]
        total = sum(group)
        index = seen.get(place, 0)
        seen[place] = index + 1
        result.append(total // sharing + (1 if index < total % sharing else 0))
    return result


def cents(value: Decimal | int | str) -> int:
    return int((Decimal(value) * 100).to_integral_value())


def amount(value: int) -> str:
    """Cents as people write money: 12.50 (the template localizes)."""
    return f"{value // 100}.{value % 100:02d}"


def pot_pool(buy_in: int, entrants: int) -> int:
    """A side pot's pool in cents: every entrant bought in for ``buy_in`` cents."""
    return buy_in * entrants


def ranked_among(entrants: Sequence[tuple[T, int | None]]) -> list[tuple[T, int, str, int]]:
    """A side pot's entrants (whoever, tournament place) ranked among themselves:
    (whoever, place 1…n, place label, entrants sharing it); :func:`shares` takes the
    place and the sharing.

    Entrants on the same tournament place stay tied ("2–3" for places 5–8 shared by the
    second and third best entrants); the next entrant's place counts the tied ones
    (1, 2, 2, 4). Entrants without a place (not placed yet) are left out.
    """
    placed = sorted(((n, p) for n, p in entrants if p is not None), key=lambda row: row[1])
    sharing = Counter(place for _name, place in placed)
    rows = []
    rank, previous = 0, None
    for index, (name, place) in enumerate(placed, 1):
        if place != previous:
            rank, previous = index, place
        last = rank + sharing[place] - 1
        label = str(rank) if last == rank else f"{rank}–{last}"
        rows.append((name, rank, label, sharing[place]))
    return rows
