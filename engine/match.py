"""A whole match: replaying its hands into games or Hollywood columns, and the deal.

:func:`score_match` is the engine's entry point. It folds the hands one at a time into an
immutable :class:`MatchState`; the web app, the PDFs and the ``score_sheet`` command all
get their numbers from the :class:`MatchSheet` it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import rule, score_hand, settle_input
from engine.errors import ScoringError, _
from engine.games import GameSummary, GameTally, Pair, settle
from engine.hands import HandInput, HandKind, HandScore, Result, Side
from engine.hollywood import columns_for_win, decide, last_closed, open_columns
from engine.rules import MAX_HANDS, ROLLING_OPEN, ColumnsOpen, Deal, Format, RuleSet


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """A hand with its score and where it went: ``game`` (games format) or ``columns``."""

    number: int
    hand: HandInput
    score: HandScore
    game: int | None
    columns: tuple[int, ...]
    dealer: Side | None

    def to_dict(self, *, hollywood: bool, with_dealer: bool) -> dict[str, Any]:
        data: dict[str, Any] = {"number": self.number}
        if hollywood:
            data["columns"] = list(self.columns)
        else:
            data["game"] = self.game
        data.update(
            kind=self.hand.kind.value,
            by=self.hand.by.value if self.hand.by and self.hand.kind is not HandKind.DRAW else None,
            result=self.score.result.value,
            winner=self.score.winner.value if self.score.winner else None,
            points=self.score.points,
            multiplier=self.score.multiplier,
            boxes=self.score.boxes,
        )
        if with_dealer:
            data["dealer"] = self.dealer.value if self.dealer else None
        if self.hand.cards is not None:
            data["cards"] = rule(self.hand.cards).to_dict()  # cached: scored already
        return data


@dataclass(frozen=True, slots=True)
class MatchSummary:
    format: Format
    games_to_win: int
    won: Pair
    complete: bool
    winner: Side | None
    total: Pair

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": self.format.value}
        if self.format is Format.HOLLYWOOD:
            data["columns_won"] = self.won.as_dict()
        else:
            data["games_to_win"] = self.games_to_win
            data["games_won"] = self.won.as_dict()
        data.update(
            complete=self.complete,
            winner=self.winner.value if self.winner else None,
            total=self.total.as_dict(),
        )
        return data


@dataclass(frozen=True, slots=True)
class MatchSheet:
    """Everything derived from a match's hands."""

    rules: RuleSet
    first_dealer: Side | None
    hands: tuple[ScoredHand, ...]
    games: tuple[GameSummary, ...]
    """The games (games format) or the columns (Hollywood)."""
    match: MatchSummary
    next_dealer: Side | None

    @property
    def complete(self) -> bool:
        return self.match.complete

    @property
    def current_game(self) -> GameSummary | None:
        """The game in progress (games format), or None once the match is over."""
        if self.complete or self.rules.is_hollywood:
            return None
        return self.games[-1]

    def to_dict(self) -> dict[str, Any]:
        """The ``score_sheet`` JSON contract (SPEC 3)."""
        return sheet_dict(self, "hands", self.hands)


class Played(Protocol):
    """A hand or a deal as the ``score_sheet`` JSON reports it."""

    def to_dict(self, *, hollywood: bool, with_dealer: bool) -> dict[str, Any]: ...


class Sheet(Protocol):
    @property
    def rules(self) -> RuleSet: ...
    @property
    def first_dealer(self) -> Side | None: ...
    @property
    def games(self) -> tuple[GameSummary, ...]: ...
    @property
    def match(self) -> MatchSummary: ...


