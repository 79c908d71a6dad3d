"""A tournament's money in its archive (the ``"money"`` part, :mod:`archive.sections`):
what its public pages show of it, and nothing of who paid.

The part holds the entry fee, currency, payout table and rounding, the prize pool as one
sum (``pool``, in cents), and each side pot's settings with how many are in it and its
winners as the venue counted them (``entrants``; ``winners``: ``[entry index, place
label, cents]``, once the standings are complete). Payments and who bought into a side
pot are never in it: they are personal, and stay where they were made. A copy keeps the
sums (:attr:`TournamentMoney.venue_pool`, :attr:`SidePot.venue_results`) and shows the
prizes from them; its main pool's winners come from its own standings, as at the venue.

Nothing here imports the archive: a refusal is a ``ValueError`` naming the value, which
the archive reports as its own error.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from money.forms import parse_percentages
from money.models import SidePot, TournamentMoney
from money.pool import counted
from money.prizes import pot_prizes, settings_of, side_pots
from standings.data import load
from tournaments.models import Entry, Tournament

MONEY_KEYS = {"entry_fee", "currency", "payout", "rounding", "pool", "side_pots"}
POT_KEYS = {"name", "buy_in", "payout", "rounding", "entrants", "winners"}
MAX_CENTS = 2**31 - 1
MAX_POTS = 50

PRIVATE_ACTIONS = ("payment recorded", "side pot entry added", "side pot entry removed")
"""Who paid, how and how much; who bought into a side pot: left out of what is published."""


def export(tournament: Tournament, entry_index: dict[int, int], *, published: bool) -> Any:
    """The part, or None for a tournament without money settings or side pots."""
    money = TournamentMoney.objects.filter(tournament=tournament).first()
    pots = side_pots(tournament)
    if money is None and not pots:
        return None
    money = money or settings_of(tournament)
    standings = None
    if any(pot.payout and pot.venue_results is None for pot in pots):
        standings = load(tournament).standings
    return {
        **_table(money),
        "entry_fee": _amount(money.entry_fee),
        "currency": money.currency,
        "pool": counted(tournament, money)[0],
        "side_pots": [_pot(pot, standings, entry_index) for pot in pots],
    }


def _amount(value: Any) -> str:
    """An amount as the database gives it back (5 is "5.00"), so the part goes round."""
    return str(Decimal(value).quantize(Decimal("0.01")))


def _table(table: TournamentMoney | SidePot) -> dict[str, Any]:
    return {"payout": [str(p) for p in table.payout], "rounding": _amount(table.rounding)}


def _pot(pot: SidePot, standings: Any, entry_index: dict[int, int]) -> dict[str, Any]:
    if pot.venue_results is not None:  # a copy's, as it was kept
        count, winners = pot.venue_results["entrants"], pot.venue_results["winners"]
    else:
        found = pot_prizes(pot, standings)
        count = found.count
        winners = [[w.entry_id, w.place_label, w.cents] for w in found.winners]
    return {
        **_table(pot),
        "name": pot.name,
        "buy_in": _amount(pot.buy_in),
        "entrants": count,
        "winners": [
            [entry_index[entry], label, won]
            for entry, label, won in winners
            if entry in entry_index
        ],
    }


def check(value: Any, entries: int) -> tuple[TournamentMoney, list[SidePot]]:
    """The part read strictly: unsaved rows (a pot's winners as entry indexes)."""
    data = _object(value, MONEY_KEYS, "money")
    money = TournamentMoney(
        entry_fee=_field(TournamentMoney, "entry_fee", data["entry_fee"], "entry_fee"),
        currency=_field(TournamentMoney, "currency", data["currency"], "currency"),
        payout=_payout(data["payout"], "payout"),
        rounding=_field(TournamentMoney, "rounding", data["rounding"], "rounding"),
        venue_pool=_whole(data["pool"], "pool"),
    )
    rows = data["side_pots"]
    if not isinstance(rows, list) or len(rows) > MAX_POTS:
        raise ValueError(f"side_pots must be a list of at most {MAX_POTS}")
    pots = [_check_pot(row, f"side_pots[{i}]", entries) for i, row in enumerate(rows)]
    if len({pot.name for pot in pots}) < len(pots):
        raise ValueError("two side pots have the same name")
    return money, pots


def _check_pot(value: Any, where: str, entries: int) -> SidePot:
    data = _object(value, POT_KEYS, where)
    winners = data["winners"]
    if not isinstance(winners, list) or len(winners) > entries:
        raise ValueError(f"{where}.winners must be a list of at most one row per entry")
    kept = []
    for i, row in enumerate(winners):
        at = f"{where}.winners[{i}]"
        if not isinstance(row, list) or len(row) != 3:
            raise ValueError(f"{at} must be [entry, place, cents]")
        entry, label, won = row
        if not _is_whole(entry) or not 0 <= entry < entries:
            raise ValueError(f"{at} refers to no entry")
        if not isinstance(label, str) or not 0 < len(label) <= 20 or "\x00" in label:
            raise ValueError(f"{at} has no place")
        kept.append([entry, label, _whole(won, at)])
    count = _whole(data["entrants"], f"{where}.entrants")
    if count > entries:
        raise ValueError(f"{where}.entrants is more than the entries")
    return SidePot(
        name=_field(SidePot, "name", data["name"], f"{where}.name"),
        buy_in=_field(SidePot, "buy_in", data["buy_in"], f"{where}.buy_in"),
        payout=_payout(data["payout"], f"{where}.payout"),
        rounding=_field(SidePot, "rounding", data["rounding"], f"{where}.rounding"),
        venue_results={"entrants": count, "winners": kept},
    )


def _object(value: Any, keys: set[str], where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be an object")
    if set(value) != keys:
        raise ValueError(f"{where} must have exactly {', '.join(sorted(keys))}")
    return value


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, where: str) -> int:
    if not _is_whole(value) or not 0 <= value <= MAX_CENTS:
        raise ValueError(f"{where} must be a whole number from 0 to {MAX_CENTS}")
    return value


def _field(model: type[models.Model], name: str, value: Any, where: str) -> Any:
    """A text or decimal value as the model's field takes it (amounts are text: "5.00")."""
    if not isinstance(value, str):
        raise ValueError(f"{where} must be text")
    try:
        return model._meta.get_field(name).clean(value, None)
    except ValidationError as error:
        raise ValueError(f"{where}: {' '.join(error.messages)}") from None


def _payout(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise ValueError(f"{where} must be a list of percentages as text")
    try:
        parse_percentages(", ".join(value))
    except (ValueError, ArithmeticError):
        raise ValueError(f"{where} must be percentages from 0 to 100 adding up to 100") from None
    return [str(Decimal(p)) for p in value]


def write(
    checked: tuple[TournamentMoney, list[SidePot]] | None,
    tournament: Tournament,
    entries: list[Entry],
    *,
    copy_owner: Any,
) -> None:
    """The tournament's money made the part's (none without one). Its own payments and
    side pot entrants, which a copy never has, go with what they counted for."""
    if checked is None:
        TournamentMoney.objects.filter(tournament=tournament).delete()
        SidePot.objects.filter(tournament=tournament).delete()
        return
    money, pots = checked
    fields = ["entry_fee", "currency", "payout", "rounding", "venue_pool"]
    TournamentMoney.objects.update_or_create(
        tournament=tournament, defaults={name: getattr(money, name) for name in fields}
    )
    SidePot.objects.filter(tournament=tournament).exclude(
        name__in=[pot.name for pot in pots]
    ).delete()
    for pot in pots:
        results = dict(pot.venue_results)
        results["winners"] = [[entries[i].pk, label, won] for i, label, won in results["winners"]]
        SidePot.objects.update_or_create(
            tournament=tournament,
            name=pot.name,
            defaults={
                "buy_in": pot.buy_in,
                "payout": pot.payout,
                "rounding": pot.rounding,
                "venue_results": results,
            },
        )
