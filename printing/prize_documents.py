"""The prizes on paper (``/t/<slug>/prizes.pdf``): the payout table and, once places are
decided, each winner's prize, then the same for each side pot, as the prizes page shows
them (:func:`money.prizes.prizes`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from money.money import Prize, cents
from money.prizes import PlacePrize, PotPrizes, prizes
from money.templatetags.money_tags import money, percent
from tournaments.models import Tournament

from .pdfs.standings import StandingsRow, StandingsSheet


def prizes_document(tournament: Tournament) -> StandingsSheet:
    """The prizes sheet of ``tournament``, in the language of the request (as its page)."""
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
    return StandingsSheet(
        tournament.name,
        _("Prizes"),
        (_("Share"), _("Prize")),
        rows,
        subtitle=subtitle,
        page_size=tournament.page_size,
    )


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
    count = side.count
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
