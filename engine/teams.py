"""Partnership gin: two teams of ``team_size`` players, scored deal by deal.

Each deal, every player plays an ordinary two-player hand (a *board*) against one player of
the other team, so a deal is ``team_size`` boards played at once. Rules of the deal
(docs/rules.md, "Partnership gin", gives the sources):

* Every board is scored as a hand (:func:`cards.score_hand`) under the hand-level knobs:
  knock limit, gin, big gin and undercut bonuses, tie rule, knock base, Oklahoma and its
  spades, extra boxes. A bonus belongs to the board where it happens.
* A team's score for the deal is the points of the boards it won, plus ``sweep_bonus`` if
  it won every board (teams of two or more only). A drawn board (or a tie that scores
  nothing) counts nothing; the other boards still count.
* The boards are netted: the team with more points wins the deal and scores the
  difference; the other scores nothing. On equal points a team that won a board while the
  other won none wins the deal (for 0 points: boards won for 0 under ``tie: knocker``);
  otherwise nobody wins it.
* The deal's winner takes one box, plus the extra boxes (gin or undercut extras, doubled
  on a spade) of the boards it won. A deal of one board therefore scores exactly as that
  hand does head to head.

The deal's net result then goes into the games or Hollywood columns, and the next dealer
follows the ``deal`` rule, exactly as a hand's result does in a head-to-head match
(``match.MatchState.record``): targets, game, box and shutout bonuses, box timing,
Hollywood and games to win are per team. A shutout is a game in which the losing team won
no deal.

Who plays whom (``opponents``): each team's players sit in seats 1 to N. Board i is where
team A's seat i plays, against team B's seat ``(i - 1 + shift) % N + 1``, where the shift is
0 every deal (``fixed``), 0 and 1 on odd and even deals (``alternate``: every other deal
each player moves one seat on), or the deal number minus one (``rotate``: everyone meets
everyone in turn). Deals are numbered through the match, across games. The team that
deals (``first_dealer``, then the ``deal`` rule) deals at every board of the deal.

What this module does not do: store teams or players, or know their names; it takes the
boards of each deal in board order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import score_hand
from engine.errors import ScoringError, _
from engine.games import GameSummary, Pair
from engine.hands import HandInput, HandKind, HandScore, Result, Side
from engine.match import MatchSheet, MatchState, MatchSummary, ScoredHand, score_match, sheet_dict
from engine.rules import MAX_HANDS, Opponents, RuleSet


@dataclass(frozen=True, slots=True)
class BoardInput:
    """One board of a deal as entered: the hand, and optionally which seat of the team that
    went out (``hand.by``) went out; a seat given must be the one playing at this board."""

    hand: HandInput
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Seats:
    """Who plays at one board: a seat (1-based) of each team."""

    a: int
    b: int

    def __getitem__(self, side: Side) -> int:
        return self.a if side is Side.A else self.b

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}


def pairing(rules: RuleSet, deal: int) -> tuple[Seats, ...]:
    """The seats at each board of deal number ``deal`` (1-based) under ``opponents``."""
    size = rules.team_size
    if rules.opponents is Opponents.ROTATE:
        shift = deal - 1
    elif rules.opponents is Opponents.ALTERNATE:
        shift = (deal - 1) % 2
    else:
        shift = 0
    return tuple(Seats(seat, (seat - 1 + shift) % size + 1) for seat in range(1, size + 1))


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one deal is worth: each board's score, and the netted result."""

    boards: tuple[HandScore, ...]
    team_points: Pair
    """Each team's won-board points plus its sweep bonus, before netting."""
    sweep: Side | None
    """The team that won every board (teams of two or more), if any."""
    sweep_bonus: int
    winner: Side | None
    points: int
    """The difference of ``team_points``: what the winner scores (0 when nobody wins)."""
    boxes: int

    def as_hand(self) -> HandScore:
        """The deal as one hand's result, for the games, columns and deal rotation.

        Those read the winner, points and boxes, and whether the hand was a draw (the same
        dealer deals again) or nobody won (``deal: alternate`` passes the deal). A deal whose
        every board was a draw is a draw; one nobody won is a tie; a won deal is recorded as
        its single board's result (teams of one) or a knock (the result is not shown).
        """
        if self.winner is None:
            drawn = all(board.result is Result.DRAW for board in self.boards)
            return HandScore(Result.DRAW if drawn else Result.TIE, None, 0, 1, 0)
        result = self.boards[0].result if len(self.boards) == 1 else Result.KNOCK
        multiplier = self.boards[0].multiplier if len(self.boards) == 1 else 1
        return HandScore(result, self.winner, self.points, multiplier, self.boxes)


