"""The only place that loads Hand rows, turns them into engine input, and turns engine
results into writes.

Loading: :func:`load_inputs` reads any set of hands (a match's, a round's, a
tournament's) as plain rows and converts them with :func:`engine_input`, the one
conversion, into engine input by match; :func:`score_matches` scores many matches at
once. Pages that list hands (with their ids, who entered them) load model instances with
:func:`load_hands`, and :func:`hand_inputs` puts those through the same conversion.

Every write here runs in one transaction: the hand row, the match summary the engine
derives from all of the match's hands, the rules lock and the audit row commit together
or not at all, taking their locks in the order :mod:`tournaments.routing` documents. A
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

import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import (
    Card,
    HandCards,
    HandInput,
    HandKind,
    HandScore,
    MatchSheet,
    RuleSet,
    ScoredHand,
    ScoringError,
    Side,
    preview_hand,
    score_match,
    score_played,
)
from tournaments import audit
from tournaments import services as tournament_services
from tournaments.models import Match
from tournaments.movement import lock_tournament
from tournaments.public_version import changed as public_changed

from .models import Hand
from .versions import seen_hand

HAND_FIELDS = ("kind", "by", "deadwood", "defender_deadwood", "knock_card", "cards")

logger = logging.getLogger(__name__)


class HandConflict(Exception):
    """The hand number does not fit: already entered, or not the next one."""


class TournamentLockNeeded(Exception):
    """Raised by :func:`record_hand` with ``locked=True``, before any write, when the hand
    would lock the rules (the tournament's first hand) but the caller locked only the
    match row: the lock order wants the tournament row first. The caller rolls its
    transaction back and tries again, locking ``tournament_id`` first."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id)
        self.tournament_id = tournament_id


@dataclass(frozen=True, slots=True)
class HandData:
    """A hand as a form or archive gives it (strings and numbers, not yet engine types)."""

    kind: str
    by: str = ""
    deadwood: int | None = None
    defender_deadwood: int | None = None
    knock_card: str = ""
    cards: dict[str, list[str]] | None = None  # {"knocker": […], "defender": […]} or None

    @classmethod
    def of(cls, hand: Hand) -> HandData:
        return cls(*(getattr(hand, name) for name in HAND_FIELDS))

    def to_input(self) -> HandInput:
        return engine_input(
            self.kind, self.by, self.deadwood, self.defender_deadwood, self.knock_card, self.cards
        )

    def cleaned(self) -> HandData:
        """Only the fields that matter for this kind (a draw keeps none but its cards, for
        the engine to refuse); cards in card order."""
        cards = HandCards.parse(self.cards).to_dict() if self.cards is not None else None
        if self.kind == HandKind.DRAW:
            return HandData(self.kind, cards=cards)
        card = str(Card.parse(self.knock_card)) if self.knock_card else ""
        # A gin's knocker deadwood is 0 or absent; any other number stays, so that the
        # engine refuses the hand (as score_sheet does) rather than it vanishing unseen.
        deadwood = self.deadwood
        if self.kind != HandKind.KNOCK and deadwood == 0:
            deadwood = None
        return HandData(self.kind, self.by, deadwood, self.defender_deadwood, card, cards)


def engine_input(
    kind: str,
    by: str,
    deadwood: int | None,
    defender_deadwood: int | None,
    knock_card: str,
    cards: Mapping[str, Any] | None = None,
) -> HandInput:
    """A hand's stored fields (HAND_FIELDS, in that order) as the engine's input."""
    hand_kind = HandKind(kind)
    hand_cards = HandCards.parse(cards) if cards is not None else None
    if hand_kind is HandKind.DRAW:
        return HandInput(hand_kind, cards=hand_cards)
    return HandInput(
        hand_kind,
        Side(by) if by in ("A", "B") else None,
        deadwood,
        defender_deadwood,
        Card.parse(knock_card) if knock_card else None,
        hand_cards,
    )


def first_dealer(match: Match, chosen: str | None = None) -> Side | None:
    """The match's first dealer, or ``chosen`` when the match has none recorded yet."""
    value = match.first_dealer or chosen
    return Side(value) if value in ("A", "B") else None


def hand_inputs(hands: Iterable[Hand]) -> list[HandInput]:
    """Loaded Hand instances as engine input (the same conversion as :func:`load_inputs`)."""
    return [engine_input(*(getattr(hand, name) for name in HAND_FIELDS)) for hand in hands]


def load_hands(match: Match) -> list[Hand]:
    """The match's hands as model instances, for pages that list and link them."""
    return list(Hand.objects.filter(match=match).order_by("number"))


def load_inputs(*, stream: bool = False, **where: Any) -> dict[int, list[HandInput]]:
    """Engine input of the hands that ``where`` selects (``match=``, ``match__in=``,
    ``match__tournament=``), by match id, each match's in hand order. One query of plain
    rows, not model instances; ``stream`` reads them in chunks (a whole tournament).

    Equal rows share one :class:`HandInput` (it is immutable): a tournament repeats the
    same few hundred hands thousands of times, and converting each row anew was most of
    the cost of loading them.
    """
    rows = (
        Hand.objects.filter(**where)
        .order_by("match_id", "number")  # the column: "match" would join for its ordering
        .values_list("match_id", *HAND_FIELDS)
    )
    converted: dict[tuple[Any, ...], HandInput] = {}
    by_match: dict[int, list[HandInput]] = defaultdict(list)
    for match_id, *fields in rows.iterator() if stream else rows:
        cards = fields[-1]  # a dict (unhashable) for a hand settled from its cards
        key = tuple(fields) if cards is None else (*fields[:-1], json.dumps(cards, sort_keys=True))
        hand = converted.get(key)
        if hand is None:
            hand = converted[key] = engine_input(*fields)
        by_match[match_id].append(hand)
    return by_match


def match_inputs(match: Match) -> list[HandInput]:
    """One match's hands as engine input (the hottest read: once per hand entered)."""
    return load_inputs(match=match).get(match.pk, [])


def sheet_for(match: Match, hands: Sequence[Hand] | None = None) -> MatchSheet:
    """The engine's view of ``match`` (one query for the hands unless they are given)."""
    inputs = match_inputs(match) if hands is None else hand_inputs(hands)
    return score_played(match.ruleset, inputs, first_dealer(match))


def score_matches(
    rules: RuleSet, matches: Iterable[Match], inputs: Mapping[int, Sequence[HandInput]]
) -> dict[int, MatchSheet]:
    """The engine's sheet of every match that has hands in ``inputs``, by match id."""
    sheets: dict[int, MatchSheet] = {}
    scores: dict[HandInput, HandScore] = {}  # one rule set: each distinct hand scored once
    for match in matches:
        hands = inputs.get(match.pk)
        if not hands:
            continue
        try:
            sheets[match.pk] = score_played(rules, hands, first_dealer(match), scores=scores)
        except ScoringError:
            # Stored hands always passed the engine; if one no longer does (a data fix
            # gone wrong), pages and PDFs leave that match out rather than failing.
            logger.warning("match %s: stored hands do not score", match.pk)
    return sheets


def preview(
    match: Match, hands: Sequence[Hand], data: HandData, *, dealer: str | None = None
) -> ScoredHand:
    """What ``data`` would score as the next hand; raises ScoringError if the rules refuse."""
    return preview_hand(
        match.ruleset, hand_inputs(hands), data.to_input(), first_dealer(match, dealer)
    )


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


def _locked_match(match: Match) -> Match:
    """Lock the match row for this transaction and bring ``match`` up to date from it.

    Only the live fields are read (a small query on the hottest path); a changed side drops
    that side's cached entry, so nothing stale is shown.
    """
    row = Match.objects.select_for_update().filter(pk=match.pk).values(*LIVE_FIELDS).get()
    for name, value in row.items():
        setattr(match, name, value)
    return match


def _check_open(match: Match) -> None:
    if not match.has_both_sides:
        raise HandConflict(_("The players of this match are not known yet."))
    if match.status == Match.Status.COMPLETE:
        raise HandConflict(_("This match is complete; its result has been confirmed."))


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
) -> MatchSheet:
    """Enter hand ``number`` of ``match``. A number already entered is refused, never doubled.

    ``dealer`` (A or B) records who dealt hand 1 if the match does not know yet.
    ``locked`` says the caller's transaction already locked the match row and read it
    (``scoring.access`` with ``lock``), and ``tournament_locked`` that it locked the
    tournament row before it; otherwise this locks and reads them in a transaction of its
    own. Every refusal is raised before the first write, so a caller's transaction stays
    usable after one.

    Only the tournament's first hand takes the tournament lock (it locks the rules, a write
    of the tournament row): a caller that locked only the match row then gets
    :class:`TournamentLockNeeded` and tries again.
    """
    first_of_tournament = match.tournament.rules_locked_at is None
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("record_hand(locked=True) must run in the transaction that locked")
        if first_of_tournament and not tournament_locked:
            raise TournamentLockNeeded(match.tournament_id)
        return _record_locked(match, number, data.cleaned(), user=user, via=via, dealer=dealer)
    with transaction.atomic():
        if first_of_tournament:
            lock_tournament(match.tournament_id)
        match = _locked_match(match)
        return _record_locked(match, number, data.cleaned(), user=user, via=via, dealer=dealer)


