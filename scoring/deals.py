"""Team matches: entering, correcting and deleting a deal (its ``team_size`` boards).

A team match stores each board as an ordinary :class:`~scoring.models.Hand` row, board
after board in deal order: deal ``d`` is hands ``(d - 1) * N + 1`` to ``d * N`` for teams
of ``N``. Hands stay the source of truth and every tool that reads hands (the audit, the
archive, ``verify_tournament``, the backups) keeps working; who sat where is not stored,
because the engine derives it from the deal number, the board and the ``opponents`` rule
(``engine.teams.pairing``), which are frozen once the rules lock.

Deals are written whole, so a match always holds whole deals. Every write here runs in
one transaction that locks the tournament row, then the match row (the lock order of
:mod:`tournaments.movement`), and writes the boards, the match summary the engine derives
from all of the match's boards, the audit row and the public change together. Refusals
(:class:`~scoring.services.HandConflict`, :class:`ScoringError`, a stale form) are
raised before the first write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import (
    HandInput,
    MatchSheet,
    ScoringError,
    TeamSheet,
    deals_of,
    score_played,
    score_team_match,
)
from tournaments import audit
from tournaments import services as tournament_services
from tournaments.models import Match
from tournaments.movement import lock_tournament
from tournaments.public_version import changed as public_changed

from .loading import HandData, first_dealer, hand_inputs, load_hands
from .models import Hand
from .services import (
    HandConflict,
    HandTaken,
    check_open,
    entered_by,
    locked_match,
    store_summary,
)
from .versions import HandChanged, ResultConfirmed, hand_version


def team_size(match: Match) -> int:
    return match.tournament.ruleset.team_size


def deal_rows(hands: Sequence[Hand], size: int) -> list[list[Hand]]:
    """A team match's hand rows grouped into deals of ``size`` boards."""
    return [list(hands[start : start + size]) for start in range(0, len(hands), size)]


def deal_version(boards: Sequence[Hand]) -> str:
    """A digest of a deal as its page shows it: any change to a board, or a new deal
    number after an earlier deal was deleted, changes it."""
    shown = [(board.pk, hand_version(board)) for board in boards]
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def team_sheet(match: Match, hands: Sequence[Hand]) -> TeamSheet:
    """The engine's board-by-board view of a team match (for its sheet and PDF)."""
    rules = match.ruleset
    return score_team_match(rules, deals_of(rules, hand_inputs(hands)), first_dealer(match))


def _locked(match: Match) -> Match:
    lock_tournament(match.tournament_id)
    return locked_match(match)


def _check_team(match: Match, boards: Sequence[HandData]) -> int:
    size = team_size(match)
    if size < 2:
        raise HandConflict(_("This match is played head to head: enter it hand by hand."))
    if len(boards) != size:
        raise HandConflict(
            _("A deal of this match has %(size)d boards, not %(count)d.")
            % {"size": size, "count": len(boards)}
        )
    return size


def _board_dicts(boards: Sequence[HandData]) -> list[dict[str, Any]]:
    return [asdict(board) for board in boards]


def record_deal(
    *,
    match: Match,
    number: int,
    boards: Sequence[HandData],
    user: Any = None,
    via: str = "",
    dealer: str | None = None,
    device: str = "",
) -> MatchSheet:
    """Enter deal ``number`` of a team match: its boards in board order. A deal already
    entered is refused, never doubled (:class:`HandTaken`, numbered by the deal).
    ``dealer`` (A or B) records which team dealt the first deal if the match does not know
    yet; ``device`` is the table-link phone's label, kept on each board's hand."""
    boards = [board.cleaned() for board in boards]
    with transaction.atomic():
        match = _locked(match)
        size = _check_team(match, boards)
        hands = load_hands(match)
        entered = len(hands) // size
        if number <= entered:
            raise HandTaken(
                _("Deal %(number)d is already entered.") % {"number": number}, number=number
            )
        if number != entered + 1:
            raise HandConflict(
                _("Deal %(number)d cannot be entered yet: the next deal is %(next)d.")
                % {"number": number, "next": entered + 1}
            )
        check_open(match)
        new_dealer = number == 1 and dealer in ("A", "B") and not match.first_dealer
        inputs = [*hand_inputs(hands), *(board.to_input() for board in boards)]
        sheet = score_played(
            match.ruleset, inputs, first_dealer(match, dealer if new_dealer else None)
        )
        if new_dealer:
            match.first_dealer = dealer
            match.save(update_fields=["first_dealer"])
        created = [
            Hand.objects.create(
                match=match,
                number=len(hands) + index,
                entered_by=entered_by(user),
                entered_via=via,
                device=device,
                **asdict(board),
            )
            for index, board in enumerate(boards, start=1)
        ]
        store_summary(match, sheet, user=user, via=via)
        tournament_services.lock_match_rules(match, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="deal entered",
            obj=created[0],
            after={"match": match.key, "deal": number, "boards": _board_dicts(boards)},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)
    return sheet


