"""A creation form sent again: the same new thing made twice by mistake (issue 41).

A double tap or a resent POST carries one submission id and is answered once
(:mod:`web.submissions`). Two renders of one creation form (two tabs, or Back and
submit again) carry two ids, so each would make its own: a second tournament "Spring Open"
on the same date. A creation view runs its service call under :func:`guard`, which, in
one transaction and under a lock on the kind of thing made, looks for an identical one made
within :data:`WINDOW`. Found, nothing is made and :class:`Repeat` is raised; the view shows
the form again with the question (``templates/tournaments/partials/repeat.html``): "You
made 'Spring Open' 40 s ago: make another?", a link to it, and a button that sends the form
again with :data:`FIELD` naming the one it was shown. That makes the second, unless yet
another identical one was made meanwhile (a double tap on the button), which is asked
about in turn.

The lock is ``SELECT … FOR NO KEY UPDATE`` of the kind's ``ContentType`` row, which every
installation has, one per model: two tabs (or two directors) racing make one, and the other
is asked. Only these creations take it, each first, so it waits on nothing else; it does not
block a foreign key's share lock, and SQLite, whose transactions here are ``IMMEDIATE``,
serializes writers without it. What "identical" means is each caller's ``find``; this
module knows no model and stores nothing (a publishing token's secret is never in a
question).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import ngettext

FIELD = "make_another"
WINDOW = datetime.timedelta(minutes=10)
"""How recent an identical thing must be to ask: a repeat within minutes is almost surely
a mistake; a second "Spring Open" the next day is meant."""


@dataclass(frozen=True, slots=True)
class Made:
    """The identical thing found: what the question names and links to."""

    pk: int
    name: str
    at: datetime.datetime
    url: str = ""
    """Where the asker may open it (empty: nowhere they may)."""
    by: str = ""
    """Who made it, when not the asker."""

    @property
    def ago(self) -> str:
        return ago(timezone.now() - self.at)


class Repeat(Exception):
    """Not made: ``made`` is identical and recent."""

    def __init__(self, made: Made) -> None:
        super().__init__(made.name)
        self.made = made


def ago(elapsed: datetime.timedelta) -> str:
    """ "40 s ago", "3 min ago": how long since, in whole seconds under two minutes."""
    seconds = max(0, int(elapsed.total_seconds()))
    if seconds < 120:
        return ngettext("%(count)d s ago", "%(count)d s ago", seconds) % {"count": seconds}
    minutes = seconds // 60
    return ngettext("%(count)d min ago", "%(count)d min ago", minutes) % {"count": minutes}


def since() -> datetime.datetime:
    """The oldest creation time that still counts as a repeat."""
    return timezone.now() - WINDOW


def besides(request: HttpRequest) -> int:
    """The id of the identical thing the asker was shown and confirmed making another
    besides (0: none, the form as first sent)."""
    value = request.POST.get(FIELD, "")
    return int(value) if value.isdigit() and len(value) < 19 else 0


@contextmanager
def guard(
    model: type[models.Model], *, seen: int, find: Callable[[int], Made | None]
) -> Iterator[None]:
    """Run the block (the creation) in a transaction, unless ``find(seen)``, called under
    the lock of ``model``, finds an identical recent one newer than ``seen``: then
    :class:`Repeat`, and nothing is made."""
    with transaction.atomic():
        lock(model)
        made = find(seen)
        if made is not None:
            raise Repeat(made)
        yield


def lock(model: type[models.Model]) -> None:
    """Serialize the creations of ``model`` until the transaction ends."""
    kind = ContentType.objects.get_for_model(model)
    list(ContentType.objects.select_for_update(no_key=True).filter(pk=kind.pk).values_list("pk"))


def question(made: Made, **context: Any) -> dict[str, Any]:
    """The template context of the question (``repeat``), with the caller's own."""
    return {"repeat": made, "repeat_field": FIELD, **context}
