"""Games (and Hollywood columns): adding hands to a tally and settling it when it closes.

A Hollywood column is scored exactly like a game; only which hands go into it differs
(see ``hollywood.py``), so both share :class:`GameTally` and :func:`settle`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.hands import HandScore, Side
from engine.rules import RuleSet, Shutout


@dataclass(frozen=True, slots=True)
class Pair:
    """One number per side."""

    a: int = 0
    b: int = 0

    def __getitem__(self, side: Side | str) -> int:
        # Only sides are keys: anything else (a template's "a") must fail as a lookup.
        if side == Side.A:
            return self.a
        if side == Side.B:
            return self.b
        raise KeyError(side)

    def plus(self, side: Side, amount: int) -> Pair:
        if side is Side.A:
            return Pair(self.a + amount, self.b)
        return Pair(self.a, self.b + amount)

    def __add__(self, other: Pair) -> Pair:
        return Pair(self.a + other.a, self.b + other.b)

    def scaled(self, factor: int) -> Pair:
        return Pair(self.a * factor, self.b * factor)

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}


@dataclass(frozen=True, slots=True)
class GameTally:
    """The running state of one game or column. ``winner`` is set once it has closed."""

    number: int
    hands: tuple[int, ...] = ()
    points: Pair = Pair()
    hands_won: Pair = Pair()
    boxes: Pair = Pair()
    winner: Side | None = None
    closed_by_hand: int | None = None

    @property
    def closed(self) -> bool:
        return self.winner is not None

    def has_entered(self, side: Side) -> bool:
        return self.hands_won[side] > 0

    def add(self, number: int, score: HandScore, target: int, box_value: int = 0) -> GameTally:
        """This tally with hand ``number`` in it; closes when the hand's winner reaches target.

        ``box_value`` is what a box adds to the running score at once (``box_timing:
        running``; 0 when boxes are paid at the end): the winner's points plus their boxes
        at that value are what reaches the target.
        """
        assert not self.closed, "a closed game takes no more hands"
        hands = (*self.hands, number)
        side = score.winner
        # Built directly rather than with dataclasses.replace: every hand of every match
        # shown on a tournament page passes through here.
        if side is None:
            return GameTally(self.number, hands, self.points, self.hands_won, self.boxes)
        points = self.points.plus(side, score.points)
        boxes = self.boxes.plus(side, score.boxes)
        closed = points[side] + boxes[side] * box_value >= target
        return GameTally(
            self.number,
            hands,
            points,
            self.hands_won.plus(side, 1),
            boxes,
            side if closed else None,
            number if closed else None,
        )


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game or column as the scoresheet shows it (SPEC 2.4)."""

    number: int
    complete: bool
    winner: Side | None
    hands: tuple[int, ...]
    points: Pair
    hands_won: Pair
    boxes: Pair
    box_points: Pair
    game_bonus: Pair
    shutout: bool
    shutout_bonus: Pair
    total: Pair
    margin: int | None
    doubled: bool = False
    """The last Hollywood column to close under ``hollywood_last_doubled``: ``total`` is
    twice the sum of its parts."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "complete": self.complete,
            "winner": self.winner.value if self.winner else None,
            "hands": list(self.hands),
            "points": self.points.as_dict(),
            "hands_won": self.hands_won.as_dict(),
            "boxes": self.boxes.as_dict(),
            "box_points": self.box_points.as_dict(),
            "game_bonus": self.game_bonus.as_dict(),
            "shutout": self.shutout,
            "shutout_bonus": self.shutout_bonus.as_dict(),
            "total": self.total.as_dict(),
            "margin": self.margin,
            "doubled": self.doubled,
        }


def settle(rules: RuleSet, tally: GameTally, *, doubled: bool = False) -> GameSummary:
    """Boxes, game bonus and shutout for a closed tally; a provisional total for an open one.

    A closed tally settled ``doubled`` counts twice: every part is as usual and the total
    (so the margin) is twice their sum.

    A shutout is a game whose loser won no hand in it. A hand won for 0 points (a tie that
    goes to the knocker, under ``tie: knocker``) is a hand won: it takes a box, enters a
    Hollywood column and breaks the shutout, as any won hand does.
    """
    box_points = tally.boxes.scaled(rules.box_bonus)
    winner = tally.winner
    if winner is None:
        return GameSummary(
            number=tally.number,
            complete=False,
            winner=None,
            hands=tally.hands,
            points=tally.points,
            hands_won=tally.hands_won,
            boxes=tally.boxes,
            box_points=box_points,
            game_bonus=Pair(),
            shutout=False,
            shutout_bonus=Pair(),
            total=tally.points + box_points,
            margin=None,
        )
    game_bonus = Pair().plus(winner, rules.game_bonus)
    shutout = tally.hands_won[winner.other] == 0
    extra = 0
    if shutout:
        if rules.shutout is Shutout.DOUBLE_POINTS:
            extra = tally.points[winner]
        elif rules.shutout is Shutout.DOUBLE_TOTAL:
            extra = tally.points[winner] + box_points[winner] + game_bonus[winner]
        elif rules.shutout is Shutout.BONUS:
            extra = rules.shutout_bonus
    shutout_bonus = Pair().plus(winner, extra)
    total = tally.points + box_points + game_bonus + shutout_bonus
    if doubled:
        total = total.scaled(2)
    return GameSummary(
        number=tally.number,
        complete=True,
        winner=winner,
        hands=tally.hands,
        points=tally.points,
        hands_won=tally.hands_won,
        boxes=tally.boxes,
        box_points=box_points,
        game_bonus=game_bonus,
        shutout=shutout,
        shutout_bonus=shutout_bonus,
        total=total,
        margin=total[winner] - total[winner.other],
        doubled=doubled,
    )
