"""What a page showed, so that a write made from it changes only what the person saw.

A correction or deletion form carries the hand's id and :func:`hand_version`, a digest of
the hand as the page showed it, and whether the page showed a confirmed result. The
services check them under the match's lock with :func:`seen_hand`: a hand changed,
renumbered or deleted since, or a result confirmed since, is refused with
:class:`StaleForm`, and the view shows the current state instead. (A confirmation or a
walkover names :attr:`tournaments.models.Match.version` the same way.)

What this module does not do: load hands (the services hand them over) or write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.utils.translation import gettext as _

from tournaments.models import Match

from .models import Hand

# A hand as its page shows it.
SHOWN = ("number", "kind", "by", "deadwood", "defender_deadwood", "knock_card")


class StaleForm(Exception):
    """A form made against a state of the match that has changed since; nothing written."""


class HandChanged(StaleForm):
    """The hand named is no longer as the page showed it: changed, renumbered, deleted
    (``gone``), or the form named no hand at all."""

    def __init__(self, message: str, *, gone: bool = False) -> None:
        super().__init__(message)
        self.gone = gone


class ScoreChanged(StaleForm):
    """A new hand entered from a page whose score (:attr:`Match.version`) changed since."""


class ResultConfirmed(StaleForm):
    """The result was confirmed after the page was opened."""


def hand_version(hand: Hand) -> str:
    """A digest of the hand as its page shows it. Any change to it changes the digest,
    including a new number after an earlier hand was deleted."""
    shown = [getattr(hand, name) for name in SHOWN]
    if hand.cards is not None:  # only then: typed hands keep the digest they had
        shown.append(hand.cards)
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def seen_hand(
    match: Match,
    hands: Sequence[Hand],
    *,
    hand_id: int | None,
    version: str,
    complete: bool | None = None,
) -> Hand:
    """The hand of ``hands`` that ``hand_id`` names, provided :func:`hand_version` still
    gives ``version``; raises :class:`HandChanged` otherwise. ``complete`` says whether
    the page showed a confirmed result (None: there was no page, skip that check); a
    result confirmed since raises :class:`ResultConfirmed`."""
    if complete is False and match.status == Match.Status.COMPLETE:
        raise ResultConfirmed(_("The result was confirmed meanwhile; nothing was changed."))
    hand = next((h for h in hands if h.pk == hand_id), None)
    if hand is None and hand_id is not None:
        raise HandChanged(_("This hand has already been deleted; nothing was changed."), gone=True)
    if hand is None or hand_version(hand) != version:
        raise HandChanged(
            _(
                "This hand changed since you opened it, so nothing was changed. Here it is "
                "as it is now: check it, then try again."
            )
        )
    return hand