def score_deal(
    rules: RuleSet, boards: Sequence[BoardInput], seats: Sequence[Seats] | None = None
) -> DealScore:
    """Score the boards of one deal and net them (module docstring).

    ``seats`` (default: deal 1's pairing) checks each board's ``player``. Raises
    :class:`ScoringError` naming the board (1-based) at fault; the caller adds the deal.
    """
    if seats is None:
        seats = pairing(rules, 1)
    scores: list[HandScore] = []
    for index, board in enumerate(boards):
        try:
            _check_player(rules, board, seats[index])
            scores.append(score_hand(rules, board.hand))
        except ScoringError as error:
            raise ScoringError(
                error.template, error.params, field=error.field, board=index + 1
            ) from None
    won = {side: [s for s in scores if s.winner is side] for side in Side}
    points = {side: sum(s.points for s in won[side]) for side in Side}
    sweep = None
    if rules.team_size > 1:
        sweep = next((side for side in Side if len(won[side]) == len(scores)), None)
    bonus = rules.sweep_bonus if sweep is not None else 0
    if sweep is not None:
        points[sweep] += bonus
    team_points = Pair(points[Side.A], points[Side.B])
    winner: Side | None = None
    if team_points.a != team_points.b:
        winner = Side.A if team_points.a > team_points.b else Side.B
    elif bool(won[Side.A]) != bool(won[Side.B]):
        winner = Side.A if won[Side.A] else Side.B
    boxes = 0
    if winner is not None:
        boxes = 1 + sum(s.boxes - 1 for s in won[winner])
    net = abs(team_points.a - team_points.b)
    return DealScore(tuple(scores), team_points, sweep, bonus, winner, net, boxes)


