"""Money pages: the director's (fee, payout table, who paid what, side pots: add one,
change it, tick who is in, delete it) and the public prizes page with its PDF. Every write
is a POST from a plain form (no JavaScript needed), for the tournament's directors only
(``manage_view``); a refused one changes nothing and says why."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from money import services
from money.forms import EntrantsForm, MoneyForm, PaymentForm, SidePotForm
from money.models import Payment, SidePot
from money.prizes import PotPrizes, prizes, settings_of
from tournaments.models import Entry, Tournament
from tournaments.permissions import shown_to
from tournaments.views.base import manage_view, message_text


@dataclass(frozen=True, slots=True)
class PotPanel:
    """One side pot on the director's page: its form, who may tick in, its sums."""

    pot: SidePot
    form: SidePotForm
    entries: list[tuple[Entry, bool]]
    summary: PotPrizes


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


def _save(request: HttpRequest, tournament: Tournament, pot: SidePot | None) -> HttpResponse:
    form = SidePotForm(request.POST, auto_id=SidePotForm.auto_id(pot))
    if form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.save_side_pot(
                tournament=tournament,
                pot=pot,
                name=data["name"],
                buy_in=data["buy_in"],
                payout=list(data["payout"]),
                rounding=data["rounding"],
                user=request.user,
            )
        except ValidationError as error:
            form.add_error(None, message_text(error))
        else:
            messages.success(request, _("Side pot %(name)s saved.") % {"name": saved.name})
            return redirect("money:money", slug=tournament.slug)
    context = page_context(request, tournament, pot_form=form, pot=pot)
    return render(request, "money/money.html", context, status=400)


@require_POST
@manage_view
def side_pot_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _save(request, tournament, None)


@require_POST
@manage_view
def side_pot_save(request: HttpRequest, tournament: Tournament, pot_id: int) -> HttpResponse:
    return _save(request, tournament, get_object_or_404(SidePot, pk=pot_id, tournament=tournament))


@require_POST
@manage_view
def side_pot_entrants(request: HttpRequest, tournament: Tournament, pot_id: int) -> HttpResponse:
    pot = get_object_or_404(SidePot, pk=pot_id, tournament=tournament)
    form = EntrantsForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, _("That list of players could not be read: nothing was changed."))
        return redirect("money:money", slug=tournament.slug)
    try:
        services.set_side_pot_entrants(
            pot=pot, entries=list(form.cleaned_data["entry"]), user=request.user
        )
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Who is in %(name)s saved.") % {"name": pot.name})
    return redirect("money:money", slug=tournament.slug)


@require_POST
@manage_view
def side_pot_delete(request: HttpRequest, tournament: Tournament, pot_id: int) -> HttpResponse:
    pot = get_object_or_404(SidePot, pk=pot_id, tournament=tournament)
    try:
        services.delete_side_pot(pot=pot, user=request.user)
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Side pot %(name)s deleted.") % {"name": pot.name})
    return redirect("money:money", slug=tournament.slug)


@require_GET
def prizes_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    found = prizes(tournament)
    return render(request, "money/prizes.html", {"tournament": tournament, "prizes": found})
