"""Every number a form or an import reads, checked in one place.

A number typed into a form or read from an archive is finite (no NaN, no infinity), within
the bounds its model gives it, and within the range of the database column that stores it
(PostgreSQL's ``integer`` for counts and points, ``bigint`` for ids; SQLite refuses any
integer past 64 bits with an ``OverflowError`` before it even looks). A decimal comes back
in plain form (``1e2`` is 100), so it never shows in exponent form afterwards.

:func:`decimal_in` and :func:`integer_in` raise ``ValueError`` (the caller says which
field it was); the form fields :class:`IdChoiceField` and :class:`IdsChoiceField` are
Django's model choice fields that first check that each value is an id at all.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

# PostgreSQL's integer and bigint columns; SQLite's integers are 64-bit.
INTEGER_MAX = 2**31 - 1
INTEGER_MIN = -(2**31)
ID_MAX = 2**63 - 1


def decimal_in(value: Any, *, low: Decimal | int, high: Decimal | int, places: int = 2) -> Decimal:
    """``value`` (text or number) as a finite decimal from ``low`` to ``high`` with at
    most ``places`` decimal places, in plain form."""
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise ValueError(value) from None
    if not number.is_finite() or not Decimal(low) <= number <= Decimal(high):
        raise ValueError(value)
    plain = Decimal(format(number, "f"))
    if plain.as_tuple().exponent < -places:  # type: ignore[operator]
        raise ValueError(value)
    return plain


def integer_in(value: Any, *, low: int = INTEGER_MIN, high: int = INTEGER_MAX) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (an int, or its digits; not a
    bool, a float or a decimal with a fraction)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(value)
    text = str(value).strip()
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(text) > 20:
        raise ValueError(value)
    number = int(text)
    if not low <= number <= high:
        raise ValueError(value)
    return number


def is_id(value: Any) -> bool:
    """Whether ``value`` could be a row's id (a primary key the database can compare)."""
    try:
        integer_in(value, low=1, high=ID_MAX)
    except ValueError:
        return False
    return True
