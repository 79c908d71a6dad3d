"""Money pages: the director's (fee, payout table, who paid what) and the public prizes
page with its PDF. Writes are for the tournament's directors only (``manage_view``)."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from printing.documents import labels
from printing.pdfs import render_standings
from printing.pdfs.standings import StandingsRow, StandingsSheet
from printing.views import pdf_response
from tournaments.models import Entry, Tournament
from tournaments.views.base import manage_view, message_text

from . import services
from .models import Payment
from .money import amount, parse_percentages
from .prizes import prizes, settings_of


class MoneyForm(forms.Form):
    entry_fee = forms.DecimalField(
        label=gettext_lazy("Entry fee"), min_value=0, max_digits=8, decimal_places=2
    )
    currency = forms.CharField(label=gettext_lazy("Currency"), max_length=8, required=False)
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


class PaymentForm(forms.Form):
    method = forms.ChoiceField(
        label=gettext_lazy("Paid by"),
        choices=[("", gettext_lazy("Not paid")), *Payment.Method.choices],
        required=False,
    )
    amount = forms.DecimalField(
        label=gettext_lazy("Amount"), min_value=0, max_digits=8, decimal_places=2, required=False
    )


def _context(request: HttpRequest, tournament: Tournament, form: MoneyForm | None = None) -> dict:
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
        .only("seed", "player__name", "payment__method", "payment__amount", "tournament")
    )
    return {
        "tournament": tournament,
        "form": form,
        "entries": entries,
        "methods": Payment.Method.choices,
        "summary": prizes(tournament, with_winners=False),
    }


@require_GET
@manage_view
def money_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "club/money.html", _context(request, tournament))


@require_POST
@manage_view
def money_save(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = MoneyForm(request.POST)
    if not form.is_valid():
        return render(request, "club/money.html", _context(request, tournament, form), status=400)
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
    return redirect("club:money", slug=tournament.slug)


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
    return redirect("club:money", slug=tournament.slug)


@require_GET
def prizes_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    found = prizes(tournament)
    return render(request, "club/prizes.html", {"tournament": tournament, "prizes": found})


@require_GET
def prizes_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    found = prizes(tournament)
    currency = found.money.currency
    by_place = {p.place: p for p in found.places}
    rows = tuple(
        StandingsRow(str(p.place), "", (f"{p.percent:g} %", f"{amount(p.cents)} {currency}"))
        for p in by_place.values()
    ) + tuple(
        StandingsRow(w.place_label, w.name, ("", f"{amount(w.cents)} {currency}"))
        for w in found.winners
    )
    subtitle = _("Prize pool: %(pool)s %(currency)s") % {
        "pool": amount(found.pool),
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