def _seen_deal(
    match: Match, hands: Sequence[Hand], size: int, number: int, version: str, complete: bool | None
) -> list[Hand]:
    """The boards of deal ``number``, provided the page saw them as they are."""
    if complete is False and match.status == Match.Status.COMPLETE:
        raise ResultConfirmed(_("The result was confirmed meanwhile; nothing was changed."))
    deals = deal_rows(hands, size)
    if not 1 <= number <= len(deals):
        raise HandChanged(_("This deal has already been deleted; nothing was changed."), gone=True)
    rows = deals[number - 1]
    if deal_version(rows) != version:
        raise HandChanged(
            _(
                "This deal changed since you opened it, so nothing was changed. Here it is "
                "as it is now: check it, then try again."
            )
        )
    return rows


def _rescore(match: Match, inputs: list[HandInput], changed: int | None = None) -> MatchSheet:
    """Score the changed boards; a problem with another deal is reported as such."""
    try:
        return score_played(match.ruleset, inputs, first_dealer(match))
    except ScoringError as error:
        if error.deal == changed:
            raise ScoringError(
                error.template, error.params, field=error.field, board=error.board
            ) from None
        raise ScoringError(
            gettext_noop("This change would make a later deal invalid (%(problem)s)."),
            {"problem": error.render(_)},
        ) from None


def correct_deal(
    *,
    match: Match,
    number: int,
    version: str,
    boards: Sequence[HandData],
    user: Any = None,
    via: str = "",
    complete: bool | None = None,
) -> MatchSheet:
    """Replace the boards of deal ``number`` as the page that showed them at ``version``
    saw it; the whole match is recomputed from its boards."""
    boards = [board.cleaned() for board in boards]
    with transaction.atomic():
        match = _locked(match)
        size = _check_team(match, boards)
        hands = load_hands(match)
        rows = _seen_deal(match, hands, size, number, version, complete)
        before = [asdict(HandData.of(row)) for row in rows]
        inputs = hand_inputs(hands)
        start = (number - 1) * size
        inputs[start : start + size] = [board.to_input() for board in boards]
        sheet = _rescore(match, inputs, changed=number)
        for row, board in zip(rows, boards, strict=True):
            for field, value in asdict(board).items():
                setattr(row, field, value)
            row.save()
        store_summary(match, sheet, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="deal corrected",
            obj=rows[0],
            before={"match": match.key, "deal": number, "boards": before},
            after={"match": match.key, "deal": number, "boards": _board_dicts(boards)},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)
    return sheet


def delete_deal(
    *,
    match: Match,
    number: int,
    version: str,
    user: Any = None,
    via: str = "",
    complete: bool | None = None,
) -> MatchSheet:
    """Remove deal ``number`` (all its boards); later deals move up one number."""
    with transaction.atomic():
        match = _locked(match)
        size = team_size(match)
        if size < 2:
            raise HandConflict(_("This match is played head to head: enter it hand by hand."))
        hands = load_hands(match)
        rows = _seen_deal(match, hands, size, number, version, complete)
        before = [asdict(HandData.of(row)) for row in rows]
        gone = {row.pk for row in rows}
        remaining = [hand for hand in hands if hand.pk not in gone]
        sheet = _rescore(match, hand_inputs(remaining))
        Hand.objects.filter(pk__in=gone).delete()
        # One row at a time, lowest first, so (match, number) stays unique throughout.
        for later in remaining[(number - 1) * size :]:
            later.number -= size
            later.save(update_fields=["number"])
        store_summary(match, sheet, user=user, via=via)
        audit.record(
            tournament=match.tournament,
            action="deal deleted",
            obj=match,
            before={"match": match.key, "deal": number, "boards": before},
            user=user,
            via=via,
        )
        public_changed(match.tournament_id)
    return sheet
