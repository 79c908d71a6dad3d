"""Writing hands: entering, correcting and deleting a hand, and confirming a result. The
engine's results become writes here; reading hands as engine input is
:mod:`scoring.loading`, and a match's table link :mod:`tables.table_links`.

Every write here runs in one transaction: the hand row, the match summary the engine
derives from all of the match's hands, the rules lock and the audit row commit together
or not at all, taking their locks in the order :mod:`tournaments.movement` documents. A
user's mistake raises :class:`ScoringError` (a hand the rules refuse),
:class:`HandConflict` (hand numbering: a double tap, a second device),
:class:`~scoring.versions.StaleForm` (a correction made against a hand or a result that
changed meanwhile) or Django's ``ValidationError`` (a correction blocked by a later
match); nothing is written then.

A new hand says which number it is. A correction or deletion names the hand by its id and
the version its page showed (:mod:`scoring.versions`), never by its position alone: a
double tap, a second tab or an earlier hand deleted meanwhile can then never make it land
on another hand, or on one that changed since the person looked at it.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import HandInput, MatchSheet, ScoringError, score_match
from tournaments import audit
from tournaments import services as tournament_services
from tournaments.models import Match
from tournaments.movement import lock_tournament
from tournaments.public_version import changed as public_changed

from .loading import HandData, first_dealer, hand_inputs, load_hands, match_inputs
from .models import Hand
from .versions import ScoreChanged, seen_hand


class HandConflict(Exception):
    """The hand number does not fit: already entered, or not the next one."""


class HandTaken(HandConflict):
    """The hand number is already entered (by this form's resend, or by another form: the
    view then says what was stored there, and from which phone)."""

    def __init__(self, message: str, *, number: int) -> None:
        super().__init__(message)
        self.number = number


class HandResent(HandConflict):
    """The hand number holds the hand this very form stored (its submission id): a resend
    whose first answer was lost. Nothing is written; the view answers as for a save."""

    def __init__(self, number: int) -> None:
        super().__init__(_("Hand %(number)d saved.") % {"number": number})
        self.number = number


class WaitingForTable(HandConflict):
    """The match is queued: its players are known but no table is free for it yet. Nothing
    is played there until it has a table (the director sends it to one, or one frees)."""


class TournamentLockNeeded(Exception):
    """Raised by :func:`record_hand` with ``locked=True``, before any write, when the hand
    would lock the rules (the tournament's first hand) but the caller locked only the
    match row: the lock order wants the tournament row first. The caller rolls its
    transaction back and tries again, locking ``tournament_id`` first."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id)
        self.tournament_id = tournament_id


# What a hand write reads and may change on the match row; the rest never changes while
# a match is played, so the caller's copy (with its players already loaded) is kept.
LIVE_FIELDS = (
    "status",
    "winner_side",
    "score_a",
    "score_b",
    "total_a",
    "total_b",
    "side_a_id",
    "side_b_id",
    "first_dealer",
    "forfeit",
    "table",
    "token",
    "token_revoked",
    "started_at",
    "completed_at",
    "version",
)


def locked_match(match: Match) -> Match:
    """Lock the match row for this transaction and bring ``match`` up to date from it
    (a hand's write, or a deal's: :mod:`scoring.deals`).

    Only the live fields are read (a small query on the hottest path); a changed side drops
    that side's cached entry, so nothing stale is shown.
    """
    row = Match.objects.select_for_update().filter(pk=match.pk).values(*LIVE_FIELDS).get()
    for name, value in row.items():
        setattr(match, name, value)
    return match


def check_open(match: Match) -> None:
    """Refuse a new hand (or deal) when the match's players are not known yet, it waits for
    a table (:class:`WaitingForTable`) or its result is confirmed (:class:`HandConflict`)."""
    if not match.has_both_sides:
        raise HandConflict(_("The players of this match are not known yet."))
    if match.status == Match.Status.COMPLETE:
        raise HandConflict(_("This match is complete; its result has been confirmed."))
    if match.is_queued:  # a hand stored there would put it "in play" nowhere
        raise WaitingForTable(_("This match is waiting for a table."))


def store_summary(match: Match, sheet: MatchSheet, *, user: Any = None, via: str = "") -> None:
    """Write the engine's match summary to the match row (inside the caller's transaction)."""
    summary = sheet.match
    tournament_services.set_match_progress(
        match=match,
        score_a=summary.won.a,
        score_b=summary.won.b,
        total_a=summary.total.a,
        total_b=summary.total.b,
        decided_winner=summary.winner.value if summary.winner else None,
        has_hands=bool(sheet.hands),
        user=user,
        via=via,
    )


def record_hand(
    *,
    match: Match,
    number: int,
    data: HandData,
    user: Any = None,
    via: str = "",
    dealer: str | None = None,
    locked: bool = False,
    tournament_locked: bool = False,
    seen: int | None = None,
    device: str = "",
    submission: str = "",
) -> MatchSheet:
    """Enter hand ``number`` of ``match``. A number already entered is refused, never doubled
    (:class:`HandTaken`).

    ``seen`` is the :attr:`Match.version` the entering page showed (None: no page, or one
    that did not say): a free number entered against a score changed since (a hand
    corrected or deleted elsewhere) is refused with :class:`~scoring.versions.ScoreChanged`.
    ``device`` and ``submission`` (a table link's phone label and form id) are kept on the
    hand.

    ``dealer`` (A or B) records who dealt hand 1 if the match does not know yet.
    ``locked`` says the caller's transaction already locked the match row and read it
    (``tables.access`` with ``lock``), and ``tournament_locked`` that it locked the
    tournament row before it; otherwise this locks and reads them in a transaction of its
    own. Every refusal is raised before the first write, so a caller's transaction stays
    usable after one.

    Only the tournament's first hand takes the tournament lock (it locks the rules, a write
    of the tournament row): a caller that locked only the match row then gets
    :class:`TournamentLockNeeded` and tries again.
    """
    first_of_tournament = match.tournament.rules_locked_at is None

    def record(locked_row: Match) -> MatchSheet:
        return _record_locked(
            locked_row,
            number,
            data.cleaned(),
            user=user,
            via=via,
            dealer=dealer,
            seen=seen,
            source=(device, submission),
        )

    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("record_hand(locked=True) must run in the transaction that locked")
        if first_of_tournament and not tournament_locked:
            raise TournamentLockNeeded(match.tournament_id)
        return record(match)
    with transaction.atomic():
        if first_of_tournament:
            lock_tournament(match.tournament_id)
        return record(locked_match(match))


def _record_locked(
    match: Match,
    number: int,
    data: HandData,
    *,
    user: Any,
    via: str,
    dealer: str | None,
    seen: int | None = None,
    source: tuple[str, str] = ("", ""),
) -> MatchSheet:
    """:func:`record_hand` once the match row is locked and read in this transaction."""
    inputs = match_inputs(match)
    if number <= len(inputs):
        # Only here, on a clash, is the id looked up: a first save pays nothing for it.
        resent = source[1] and match.hands.filter(number=number, submission=source[1]).exists()
        if resent:
            raise HandResent(number)
        raise HandTaken(
            _("Hand %(number)d is already entered.") % {"number": number}, number=number
        )
    if seen is not None and seen != match.version:
        raise ScoreChanged(
            _(
                "The score changed since this page showed it (a hand was entered, corrected "
                "or deleted elsewhere), so this hand was not saved. Here is the score as it "
                "is now: check it, then enter the hand again."
            )
        )
    if number != len(inputs) + 1:
        raise HandConflict(
            _("Hand %(number)d cannot be entered yet: the next hand is %(next)d.")
            % {"number": number, "next": len(inputs) + 1}
        )
    check_open(match)
    new_dealer = number == 1 and dealer in ("A", "B") and not match.first_dealer
    sheet = score_match(
        match.ruleset,
        [*inputs, data.to_input()],
        first_dealer(match, dealer if new_dealer else None),
    )
    # The writes. No savepoint: the locked row rules out a clash on the hand number, and
    # any error here rolls the whole transaction back.
    with transaction.atomic(savepoint=False):
        if new_dealer:
            match.first_dealer = dealer
            match.save(update_fields=["first_dealer"])
        hand = Hand.objects.create(
            match=match,
            number=number,
            entered_by=entered_by(user),
            entered_via=via,
            device=source[0],
            submission=source[1],
            **asdict(data),
        )
        store_summary(match, sheet, user=user, via=via)
        tournament_services.lock_match_rules(match, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="hand entered",
            obj=hand,
            after={"match": match.key, "number": number, **asdict(data)},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)  # last: the lock order (tournaments.movement)
    return sheet


def locked_for_change(match: Match) -> Match:
    """Lock the tournament row, then the match row (the lock order of
    :mod:`tournaments.movement`): a correction may reopen a confirmed match, and a table
    link's change (:mod:`tables.table_links`) takes the same locks."""
    lock_tournament(match.tournament_id)
    return locked_match(match)


def correct_hand(
    *,
    match: Match,
    hand_id: int | None,
    version: str,
    data: HandData,
    user: Any = None,
    via: str = "",
    complete: bool | None = None,
) -> MatchSheet:
    """Replace the hand that ``hand_id`` and ``version`` name (see :func:`seen_hand`);
    the whole match is recomputed from its hands."""
    data = data.cleaned()
    with transaction.atomic():
        match = locked_for_change(match)
        hands = load_hands(match)
        hand = seen_hand(match, hands, hand_id=hand_id, version=version, complete=complete)
        number = hand.number
        before = asdict(HandData.of(hand))
        inputs = hand_inputs(hands)
        inputs[number - 1] = data.to_input()
        sheet = _rescore(match, inputs, changed=number)
        for field, value in asdict(data).items():
            setattr(hand, field, value)
        hand.save()
        store_summary(match, sheet, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="hand corrected",
            obj=hand,
            before={"match": match.key, "number": number, **before},
            after={"match": match.key, "number": number, **asdict(data)},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)
    return sheet


def delete_hand(
    *,
    match: Match,
    hand_id: int | None,
    version: str,
    user: Any = None,
    via: str = "",
    complete: bool | None = None,
) -> MatchSheet:
    """Remove the hand that ``hand_id`` and ``version`` name (see :func:`seen_hand`);
    later hands move up one number."""
    with transaction.atomic():
        match = locked_for_change(match)
        hands = load_hands(match)
        hand = seen_hand(match, hands, hand_id=hand_id, version=version, complete=complete)
        number = hand.number
        before = asdict(HandData.of(hand))
        remaining = [h for h in hands if h.pk != hand.pk]
        sheet = _rescore(match, hand_inputs(remaining))
        hand.delete()
        # One row at a time, lowest first, so (match, number) stays unique throughout.
        for later in remaining[number - 1 :]:
            later.number -= 1
            later.save(update_fields=["number"])
        store_summary(match, sheet, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="hand deleted",
            obj=match,
            before={"match": match.key, "number": number, **before},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)
    return sheet


def confirm_result(
    *, match: Match, user: Any = None, via: str = "", version: int | str | None = None
) -> Match:
    """The loser (at the table) or a director signs off the result; the bracket moves on.
    ``version`` is the :attr:`Match.version` the confirming page showed: if the hands
    changed since, nothing is confirmed (``ValidationError``)."""
    return tournament_services.confirm_match(match=match, user=user, via=via, version=version)


def _rescore(match: Match, inputs: list[HandInput], changed: int | None = None) -> MatchSheet:
    """Score the corrected hand list; a problem with another hand is reported as such."""
    try:
        return score_match(match.ruleset, inputs, first_dealer(match))
    except ScoringError as error:
        if error.hand == changed:
            raise ScoringError(error.template, error.params, field=error.field) from None
        raise ScoringError(
            gettext_noop("This change would make a later hand invalid (%(problem)s)."),
            {"problem": error.render(_)},
        ) from None


def entered_by(user: Any) -> Any:
    """The user a hand row records as having entered it: None for the players at a table
    link, who have no account (the row's ``entered_via`` says how it came)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None