def sheet_dict(sheet: Sheet, key: str, played: Iterable[Played]) -> dict[str, Any]:
    """A sheet as the ``score_sheet`` JSON: its rules, what was played under ``key`` (the
    hands of a head-to-head match, the deals of a partnership match), its games or
    columns, and the match."""
    hollywood = sheet.rules.is_hollywood
    with_dealer = sheet.first_dealer is not None
    return {
        "rules": sheet.rules.to_dict(),
        key: [p.to_dict(hollywood=hollywood, with_dealer=with_dealer) for p in played],
        ("columns" if hollywood else "games"): [g.to_dict() for g in sheet.games],
        "match": sheet.match.to_dict(),
    }


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match after some hands. :meth:`apply` returns the state after one more."""

    rules: RuleSet
    first_dealer: Side | None
    tallies: tuple[GameTally, ...]
    hands: tuple[ScoredHand, ...] = ()
    dealer: Side | None = None
    complete: bool = False

    @classmethod
    def start(cls, rules: RuleSet, first_dealer: Side | None = None) -> MatchState:
        count = rules.hollywood_columns if rules.is_hollywood else 1
        tallies = tuple(GameTally(number=n) for n in range(1, count + 1))
        return cls(rules, first_dealer, tallies, dealer=first_dealer)

    def apply(self, hand: HandInput) -> MatchState:
        number = len(self.hands) + 1
        if self.complete:
            raise ScoringError(
                _("the match is already complete; no more hands can be entered")
            ).at_hand(number)
        _check_count(number)
        _check_head_to_head(self.rules, number)
        try:
            score = score_hand(self.rules, hand)
        except ScoringError as error:
            raise error.at_hand(number) from None
        return self.record(hand, score)

    def record(self, hand: HandInput, score: HandScore) -> MatchState:
        """This state with one more hand, already scored as ``score`` (the match must not be
        complete).

        A partnership match (``teams.py``) records each deal here as one hand: ``score`` is
        the deal's net result and ``hand`` its first board, so that games, Hollywood
        columns and the deal rotation work on deals exactly as on hands.
        """
        assert not self.complete, "a complete match takes no more hands"
        number = len(self.hands) + 1
        if self.rules.is_hollywood:
            tallies, complete = self._columns_after(number, score)
            # A column's hands are in order: this hand, if entered there, is its last.
            game, columns = (
                None,
                tuple(col.number for col in tallies if col.hands[-1:] == (number,)),
            )
        else:
            tallies, complete = self._games_after(number, score)
            game, columns = self.tallies[-1].number, ()
        scored = ScoredHand(number, _counted(self.rules, hand), score, game, columns, self.dealer)
        # Built directly rather than with dataclasses.replace: every hand entered replays
        # its whole match through here.
        return MatchState(
            self.rules,
            self.first_dealer,
            tallies,
            (*self.hands, scored),
            self._next_dealer(score),
            complete,
        )

    def _games_after(self, number: int, score: HandScore) -> tuple[tuple[GameTally, ...], bool]:
        """The games with hand ``number`` added to the current one, and whether the match
        is over; a closed game that does not end the match opens the next."""
        game = self.tallies[-1].add(
            number, score, self.rules.game_target, self.rules.running_box_bonus
        )
        tallies = (*self.tallies[:-1], game)
        if game.winner is None:
            return tallies, False
        won = sum(1 for tally in tallies if tally.winner is game.winner)
        if won >= self.rules.games_to_win:
            return tallies, True
        return (*tallies, GameTally(number=game.number + 1)), False

    def _columns_after(self, number: int, score: HandScore) -> tuple[tuple[GameTally, ...], bool]:
        """The Hollywood columns with hand ``number`` added where it counts (SPEC 2.5)."""
        if score.winner is None:
            return self.tallies, False
        rules = self.rules
        chosen = set(columns_for_win(self.tallies, score.winner, _open_at_once(rules)))
        tallies = tuple(
            col.add(number, score, rules.game_target, rules.running_box_bonus)
            if i in chosen
            else col
            for i, col in enumerate(self.tallies)
        )
        return tallies, all(col.closed for col in tallies)

    def _next_dealer(self, score: HandScore) -> Side | None:
        return _next_dealer(self.rules.deal, self.dealer, score)

    def sheet(self) -> MatchSheet:
        rules = self.rules
        doubled = -1
        if self.complete and rules.is_hollywood and rules.hollywood_last_doubled:
            doubled = last_closed(self.tallies)
        games = tuple(
            settle(rules, tally, doubled=i == doubled) for i, tally in enumerate(self.tallies)
        )
        closed = [g for g in games if g.complete]
        total = sum((g.total for g in closed), Pair())
        won = Pair(
            sum(1 for g in closed if g.winner is Side.A),
            sum(1 for g in closed if g.winner is Side.B),
        )
        winner: Side | None = None
        if self.complete:
            if rules.is_hollywood:
                winner = decide(self.tallies, {Side.A: total.a, Side.B: total.b})
            else:
                winner = Side.A if won.a >= rules.games_to_win else Side.B
        summary = MatchSummary(rules.format, rules.games_to_win, won, self.complete, winner, total)
        return MatchSheet(rules, self.first_dealer, self.hands, games, summary, self.dealer)


def _open_at_once(rules: RuleSet) -> int | None:
    """How many Hollywood columns may be open at once (None: all of them)."""
    return ROLLING_OPEN if rules.hollywood_columns_open is ColumnsOpen.ROLLING else None


def _check_head_to_head(rules: RuleSet, number: int) -> None:
    """Refuse hand ``number`` of a match whose rules are for teams: those are scored deal by
    deal (``teams.score_team_match``), never as a list of hands."""
    if rules.is_team:
        raise ScoringError(
            _("these rules are for teams of %(size)d: enter the match deal by deal"),
            {"size": rules.team_size},
        ).at_hand(number)


def _check_count(number: int) -> None:
    """Refuse hand ``number`` past the most a match may have (see ``rules.MAX_HANDS``)."""
    if number > MAX_HANDS:
        raise ScoringError(_("a match has at most %(max)d hands"), {"max": MAX_HANDS}).at_hand(
            number
        )


def _next_dealer(deal: Deal, dealer: Side | None, score: HandScore) -> Side | None:
    """Who deals the hand after one that scored ``score`` and was dealt by ``dealer``."""
    if dealer is None or score.result is Result.DRAW:
        return dealer
    if score.winner is None:  # a no-score tie
        return dealer.other if deal is Deal.ALTERNATE else dealer
    if deal is Deal.WINNER:
        return score.winner
    if deal is Deal.LOSER:
        return score.winner.other
    return dealer.other


def replay(
    rules: RuleSet,
    hands: Iterable[HandInput],
    first_dealer: Side | None = None,
    *,
    scores: dict[HandInput, HandScore] | None = None,
) -> MatchState:
    """The state after ``hands``: what folding them through :meth:`MatchState.apply` gives.

    The games format is folded by :func:`_replay_games` with plain counters instead of a
    new state, tally and three pairs per hand, because every public page replays every
    hand of its tournament (15,000 for 256 players); the result is equal, field for
    field, and a property test holds the two to it. Hollywood columns are folded the
    same way by :func:`_replay_hollywood` (a new tally per column and hand copies the
    column's hands each time: quadratic in a long match).

    ``scores``, if given, holds what hands score under these same ``rules`` and is
    filled in as hands are scored (a refused hand is not kept): replaying many matches
    under one rule set with one dict scores each distinct hand once.
    """
    if rules.is_team and next(iter(hands), None) is not None:
        _check_head_to_head(rules, 1)
    if rules.is_hollywood:
        return _replay_hollywood(rules, hands, first_dealer, scores)
    return _replay_games(rules, hands, first_dealer, scores)


def _replay_hollywood(
    rules: RuleSet,
    hands: Iterable[HandInput],
    first_dealer: Side | None,
    scores: dict[HandInput, HandScore] | None,
) -> MatchState:
    """:func:`replay` in the Hollywood format: every column's counters kept in lists, its
    tally built once at the end (which columns a win goes into: ``hollywood.py``)."""
    count, target, deal = rules.hollywood_columns, rules.game_target, rules.deal
    box_value, at_once = rules.running_box_bonus, _open_at_once(rules)
    entered: list[list[int]] = [[] for _ in range(count)]
    points = [[0, 0] for _ in range(count)]
    won = [[0, 0] for _ in range(count)]
    boxes = [[0, 0] for _ in range(count)]
    winners: list[Side | None] = [None] * count
    closed_by: list[int | None] = [None] * count
    scored: list[ScoredHand] = []
    dealer = first_dealer
    still_open = count
    for number, hand in enumerate(hands, start=1):
        if not still_open:
            raise ScoringError(
                _("the match is already complete; no more hands can be entered")
            ).at_hand(number)
        _check_count(number)
        score = _score(rules, hand, number, scores)
        side = score.winner
        chosen: list[int] = []
        if side is not None:
            s = 0 if side is Side.A else 1
            open_ = open_columns([w is not None for w in winners], at_once)
            chosen = [i for i in open_ if won[i][s]]
            fresh = next((i for i in open_ if not won[i][s]), None)
            if fresh is not None:
                chosen = sorted([*chosen, fresh])
            for i in chosen:
                entered[i].append(number)
                points[i][s] += score.points
                won[i][s] += 1
                boxes[i][s] += score.boxes
                if points[i][s] + boxes[i][s] * box_value >= target:
                    winners[i], closed_by[i] = side, number
                    still_open -= 1
        columns = tuple(i + 1 for i in chosen)
        scored.append(ScoredHand(number, _counted(rules, hand), score, None, columns, dealer))
        dealer = _next_dealer(deal, dealer, score)
    tallies = tuple(
        GameTally(
            i + 1,
            tuple(entered[i]),
            Pair(*points[i]),
            Pair(*won[i]),
            Pair(*boxes[i]),
            winners[i],
            closed_by[i],
        )
        for i in range(count)
    )
    return MatchState(rules, first_dealer, tallies, tuple(scored), dealer, not still_open)


def _counted(rules: RuleSet, hand: HandInput) -> HandInput:
    """``hand`` with the counts its cards give, if it has cards (scored already, so they
    agree): a sheet shows every hand's counts."""
    return hand if hand.cards is None else settle_input(rules, hand)


def _score(
    rules: RuleSet, hand: HandInput, number: int, scores: dict[HandInput, HandScore] | None
) -> HandScore:
    """What hand ``number`` scores, from ``scores`` if it is there (kept there if not)."""
    score = scores.get(hand) if scores is not None else None
    if score is None:
        try:
            score = score_hand(rules, hand)
        except ScoringError as error:
            raise error.at_hand(number) from None
        if scores is not None:
            scores[hand] = score
    return score


def _replay_games(
    rules: RuleSet,
    hands: Iterable[HandInput],
    first_dealer: Side | None,
    scores: dict[HandInput, HandScore] | None,
) -> MatchState:
    """:func:`replay` in the games format: game after game until one side has won enough."""
    remaining = iter(hands)
    games: list[GameTally] = []
    scored: list[ScoredHand] = []
    won = {Side.A: 0, Side.B: 0}
    dealer = first_dealer
    while True:
        game, dealer = _play_game(rules, len(games) + 1, remaining, scored, dealer, scores)
        games.append(game)
        if game.winner is None:  # the hands ran out before the game closed
            return MatchState(rules, first_dealer, tuple(games), tuple(scored), dealer, False)
        won[game.winner] += 1
        if won[game.winner] >= rules.games_to_win:
            break
    if next(remaining, None) is not None:
        raise ScoringError(
            _("the match is already complete; no more hands can be entered")
        ).at_hand(len(scored) + 1)
    return MatchState(rules, first_dealer, tuple(games), tuple(scored), dealer, True)


def _play_game(
    rules: RuleSet,
    game: int,
    hands: Iterator[HandInput],
    scored: list[ScoredHand],
    dealer: Side | None,
    scores: dict[HandInput, HandScore] | None,
) -> tuple[GameTally, Side | None]:
    """Game number ``game``: takes hands (appended to ``scored``) until it closes or they
    run out; returns its tally and who deals next."""
    target = rules.game_target
    deal = rules.deal
    box_value = rules.running_box_bonus
    number = len(scored)
    in_game: list[int] = []
    points_a = points_b = hands_a = hands_b = boxes_a = boxes_b = 0
    winner: Side | None = None
    for hand in hands:
        number += 1
        _check_count(number)
        score = _score(rules, hand, number, scores)
        scored.append(ScoredHand(number, _counted(rules, hand), score, game, (), dealer))
        in_game.append(number)
        dealer = _next_dealer(deal, dealer, score)
        side = score.winner
        if side is None:
            continue
        if side is Side.A:
            points_a += score.points
            hands_a += 1
            boxes_a += score.boxes
            reached = points_a + boxes_a * box_value >= target
        else:
            points_b += score.points
            hands_b += 1
            boxes_b += score.boxes
            reached = points_b + boxes_b * box_value >= target
        if reached:
            winner = side
            break
    points, won_hands = Pair(points_a, points_b), Pair(hands_a, hands_b)
    boxes = Pair(boxes_a, boxes_b)
    closed_by = number if winner is not None else None
    return GameTally(game, tuple(in_game), points, won_hands, boxes, winner, closed_by), dealer


def score_match(
    rules: RuleSet,
    hands: Iterable[HandInput],
    first_dealer: Side | None = None,
    *,
    scores: dict[HandInput, HandScore] | None = None,
) -> MatchSheet:
    """Replay ``hands`` (in order) under ``rules`` (``scores``: see :func:`replay`).

    Raises :class:`ScoringError` naming the first hand (1-based) the rules refuse.
    """
    return replay(rules, hands, first_dealer, scores=scores).sheet()


def preview_hand(
    rules: RuleSet, hands: Sequence[HandInput], hand: HandInput, first_dealer: Side | None = None
) -> ScoredHand:
    """What ``hand`` would score if entered after ``hands`` (raises ScoringError if refused)."""
    return score_match(rules, [*hands, hand], first_dealer).hands[-1]