def _check_player(rules: RuleSet, board: BoardInput, seats: Seats) -> None:
    hand = board.hand
    if board.player is None or hand.kind is HandKind.DRAW or hand.by is None:
        return
    if not 1 <= board.player <= rules.team_size:
        raise ScoringError(
            _("player must be a seat from 1 to %(size)d, not %(player)d"),
            {"size": rules.team_size, "player": board.player},
            field="player",
        )
    if board.player != seats[hand.by]:
        raise ScoringError(
            _(
                "player %(player)d of team %(team)s does not play at this board "
                "(seat %(seat)d of team %(team)s does)"
            ),
            {"player": board.player, "team": hand.by.value, "seat": seats[hand.by]},
            field="player",
        )


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """A deal with its boards, who sat where, its score and where it went."""

    number: int
    boards: tuple[BoardInput, ...]
    seats: tuple[Seats, ...]
    score: DealScore
    game: int | None
    columns: tuple[int, ...]
    dealer: Side | None

    def to_dict(self, *, hollywood: bool, with_dealer: bool) -> dict[str, Any]:
        where: dict[str, Any] = (
            {"columns": list(self.columns)} if hollywood else {"game": self.game}
        )
        dealer = {"dealer": self.dealer.value if self.dealer else None} if with_dealer else {}
        score = self.score
        return {
            "number": self.number,
            **where,
            "boards": [self._board(i, where, dealer) for i in range(len(self.boards))],
            "team_points": score.team_points.as_dict(),
            "sweep": score.sweep.value if score.sweep else None,
            "sweep_bonus": score.sweep_bonus,
            "winner": score.winner.value if score.winner else None,
            "points": score.points,
            "boxes": score.boxes,
            **dealer,
        }

    def _board(self, index: int, where: dict[str, Any], dealer: dict[str, Any]) -> dict[str, Any]:
        """Board ``index`` as a head-to-head hand is reported, with its seats."""
        hand, score, seats = self.boards[index].hand, self.score.boards[index], self.seats[index]
        by = hand.by if hand.kind is not HandKind.DRAW else None
        return {
            "number": index + 1,
            **where,
            "kind": hand.kind.value,
            "by": by.value if by else None,
            "player": seats[by] if by else None,
            "seats": seats.as_dict(),
            "result": score.result.value,
            "winner": score.winner.value if score.winner else None,
            "points": score.points,
            "multiplier": score.multiplier,
            "boxes": score.boxes,
            **dealer,
        }


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """Everything derived from a partnership match's deals."""

    rules: RuleSet
    first_dealer: Side | None
    deals: tuple[ScoredDeal, ...]
    games: tuple[GameSummary, ...]
    """The games (games format) or the columns (Hollywood); their ``hands`` are deals."""
    match: MatchSummary
    next_dealer: Side | None

    @property
    def complete(self) -> bool:
        return self.match.complete

    def as_match_sheet(self) -> MatchSheet:
        """This sheet with each deal as one hand (its net result, numbered by deal)."""
        hands = tuple(
            ScoredHand(
                deal.number,
                deal.boards[0].hand,
                deal.score.as_hand(),
                deal.game,
                deal.columns,
                deal.dealer,
            )
            for deal in self.deals
        )
        return MatchSheet(
            self.rules, self.first_dealer, hands, self.games, self.match, self.next_dealer
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``score_sheet`` JSON contract for a partnership match."""
        return sheet_dict(self, "deals", self.deals)


def score_team_match(
    rules: RuleSet,
    deals: Iterable[Sequence[BoardInput]],
    first_dealer: Side | None = None,
) -> TeamSheet:
    """Replay ``deals`` (each ``team_size`` boards, in board order) under ``rules``.

    Teams of one are allowed here (a deal is then one hand, scored exactly as head to
    head). Raises :class:`ScoringError` naming the first deal (and board) refused: a deal
    with the wrong number of boards, a board the rules refuse, a deal after the match is
    complete, or more boards in all than a match's ``MAX_HANDS`` hands.
    """
    state = MatchState.start(rules, first_dealer)
    scored: list[ScoredDeal] = []
    played = 0
    for number, boards in enumerate(deals, start=1):
        if state.complete:
            raise ScoringError(
                _("the match is already complete; no more deals can be entered")
            ).at_deal(number)
        if len(boards) != rules.team_size:
            raise ScoringError(
                _("a deal has %(size)d boards (one for each player of a team), not %(count)d"),
                {"size": rules.team_size, "count": len(boards)},
            ).at_deal(number)
        played += len(boards)
        if played > MAX_HANDS:
            raise ScoringError(
                _("a match has at most %(max)d hands (every board is a hand)"),
                {"max": MAX_HANDS},
            ).at_deal(number)
        seats = pairing(rules, number)
        try:
            deal = score_deal(rules, boards, seats)
        except ScoringError as error:
            raise error.at_deal(number, error.board) from None
        dealer = state.dealer
        state = state.record(boards[0].hand, deal.as_hand())
        kept = state.hands[-1]
        scored.append(
            ScoredDeal(number, tuple(boards), seats, deal, kept.game, kept.columns, dealer)
        )
    sheet = state.sheet()
    return TeamSheet(rules, first_dealer, tuple(scored), sheet.games, sheet.match, state.dealer)


def deals_of(rules: RuleSet, hands: Sequence[HandInput]) -> list[list[BoardInput]]:
    """A team match's hands, stored board by board in deal order, cut into its deals of
    ``team_size`` boards (the last one short if a board is missing: scoring refuses it)."""
    size = rules.team_size
    return [
        [BoardInput(hand) for hand in hands[start : start + size]]
        for start in range(0, len(hands), size)
    ]


def score_played(
    rules: RuleSet,
    hands: Sequence[HandInput],
    first_dealer: Side | None = None,
    *,
    scores: dict[HandInput, HandScore] | None = None,
) -> MatchSheet:
    """A stored match's hands scored: head to head (:func:`match.score_match`), or under
    team rules its boards as its deals (:func:`score_boards`)."""
    if rules.is_team:
        return score_boards(rules, hands, first_dealer)
    return score_match(rules, hands, first_dealer, scores=scores)


def score_boards(
    rules: RuleSet, hands: Sequence[HandInput], first_dealer: Side | None = None
) -> MatchSheet:
    """A team match stored as its boards (see :func:`deals_of`) scored as a
    :class:`MatchSheet` whose hands are the deals: each deal's net result (``as_hand``),
    numbered by deal, in its game or columns. Whatever reads a head-to-head sheet (totals,
    games, the winner, the standings) reads a team match's this way unchanged; the
    boards themselves are in :func:`score_team_match`'s sheet."""
    team = score_team_match(rules, deals_of(rules, hands), first_dealer)
    return team.as_match_sheet()
