"""Telling the public pages that what they show has changed.

Every write that changes something a public page, ``standings.json``, the projector or a
public PDF shows calls :func:`changed` as the **last statement of its transaction**: it
adds one to the tournament's :class:`~tournaments.models.PublicVersion`. Those pages key
their cache and their ``ETag`` on that number (:mod:`public.live`), so a write that forgot
to call it would leave every follower looking at a stale page:
``tests/tournaments/test_public_version.py`` checks each kind of write.

Why last: the version row is locked by every write of the tournament (an ``UPDATE``), so
whoever holds it must not wait for any other lock afterwards, or two writes could wait
for each other. It is step 4 of the lock order in :mod:`tournaments.movement`. Use
:func:`changing` for a whole write, or call :func:`changed` at the end of the block.

Which writes: hands, corrections and deletions, confirmations and reopening, walkovers
and withdrawals, the draw and clearing it, tables, entries and seeds, the tournament's
details, status and rules, the names of players (every tournament they are in), the
money settings and payments (the standings show the prizes the pool pays), and check-in
(a player's page says whether to check in) with the self check-in switch.
Not: roles, table links and the paid flag (no public page shows them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .models import PublicVersion, Tournament


def _ids(tournaments: Iterable[Tournament | int]) -> list[int]:
    return sorted({t.pk if isinstance(t, Tournament) else int(t) for t in tournaments})


def changed(*tournaments: Tournament | int) -> None:
    """Add one to the public version of each tournament, in the caller's transaction.

    Tournaments are updated in id order, so that two writes touching the same ones
    queue instead of deadlocking.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            "tournaments.public_version.changed() belongs inside the write's transaction"
        )
    now = timezone.now()
    for pk in _ids(tournaments):
        updated = PublicVersion.objects.filter(tournament_id=pk).update(
            number=F("number") + 1, changed_at=now
        )
        if not updated and Tournament.objects.filter(pk=pk).exists():
            # A tournament created without save() (bulk_create): its count starts here.
            PublicVersion.objects.get_or_create(
                tournament_id=pk, defaults={"number": 2, "changed_at": now}
            )


@contextmanager
def changing(*tournaments: Tournament | int) -> Iterator[None]:
    """``transaction.atomic()`` whose last statement is :func:`changed` (when the block
    raised nothing: a refused write changes nothing and counts nothing)."""
    with transaction.atomic():
        yield
        changed(*tournaments)