def _record_locked(
    match: Match, number: int, data: HandData, *, user: Any, via: str, dealer: str | None
) -> MatchSheet:
    """:func:`record_hand` once the match row is locked and read in this transaction."""
    inputs = match_inputs(match)
    if number <= len(inputs):
        raise HandConflict(_("Hand %(number)d is already entered.") % {"number": number})
    if number != len(inputs) + 1:
        raise HandConflict(
            _("Hand %(number)d cannot be entered yet: the next hand is %(next)d.")
            % {"number": number, "next": len(inputs) + 1}
        )
    _check_open(match)
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
            entered_by=_user(user),
            entered_via=via,
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
        public_changed(match.tournament_id)  # last: the lock order (tournaments.routing)
    return sheet


def _locked_for_change(match: Match) -> Match:
    """Lock the tournament row, then the match row (the lock order of
    :mod:`tournaments.routing`): a correction may reopen a confirmed match."""
    lock_tournament(match.tournament_id)
    return _locked_match(match)


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
        match = _locked_for_change(match)
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
        match = _locked_for_change(match)
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


TABLE_LINK_ACTIONS = ("revoke", "renew")


def set_table_link(*, match: Match, action: str, user: Any) -> Match:
    """``revoke`` switches the table link off; ``renew`` issues a new one (the old one dies).

    Any other ``action`` is a bug in the caller, not a user's mistake: the view checks the
    POST against ``TABLE_LINK_ACTIONS`` first."""
    from tournaments.models.matches import new_token

    if action not in TABLE_LINK_ACTIONS:
        raise ValueError(f"unknown table link action {action!r}")
    with transaction.atomic():
        match = _locked_for_change(match)
        before = {"token_revoked": match.token_revoked}
        if action == "revoke":
            match.token_revoked = True
        else:
            match.token, match.token_revoked = new_token(), False
        match.save(update_fields=["token", "token_revoked"])
        audit.record(
            tournament=match.tournament,
            action=f"table link {action}",
            obj=match,
            before=before,
            after={"token_revoked": match.token_revoked},
            user=user,
        )
    return match


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


def _user(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None
