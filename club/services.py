"""The club's writes: seasons (the director's table of points, best N, which tournaments).
Keyword-only, atomic, audited (:mod:`tournaments.audit`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from tournaments import audit, changes
from tournaments.models import Entry, Tournament

from .models import Payment, Season, TournamentMoney

RESERVED_SLUGS = frozenset({"new"})


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "season"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or Season.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _snapshot(season: Season, tournaments: Sequence[int]) -> dict[str, Any]:
    return {
        "name": season.name,
        "scoring": season.scoring,
        "placing_points": list(season.placing_points or []),
        "points_per_win": season.points_per_win,
        "best_of": season.best_of,
        "tournaments": sorted(tournaments),
    }


def save_season(*, season: Season, tournaments: Sequence[Tournament], user: Any) -> Season:
    """Create or change ``season`` (its fields already set) with these tournaments."""
    with transaction.atomic():
        adding = season.pk is None
        before = (
            None
            if adding
            else _snapshot(
                Season.objects.get(pk=season.pk),
                list(season.tournaments.values_list("pk", flat=True)),
            )
        )
        if not season.slug:
            season.slug = unique_slug(season.name)
        season.save()
        season.tournaments.set(tournaments)
        audit.record(
            tournament=None,
            action="season created" if adding else "season changed",
            obj=season,
            before=before,
            after=_snapshot(season, [t.pk for t in tournaments]),
            user=user,
        )
    return season


def save_money(
    *,
    tournament: Tournament,
    entry_fee: Any,
    currency: str,
    payout: list[Any],
    rounding: Any,
    user: Any,
) -> TournamentMoney:
    """The fee, currency, payout table (percent per place) and rounding unit."""
    with transaction.atomic():
        money, _ = TournamentMoney.objects.get_or_create(tournament=tournament)
        before = _money_snapshot(money)
        money.entry_fee, money.currency, money.rounding = entry_fee, currency, rounding
        money.payout = [str(p) for p in payout]
        money.full_clean()
        money.save()
        audit.record(
            tournament=tournament,
            action="money settings changed",
            obj=money,
            before=before,
            after=_money_snapshot(money),
            user=user,
        )
        changes.changed(tournament)  # the standings show the prizes
    return money


def _money_snapshot(money: TournamentMoney) -> dict[str, Any]:
    return {
        "entry_fee": str(money.entry_fee),
        "currency": money.currency,
        "payout": list(money.payout),
        "rounding": str(money.rounding),
    }


def record_payment(*, entry: Entry, method: str, amount: Any, user: Any) -> Payment | None:
    """What ``entry`` paid and how; an empty ``method`` clears it. The registration's
    "paid" flag follows (paid: any payment, free included)."""
    with transaction.atomic():
        found = Payment.objects.filter(entry=entry).first()
        before = {"method": found.method, "amount": str(found.amount)} if found else None
        if not method:
            if found:
                found.delete()
            payment = None
        else:
            payment = found or Payment(entry=entry)
            payment.method = method
            payment.amount = 0 if method == Payment.Method.FREE else amount
            payment.full_clean()
            payment.save()
        Entry.objects.filter(pk=entry.pk).update(paid=payment is not None)
        audit.record(
            tournament=entry.tournament,
            action="payment recorded",
            obj=entry,
            before=before,
            after={"method": payment.method, "amount": str(payment.amount)} if payment else None,
            user=user,
        )
        changes.changed(entry.tournament_id)  # the prize pool, on the standings
    return payment
