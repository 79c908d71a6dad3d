"""Money pages: the director's (fee, payout table, who paid what) and the public prizes
page with its PDF. Writes are for the tournament's directors only (``manage_view``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from money import services
from money.models import Payment, SidePot
from money.money import Prize, cents
from money.prizes import PlacePrize, PotPrizes, prizes, settings_of
from money.templatetags.club_money import money, percent
from printing.documents import labels
from printing.pdfs import render_standings
from printing.pdfs.standings import StandingsRow, StandingsSheet
from printing.views import pdf_response
from tournaments.models import Entry, Tournament
from tournaments.number_fields import IdsChoiceField
from tournaments.numbers import decimal_in
from tournaments.permissions import shown_to
from tournaments.views.base import manage_view, message_text


def parse_percentages(text: str) -> tuple[Decimal, ...]:
    """ "50, 30, 20" as percentages per place; ValueError unless each is 0–100 and they
    add up to 100 (or nothing is given)."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if len(parts) > 64:
        raise ValueError(text)
    # Finite, 0–100, in plain form (1e2 is 100): tournaments.numbers.
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


@dataclass(frozen=True, slots=True)
class PotPanel:
    """One side pot on the director's page: its form, who may tick in, its sums."""

    pot: SidePot
    form: SidePotForm
    entries: list[tuple[Entry, bool]]
    summary: PotPrizes


class PaymentForm(forms.Form):
    method = forms.ChoiceField(
        label=gettext_lazy("Paid by"),
        choices=[("", gettext_lazy("Not paid")), *Payment.Method.choices],
        required=False,
    )
    amount = forms.DecimalField(
        label=gettext_lazy("Amount"), min_value=0, max_digits=8, decimal_places=2, required=False
    )


def page_context(
    request: HttpRequest,
    tournament: Tournament,
    form: MoneyForm | None = None,
    *,
    pot_form: SidePotForm | None = None,
    pot: SidePot | None = None,
) -> dict:
    """The page; ``pot_form`` refused goes where it was sent from: the new side pot's
    form, or ``pot``'s."""
    money = settings_of(tournament)
    if form is None:
        form = MoneyForm(
            initial={
                "entry_fee": money.entry_fee,
                "currency": money.currency,
                "payout": ", ".join(str(p) for p in money.payout),
                "rounding": money.rounding,
            }
        )
    entries = list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player", "payment")
        .only(
            "seed",
            "withdrawn",
            "player__name",
            "payment__method",
            "payment__amount",
            "tournament",
        )
    )
    summary = prizes(tournament, with_winners=False)
    panels = []
    for found in summary.side_pots:
        inside = {row.entry_id for row in found.pot.entrants.all()}
        # A withdrawn entrant stays listed so the director can take them out.
        withdrawn = [row.entry for row in found.pot.entrants.all() if row.entry.withdrawn]
        listed = [(entry, entry.pk in inside) for entry in entries]
        listed += [(entry, True) for entry in withdrawn]
        own_form = pot_form if pot is not None and pot.pk == found.pot.pk else None
        panels.append(PotPanel(found.pot, own_form or SidePotForm.of(found.pot), listed, found))
    new_pot_form = pot_form if pot_form is not None and pot is None else None
    return {
        "tournament": tournament,
        "form": form,
        "entries": entries,
        "methods": Payment.Method.choices,
        "summary": summary,
        "side_pots": panels,
        "new_pot_form": new_pot_form
        or SidePotForm(auto_id=SidePotForm.auto_id(None), initial={"rounding": 1}),
    }


@require_GET
@manage_view
def money_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "money/money.html", page_context(request, tournament))


@require_POST
@manage_view
def money_save(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = MoneyForm(request.POST)
    if not form.is_valid():
        return render(
            request, "money/money.html", page_context(request, tournament, form), status=400
        )
    data = form.cleaned_data
    services.save_money(
        tournament=tournament,
        entry_fee=data["entry_fee"],
        currency=data["currency"],
        payout=list(data["payout"]),
        rounding=data["rounding"],
        user=request.user,
    )
    messages.success(request, _("Money settings saved."))
    return redirect("money:money", slug=tournament.slug)


@require_POST
@manage_view
def payment_save(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    form = PaymentForm(request.POST)
    if form.is_valid():
        method = form.cleaned_data["method"]
        value = form.cleaned_data["amount"]
        if value is None:
            value = settings_of(tournament).entry_fee
        try:
            services.record_payment(entry=entry, method=method, amount=value, user=request.user)
        except ValidationError as error:
            messages.error(request, message_text(error))
        else:
            messages.success(
                request, _("Payment recorded for %(name)s.") % {"name": entry.player.name}
            )
    else:
        messages.error(request, _("That payment could not be read: nothing was changed."))
    return redirect("money:money", slug=tournament.slug)


@require_GET
def prizes_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    found = prizes(tournament)
    return render(request, "money/prizes.html", {"tournament": tournament, "prizes": found})


@require_GET
def prizes_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    found = prizes(tournament)
    currency = found.money.currency
    rows = _prize_rows(found.places, found.winners, currency)
    for side in found.side_pots:
        rows += (
            _side_pot_heading(side, currency),
            *_prize_rows(side.places, side.winners, currency),
        )
    subtitle = _("Prize pool: %(pool)s %(currency)s") % {
        "pool": money(found.pool),
        "currency": currency,
    }
    sheet = StandingsSheet(
        tournament.name,
        _("Prizes"),
        (_("Share"), _("Prize")),
        rows,
        subtitle=subtitle,
        page_size=tournament.page_size,
    )
    return pdf_response(render_standings(sheet, labels=labels()), f"{slug}-prizes.pdf")


def _prize_rows(
    places: Sequence[PlacePrize], winners: Sequence[Prize], currency: str
) -> tuple[StandingsRow, ...]:
    """The prize of each place, then (once places are decided) of each winner by name,
    each list under a line that says what it is."""
    rows = tuple(
        StandingsRow(str(p.place), "", (f"{percent(p.percent)} %", f"{money(p.cents)} {currency}"))
        for p in places
    )
    if rows:
        rows = (StandingsRow("", _("Payout table"), ("", "")), *rows)
    if winners:
        rows += (StandingsRow("", _("Winners"), ("", "")),)
        rows += tuple(
            StandingsRow(w.place_label, w.name, ("", f"{money(w.cents)} {currency}"))
            for w in winners
        )
    return rows


def _side_pot_heading(side: PotPrizes, currency: str) -> StandingsRow:
    """A side pot's line in the prizes PDF: its name, buy-in and entrants; its pool."""
    count = len(side.entrants)
    entrants = ngettext("%(counter)s player in", "%(counter)s players in", count) % {
        "counter": count
    }
    text = _("Side pot: %(name)s · buy-in %(buy_in)s %(currency)s · %(entrants)s") % {
        "name": side.pot.name,
        "buy_in": money(cents(side.pot.buy_in)),
        "currency": currency,
        "entrants": entrants,
    }
    return StandingsRow("", text, ("", f"{money(side.pool)} {currency}"))
