"""The money page's forms: the fee and payout table, a side pot, who is in a side pot,
a payment."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from money.models import Payment, SidePot
from tournaments.models import Entry, Tournament
from web.number_fields import IdsChoiceField
from web.numbers import decimal_in


def parse_percentages(text: str) -> tuple[Decimal, ...]:
    """ "50, 30, 20" as percentages per place; ValueError unless each is 0–100 and they
    add up to 100 (or nothing is given)."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if len(parts) > 64:
        raise ValueError(text)
    # Finite, 0–100, in plain form (1e2 is 100): web.numbers.
    values = tuple(decimal_in(p.strip().rstrip("%"), low=0, high=100, places=4) for p in parts)
    if values and sum(values) != 100:
        raise ValueError(text)
    return values


class PayoutForm(forms.Form):
    """The payout table and its rounding unit, as the main pool and a side pot take them."""

    payout = forms.CharField(
        label=gettext_lazy("Payout table (percent per place)"),
        required=False,
        help_text=gettext_lazy("For example 50, 30, 20: they must add up to 100."),
    )
    rounding = forms.DecimalField(
        label=gettext_lazy("Round prizes down to"),
        min_value=Decimal("0.01"),
        max_digits=8,
        decimal_places=2,
    )

    def clean_payout(self) -> tuple[Decimal, ...]:
        try:
            return parse_percentages(self.cleaned_data.get("payout", ""))
        except ValueError:
            raise forms.ValidationError(
                _("Give percentages from 0 to 100 that add up to 100."), code="payout"
            ) from None


class MoneyForm(PayoutForm):
    entry_fee = forms.DecimalField(
        label=gettext_lazy("Entry fee"), min_value=0, max_digits=8, decimal_places=2
    )
    currency = forms.CharField(label=gettext_lazy("Currency"), max_length=8, required=False)
    field_order = ["entry_fee", "currency", "payout", "rounding"]


class SidePotForm(PayoutForm):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    buy_in = forms.DecimalField(
        label=gettext_lazy("Buy-in"), min_value=0, max_digits=8, decimal_places=2
    )
    field_order = ["name", "buy_in", "payout", "rounding"]

    @staticmethod
    def auto_id(pot: SidePot | None) -> str:
        """Field ids unique on a page of several pots: the new pot's form, or ``pot``'s."""
        return "new-pot-%s" if pot is None else f"pot{pot.pk}-%s"

    @classmethod
    def of(cls, pot: SidePot) -> SidePotForm:
        """The form to change ``pot``, filled in (ids unique on a page of several pots)."""
        initial = {
            "name": pot.name,
            "buy_in": pot.buy_in,
            "payout": ", ".join(str(p) for p in pot.payout),
            "rounding": pot.rounding,
        }
        return cls(initial=initial, auto_id=cls.auto_id(pot))


class EntrantsForm(forms.Form):
    """A side pot's tick-boxes: the entries in it (of this tournament only)."""

    entry = IdsChoiceField(queryset=Entry.objects.none(), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["entry"]
        field.queryset = tournament.entries.select_related("player")  # type: ignore[attr-defined]


class PaymentForm(forms.Form):
    method = forms.ChoiceField(
        label=gettext_lazy("Paid by"),
        choices=[("", gettext_lazy("Not paid")), *Payment.Method.choices],
        required=False,
    )
    amount = forms.DecimalField(
        label=gettext_lazy("Amount"), min_value=0, max_digits=8, decimal_places=2, required=False
    )
