"""Two writes racing for one unique thing: one succeeds, the other is refused by name.

A service checks first (``exists()``, under the lock its write takes when it has one) and
refuses with a message naming what exists; these cover the moment between that check and
the insert, when another request made the same thing and committed. The database's unique
key then refuses the insert: :func:`taken` turns that into the same named refusal, and
:func:`save_with_free_slug` takes the next free slug instead, as it would have a moment
later. The savepoint keeps the caller's transaction usable on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

SLUG_ATTEMPTS = 5


@contextmanager
def taken(message: str) -> Iterator[None]:
    """Run the block in a savepoint; a unique key it meets raises ``ValidationError(message)``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        raise ValidationError(message) from error


def save_with_free_slug(obj: Any, slug_for: Callable[[], str]) -> None:
    """Save a new ``obj`` under ``slug_for()``; when another request took that slug
    meanwhile, under the next free one."""
    for attempt in range(SLUG_ATTEMPTS):
        obj.slug = slug_for()
        try:
            with transaction.atomic():
                obj.save()
            return
        except IntegrityError:
            if attempt == SLUG_ATTEMPTS - 1:
                raise
