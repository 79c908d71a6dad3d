"""The player's page as their companion for the evening (issue 33): one word for what the
player should do now, and the sentence said large at the top of their page.

:func:`companion` reads a player's view (:class:`public.players.PlayerView`, whose
``next`` already says what comes next from the matches as loaded) and the tournament's
status, and makes no query. The states, each with its rule:

``check-in``
    The bracket is not drawn, the tournament has not started (registration or draft)
    and the entry is not checked in. (The draw plays the checked-in entries once anyone
    is checked in: :func:`tournaments.draw.generate_bracket`.)
``waiting``
    Nothing to do yet but wait: not drawn and checked in (or the tournament started
    without a draw yet); the next match is ready with both players but has no table
    (``queued``); or the player has played no match yet and their first opponent is
    still to be decided (a match ``waiting`` for the winner of another; a bye is not a
    match played).
``called``
    The next match is ready at a table with both players, and no hand is entered yet
    (status ``ready`` with a table: a hand makes it ``in_play``).
``playing``
    A hand of the match is entered (``in_play``), or its result waits for confirmation.
``done``
    The player's last match is over and they are still in: their next match waits for
    its other player (the winner or loser of a match being played), the next Swiss round
    is not paired yet, or every match of theirs in a stage still running is played.
``out``
    The tournament is over for the player (eliminated, or every match played once the
    tournament is decided), whatever place they finished in. While the tournament goes
    on they are told they are out, with their place; once it is finished, only their
    place ("Finished: place 2 of 20"): the runner-up is not "out".
``champion``
    The player won the tournament (the bracket's champion, or first place once a round
    robin is decided).

What this module does not do: load anything, render, or know about requests
(:mod:`public.views.find` puts the state beside the view it renders).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Tournament

from .players import PlayerView

__all__ = ["STATES", "Companion", "companion"]

STATES = ("check-in", "waiting", "called", "playing", "done", "out", "champion")
NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


@dataclass(frozen=True, slots=True)
class Companion:
    """What a player should do now: ``state`` (one of :data:`STATES`) and the sentence
    saying it (HTML: a name in it is isolated, ``<bdi>``, from the table number beside
    it); ``table`` for the call (the title the page flashes)."""

    state: str
    say: str
    table: int | None = None


def _against(message: str, table: int | None, name: str) -> SafeString:
    """``message`` (translated, with ``%(table)s`` and ``%(name)s``) as HTML."""
    isolated = format_html("<bdi>{}</bdi>", name)
    return mark_safe(conditional_escape(message) % {"table": table, "name": isolated})


def companion(
    view: PlayerView,
    status: str,
    *,
    checked_in: bool,
    field_size: int,
    free_table: tuple[int, datetime] | None = None,
) -> Companion:
    """The state of the player of ``view`` in a tournament of ``status``: ``checked_in``
    is read before the draw only; ``field_size`` is the number of places the standings
    count, for "9th of 12"; ``free_table``, for a queued match, the table expected to
    free for it and when (:mod:`standings.tables`)."""
    n = view.next
    kind = n.kind
    if kind == "not_drawn":
        if status in NOT_STARTED and not checked_in:
            return Companion("check-in", _("Check in"))
        return Companion("waiting", _("Wait: your first match shows here once the draw is made"))
    if kind == "table":
        say = _against(_("You're up: table %(table)s against %(name)s"), n.table, n.opponent)
        return Companion("called", say, n.table)
    if kind in ("playing", "awaiting"):
        if n.table:
            say = _against(_("Playing at table %(table)s against %(name)s"), n.table, n.opponent)
            return Companion("playing", say, n.table)
        return Companion("playing", _against(_("Playing against %(name)s"), None, n.opponent))
    if kind == "queued":
        if free_table is not None:
            table, start = free_table
            say = _("Wait: your next match starts when table %(table)s finishes (about %(time)s)")
            at = time_format(timezone.localtime(start))
            return Companion("waiting", say % {"table": table, "time": at})
        return Companion("waiting", _("Wait: your next match starts when a table frees"))
    if kind == "waiting":
        if not any(match.played for match in view.played):  # a bye is not a match played
            return Companion("waiting", _("Wait: your opponent is not known yet"))
        say = _("Your match is over: next, %(round)s") % {"round": n.round}
        return Companion("done", say)
    if kind == "next_round":
        return Companion("done", _("Your match is over: the next round is not paired yet"))
    if kind == "finished" and not n.final:
        return Companion("done", _("Your match is over: all your matches are played"))
    if kind == "champion" or (n.final and n.place == "1"):
        return Companion("champion", _("Champion"))
    return _out(view, field_size, finished=status == Tournament.Status.FINISHED)


def _out(view: PlayerView, field_size: int, *, finished: bool) -> Companion:
    place = view.next.place
    if finished:
        return Companion("out", _finished(place, field_size))
    if place and field_size:
        say = _("You're out: place %(place)s of %(field)s") % {"place": place, "field": field_size}
    elif place:
        say = _("You're out: place %(place)s") % {"place": place}
    else:
        say = _("You're out")
    return Companion("out", say)


def _finished(place: str, field_size: int) -> str:
    """The place of a player whose tournament is finished (not "out": it is over for all)."""
    if place and field_size:
        return _("Finished: place %(place)s of %(field)s") % {"place": place, "field": field_size}
    if place:
        return _("Finished: place %(place)s") % {"place": place}
    return _("Your tournament is over")
