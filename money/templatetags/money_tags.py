"""``{{ cents|money }}``: whole cents as money, in the page's language (12.50, 12,50)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def money(cents: int) -> str:
    return number_format(Decimal(cents) / 100, decimal_pos=2, use_l10n=True)


@register.filter
def percent(value: Decimal | int | str) -> str:
    """A payout percentage in the page's language (33.5, 33,5), never in exponent form."""
    number = Decimal(str(value))
    return number_format(Decimal(format(number, "f")).normalize(), use_l10n=True)
