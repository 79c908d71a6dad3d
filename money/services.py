"""One tournament's money writes: the fee, currency and payout table, payments and side
pots. Keyword-only, atomic, audited (:mod:`tournaments.audit`); a refused write raises
ValidationError and changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from money.models import Payment, SidePot, SidePotEntry, TournamentMoney
from tournaments import audit, public_version
from tournaments.models import Entry, Tournament
from web.unique import taken


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
        public_version.changed(tournament)  # the standings show the prizes
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
        # One payment per entry: two at once queue on the entry's row.
        Entry.objects.select_for_update().filter(pk=entry.pk).exists()
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
        public_version.changed(entry.tournament_id)  # the prize pool, on the standings
    return payment


def _pot_snapshot(pot: SidePot) -> dict[str, Any]:
    return {
        "name": pot.name,
        "buy_in": str(pot.buy_in),
        "payout": list(pot.payout),
        "rounding": str(pot.rounding),
    }


def save_side_pot(
    *,
    tournament: Tournament,
    pot: SidePot | None = None,
    name: str,
    buy_in: Any,
    payout: list[Any],
    rounding: Any,
    user: Any,
) -> SidePot:
    """Create a side pot of ``tournament``, or change ``pot`` (one of its pots): name,
    buy-in, payout table (percent per place) and rounding unit. A changed buy-in applies
    to everybody already in."""
    with transaction.atomic():
        adding = pot is None
        if pot is None:
            pot = SidePot(tournament=tournament)
        elif pot.tournament_id != tournament.pk:
            raise ValueError("the side pot is of another tournament")
        before = None if adding else _pot_snapshot(SidePot.objects.get(pk=pot.pk))
        pot.name, pot.buy_in, pot.rounding = name, buy_in, rounding
        pot.payout = [str(p) for p in payout]
        exists = _("A side pot called %(name)s already exists.") % {"name": name}
        if SidePot.objects.filter(tournament=tournament, name=name).exclude(pk=pot.pk).exists():
            raise ValidationError(exists)
        pot.full_clean()
        with taken(exists):
            pot.save()
        audit.record(
            tournament=tournament,
            action="side pot created" if adding else "side pot changed",
            obj=pot,
            before=before,
            after=_pot_snapshot(pot),
            user=user,
        )
    return pot


def delete_side_pot(*, pot: SidePot, user: Any) -> None:
    """Delete a side pot nobody is in; refused while anybody has bought in (take them out
    first: their buy-in is theirs to get back)."""
    with transaction.atomic():
        pot = SidePot.objects.select_for_update().get(pk=pot.pk)
        if pot.entrants.exists():
            raise ValidationError(
                _("%(name)s still has players in it: take them out first, then delete it.")
                % {"name": pot.name},
                code="entrants",
            )
        before = _pot_snapshot(pot)
        audit.record(
            tournament=pot.tournament, action="side pot deleted", obj=pot, before=before, user=user
        )
        pot.delete()


def set_side_pot_entrants(*, pot: SidePot, entries: Sequence[Entry], user: Any) -> None:
    """Who is in ``pot``: ``entries`` are, everybody else is not. Refused (nothing
    changed) for an entry of another tournament, or a withdrawn one not in already."""
    with transaction.atomic():
        pot = SidePot.objects.select_for_update().select_related("tournament").get(pk=pot.pk)
        current = {row.entry_id: row for row in pot.entrants.select_related("entry__player")}
        wanted = {entry.pk: entry for entry in entries}
        added = [entry for pk, entry in wanted.items() if pk not in current]
        for entry in added:
            if entry.withdrawn:
                raise ValidationError(
                    _("%(name)s has withdrawn and cannot buy into a side pot.")
                    % {"name": entry.player.name},
                    code="withdrawn",
                )
            SidePotEntry(pot=pot, entry=entry).full_clean()
        SidePotEntry.objects.bulk_create(SidePotEntry(pot=pot, entry=entry) for entry in added)
        removed = [row for pk, row in current.items() if pk not in wanted]
        SidePotEntry.objects.filter(pk__in=[row.pk for row in removed]).delete()
        changed = [(entry, "side pot entry added") for entry in added]
        changed += [(row.entry, "side pot entry removed") for row in removed]
        for entry, action in changed:
            audit.record(
                tournament=pot.tournament,
                action=action,
                obj=entry,
                after={"side_pot": pot.name},
                user=user,
            )
