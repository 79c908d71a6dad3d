"""The director's side pots, on the money page: add one, change it, tick who is in, delete
it. Every write is a POST from a plain form (no JavaScript needed), for the tournament's
directors only (``manage_view``); a refused one changes nothing and says why."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from money import services
from money.models import SidePot
from money.views_money import EntrantsForm, SidePotForm, page_context
from tournaments.models import Tournament
from tournaments.views.base import manage_view, message_text


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
