"""A match sheet as people read it: rows with running totals, named players, plain words.

Takes the engine's :class:`MatchSheet` and the players' names; makes no queries. The
match page and the projector use it; the PDFs read the engine's JSON contract instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from engine import GameSummary, MatchSheet, Result, ScoredHand, Side


@dataclass(frozen=True)
class Row:
    number: int
    dealer: str
    text: str
    a_points: int | None
    b_points: int | None
    a_running: int
    b_running: int
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    """One game (or Hollywood column) with its rows and its settlement."""

    title: str
    summary: GameSummary
    rows: list[Row]
    winner_name: str = ""

    @property
    def complete(self) -> bool:
        return self.summary.complete


@dataclass(frozen=True)
class SheetView:
    names: dict[str, str]
    blocks: list[Block]
    unplaced: list[Row] = field(default_factory=list)  # Hollywood draws and ties
    next_dealer: str = ""
    headline: str = ""
    hollywood: bool = False
    complete: bool = False
    winner_name: str = ""


def describe(hand: ScoredHand, names: dict[str, str]) -> str:
    """One line saying what happened in the hand, in the reader's language."""
    data = hand.hand
    result = hand.score.result
    if result is Result.DRAW:
        return _("Dead hand")
    by = names[data.by.value] if data.by else "?"
    other = names[data.by.other.value] if data.by else "?"
    params = {
        "name": by,
        "other": other,
        "k": data.deadwood or 0,
        "d": data.defender_deadwood or 0,
    }
    if result is Result.KNOCK:
        return _("%(name)s knocked: %(k)d v %(d)d") % params
    if result is Result.UNDERCUT:
        return _("%(other)s undercut %(name)s: %(d)d v %(k)d") % params
    if result is Result.TIE:
        return _("%(name)s knocked, tie at %(k)d: no score") % params
    if result is Result.GIN:
        return _("%(name)s gin: opponent %(d)d") % params
    return _("%(name)s big gin: opponent %(d)d") % params


def marks(hand: ScoredHand) -> tuple[str, ...]:
    found = []
    if hand.hand.knock_card is not None:
        found.append(_("card %(card)s") % {"card": pretty_card(str(hand.hand.knock_card))})
    if hand.score.multiplier == 2:
        found.append(_("spades ×2"))
    return tuple(found)


def pretty_card(code: str) -> str:
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    rank = code[:-1].replace("T", "10")
    return f"{rank}{symbols.get(code[-1], code[-1])}"


def _row(hand: ScoredHand, names: dict[str, str], running: dict[Side, int]) -> Row:
    winner = hand.score.winner
    if winner is not None:
        running[winner] += hand.score.points
    return Row(
        number=hand.number,
        dealer=names[hand.dealer.value] if hand.dealer else "",
        text=describe(hand, names),
        a_points=hand.score.points if winner is Side.A else None,
        b_points=hand.score.points if winner is Side.B else None,
        a_running=running[Side.A],
        b_running=running[Side.B],
        marks=marks(hand),
    )


def present(sheet: MatchSheet, names: dict[str, str]) -> SheetView:
    hollywood = sheet.rules.is_hollywood
    blocks = []
    for game in sheet.games:
        running = {Side.A: 0, Side.B: 0}
        numbers = set(game.hands)
        rows = [_row(h, names, running) for h in sheet.hands if h.number in numbers]
        if hollywood:
            title = _("Column %(number)d") % {"number": game.number}
        else:
            title = _("Game %(number)d") % {"number": game.number}
        winner = names[game.winner.value] if game.winner else ""
        blocks.append(Block(title, game, rows, winner))
    unplaced = []
    if hollywood:
        zero = {Side.A: 0, Side.B: 0}
        unplaced = [_row(h, names, dict(zero)) for h in sheet.hands if not h.columns]
    summary = sheet.match
    won = summary.won
    if hollywood:
        headline = _("Columns %(a)d–%(b)d") % {"a": won.a, "b": won.b}
    else:
        headline = _("Games %(a)d–%(b)d") % {"a": won.a, "b": won.b}
    return SheetView(
        names=names,
        blocks=blocks,
        unplaced=unplaced,
        next_dealer=names[sheet.next_dealer.value] if sheet.next_dealer else "",
        headline=headline,
        hollywood=hollywood,
        complete=summary.complete,
        winner_name=names[summary.winner.value] if summary.winner else "",
    )
