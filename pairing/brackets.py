"""Bracket structures computed from a field size: pure Python, standard library only.

Players are referred to by seed number, 1 to n (1 is the strongest). A :class:`Bracket`
lists every match of a single elimination (optionally with a third-place match and a
consolation bracket for first-round losers), a double elimination (grand final, optional
bracket reset) or a round robin (circle method), each match saying where its two players
come from (:class:`Source`) and where its winner and loser go.

Conventions
-----------
* Byes are explicit only in round 1 of a winners' or consolation bracket: an ``is_bye``
  match whose one player advances on their own. Byes go to the top seeds, and a bye
  never meets a bye.
* In a double elimination, a losers'-bracket slot that only the loser of a bye could
  fill is removed before any match is made: the lone player goes straight on, so every
  generated match can really have two players. Rounds and positions are numbered after
  that, so they are always contiguous.
* ``Bracket.matches`` is in playing order: every match comes after the matches it draws
  its players from.
* A random draw shuffles who takes which seed line with ``random.Random(draw_seed)``;
  the same seed always gives the same bracket (CPython's generator and shuffle are
  stable), so recording the seed makes the draw reproducible.

What this module does not do: store anything, know about Django, entries, tables or
results, advance winners, or compute standings. ``tournaments.services`` turns a
:class:`Bracket` into ``Match`` rows and moves players through them.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from pairing.drop_order import drop_orders

__all__ = [
    "BYE",
    "MAX_DRAW_SEED",
    "MAX_PLAYERS",
    "MAX_ROUND_ROBIN_PLAYERS",
    "MIN_PLAYERS",
    "Bracket",
    "BracketKind",
    "MatchSpec",
    "Section",
    "Side",
    "Slot",
    "Source",
    "double_elimination",
    "new_draw_seed",
    "round_robin",
    "single_elimination",
    "standard_order",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4096
"""Elimination fields beyond this are a typo, not a club tournament."""
MAX_ROUND_ROBIN_PLAYERS: Final = 256
"""A round robin has n(n-1)/2 matches; beyond this it could never be played."""
MAX_DRAW_SEED: Final = 2**63 - 1
"""Draw seeds fit a signed 64-bit database column."""


class BracketKind(StrEnum):
    SINGLE = "single_elimination"
    DOUBLE = "double_elimination"
    ROUND_ROBIN = "round_robin"


class Section(StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    RESET = "reset"
    THIRD_PLACE = "third_place"
    CONSOLATION = "consolation"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"  # a Swiss round's matches (pairing.swiss pairs them, no bracket)


Side = Literal["A", "B"]
Slot = tuple[str, Side]
"""A side of a match: ``(match key, "A" or "B")``."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where one side of a match gets its player: at most one of the fields is set.

    ``seed`` places a player directly (round 1, round robin); ``winner_of`` and
    ``loser_of`` name an earlier match. All three ``None`` is a bye: nobody comes.
    """

    seed: int | None = None
    winner_of: str | None = None
    loser_of: str | None = None

    def __post_init__(self) -> None:
        if (self.seed is not None) + (self.winner_of is not None) + (self.loser_of is not None) > 1:
            raise ValueError(f"a source is one of seed, winner_of or loser_of, not {self}")

    @property
    def is_bye(self) -> bool:
        return self.seed is None and self.winner_of is None and self.loser_of is None


BYE: Final = Source()


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match of a bracket.

    ``key`` is unique in the bracket and readable: ``W1-1`` (winners' round 1, top
    match), ``L2-3``, ``GF``, ``GF2``, ``3P``, ``C1-2``, ``RR3-4``. ``round`` is 1-based
    within the section and ``position`` 1-based top to bottom within the round.
    ``winner_to``/``loser_to`` are the slots the winner and loser move to (``None``: out
    of this bracket, or no loser as in a bye). ``is_bye`` marks a round-1 match with a
    bye on one side, which its player wins without playing. ``conditional`` marks the
    bracket reset: it is played only if side B of the grand final (the losers'
    champion) wins it; otherwise it is void.
    """

    key: str
    section: Section
    round: int
    position: int
    a: Source
    b: Source
    winner_to: Slot | None
    loser_to: Slot | None
    is_bye: bool
    conditional: bool = False


@dataclass(frozen=True, slots=True)
class Bracket:
    """A complete bracket: its matches in playing order and how players were placed.

    ``placement`` lists the seeds top to bottom as they stand on the round-1 lines
    (bye lines left out), so after a random draw it is the drawn order; for a round
    robin it is simply 1 to n. ``sits_out`` has one entry per round-robin round: the
    seed with no game that round (``None`` when the field is even); it is empty for
    elimination brackets.
    """

    kind: BracketKind
    size: int
    matches: tuple[MatchSpec, ...]
    draw_seed: int | None
    placement: tuple[int, ...]
    sits_out: tuple[int | None, ...] = ()

    def by_key(self) -> dict[str, MatchSpec]:
        return {match.key: match for match in self.matches}

    def rounds(self, section: Section) -> list[list[MatchSpec]]:
        """The section's matches, round by round, each round top to bottom."""
        grouped: dict[int, list[MatchSpec]] = {}
        for match in self.matches:
            if match.section == section:
                grouped.setdefault(match.round, []).append(match)
        return [sorted(grouped[r], key=lambda m: m.position) for r in sorted(grouped)]


def new_draw_seed() -> int:
    """A fresh random draw seed, to be recorded with the tournament."""
    return secrets.randbelow(MAX_DRAW_SEED + 1)


def standard_order(size: int) -> list[int]:
    """Seeds in bracket-line order for a power-of-two field, e.g. 8 → 1 8 4 5 2 7 3 6.

    Neighbouring lines meet in round 1 (1 v n, 2 v n-1 …). The top two seeds are in
    different halves, the top four in different quarters and so on, so the top seeds
    can only meet late; the better seed of each pair is always on the upper line.
    """
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size < 1 or size & (size - 1):
        raise ValueError(f"a standard order needs a power of two, got {size}")
    order = [1]
    while len(order) < size:
        lines = 2 * len(order) + 1
        order = [line for seed in order for line in (seed, lines - seed)]
    return order


def single_elimination(
    players: int,
    *,
    third_place: bool = False,
    consolation: bool = False,
    draw_seed: int | None = None,
) -> Bracket:
    """A knockout with standard seeding and byes to the top seeds.

    ``third_place`` adds ``3P`` between the semifinal losers when there are two real
    semifinals (4 players or more). ``consolation`` adds a knockout (``C…``) among the
    losers of the real round-1 matches when there are at least two of them; with exactly
    4 players and a third-place match, that would be the same pairing again, so the
    third-place match stands alone. The strongest first-round losers (by the seed line
    they lost to) get the consolation byes.
    """
    _check_players(players, MAX_PLAYERS)
    order, lines = _seeded_lines(players, draw_seed)
    drafts = _knockout("W", Section.WINNERS, lines)
    last_round = drafts[-1].round
    with_third_place = third_place and players >= 4
    if with_third_place:
        upper, lower = (d for d in drafts if d.round == last_round - 1)  # winners only so far
        drafts.append(_Draft("3P", Section.THIRD_PLACE, 1, 1, _loser(upper.key), _loser(lower.key)))
    if consolation and not (with_third_place and last_round == 2):
        drafts += _consolation(drafts, order)
    return Bracket(
        kind=BracketKind.SINGLE,
        size=players,
        matches=_freeze(drafts),
        draw_seed=draw_seed,
        placement=_placement(lines),
    )


def double_elimination(
    players: int, *, reset: bool = True, draw_seed: int | None = None
) -> Bracket:
    """A winners' bracket as in :func:`single_elimination`, a losers' bracket, a grand final.

    Losers' round 1 pairs the round-1 losers in drawing order. Each later winners' round
    drops its losers in, side A, opposite the losers'-bracket survivors in the order
    :mod:`pairing.drop_order` chooses for this field and its byes, which keeps
    players who met in the winners' bracket from meeting again early in the losers'
    bracket at least as well as brackets-manager.js's default does. A slot only a bye
    could fill is removed (see above).

    The grand final ``GF`` puts the winners' champion on side A and the losers'
    champion on side B. With ``reset`` the conditional ``GF2`` follows, fed by the
    grand final's loser (side A) and winner (side B), played only if side B won ``GF``.
    """
    _check_players(players, MAX_PLAYERS)
    _, lines = _seeded_lines(players, draw_seed)
    winners = _knockout("W", Section.WINNERS, lines)
    by_round: list[list[_Draft]] = []
    for draft in winners:
        if draft.round > len(by_round):
            by_round.append([])
        by_round[-1].append(draft)
    byes = {d.key for d in by_round[0] if d.is_bye}

    def dropped(draft: _Draft) -> Source:
        return BYE if draft.key in byes else _loser(draft.key)

    losers: list[_Draft] = []
    if len(by_round) == 1:
        losers_champion = dropped(by_round[0][0])
    else:
        first = [dropped(d) for d in by_round[0]]
        round_one_byes = [d.is_bye for d in by_round[0]]
        survivors = _losers_round(losers, list(zip(first[::2], first[1::2], strict=True)))
        for w_round, order in zip(by_round[1:], drop_orders(round_one_byes), strict=True):
            drops = [dropped(d) for d in w_round]
            placed = [drops[i] for i in order]
            survivors = _losers_round(losers, list(zip(placed, survivors, strict=True)))
            if len(survivors) > 1:
                survivors = _losers_round(
                    losers, list(zip(survivors[::2], survivors[1::2], strict=True))
                )
        (losers_champion,) = survivors
    finals = [
        _Draft("GF", Section.FINAL, 1, 1, _winner(winners[-1].key), losers_champion),
    ]
    if reset:
        finals.append(
            _Draft("GF2", Section.RESET, 1, 1, _loser("GF"), _winner("GF"), conditional=True)
        )
    return Bracket(
        kind=BracketKind.DOUBLE,
        size=players,
        matches=_freeze(winners + losers + finals),
        draw_seed=draw_seed,
        placement=_placement(lines),
    )


def round_robin(players: int) -> Bracket:
    """Everyone meets everyone once, scheduled by the circle method.

    The last seed (or, for an odd field, an empty seat) stays put while the others
    rotate, giving n-1 rounds for even n and n rounds for odd n; in an odd field the
    player facing the empty seat sits the round out (no match) and everybody sits out
    exactly once. The fixed seat's pairing alternates sides from round to round, which
    leaves everyone on side A in half their matches (give or take one).
    """
    _check_players(players, MAX_ROUND_ROBIN_PLAYERS)
    seats: list[int | None] = list(range(1, players + 1))
    if players % 2:
        seats.append(None)
    fixed, rotating, count = seats[-1], seats[:-1], len(seats)
    drafts: list[_Draft] = []
    sits_out: list[int | None] = []
    for r in range(count - 1):
        turn = rotating[r:] + rotating[:r]
        pairs = [(turn[0], fixed) if r % 2 == 0 else (fixed, turn[0])]
        pairs += [(turn[i], turn[count - 1 - i]) for i in range(1, count // 2)]
        sitter: int | None = None
        position = 0
        for a, b in pairs:
            if a is None or b is None:
                sitter = b if a is None else a
                continue
            position += 1
            drafts.append(
                _Draft(
                    f"RR{r + 1}-{position}",
                    Section.ROUND_ROBIN,
                    r + 1,
                    position,
                    Source(seed=a),
                    Source(seed=b),
                )
            )
        sits_out.append(sitter)
    return Bracket(
        kind=BracketKind.ROUND_ROBIN,
        size=players,
        matches=_freeze(drafts),
        draw_seed=None,
        placement=tuple(range(1, players + 1)),
        sits_out=tuple(sits_out),
    )


@dataclass(slots=True)
class _Draft:
    """A match being built; routing is filled in by :func:`_freeze` from the sources."""

    key: str
    section: Section
    round: int
    position: int
    a: Source
    b: Source
    conditional: bool = False

    @property
    def is_bye(self) -> bool:
        return self.a.is_bye or self.b.is_bye


def _winner(key: str) -> Source:
    return Source(winner_of=key)


def _loser(key: str) -> Source:
    return Source(loser_of=key)


def _check_players(players: int, limit: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if players < MIN_PLAYERS:
        raise ValueError(f"a bracket needs at least {MIN_PLAYERS} players, got {players}")
    if players > limit:
        raise ValueError(f"{players} players is more than this bracket allows ({limit})")


def _seeded_lines(players: int, draw_seed: int | None) -> tuple[list[int], list[Source]]:
    """The standard order for the field's power of two, and who stands on each line.

    Seed lines past the field are byes; with a draw, the shuffled players take the seed
    lines in turn, so the byes still sit opposite the top seed lines.
    """
    drawn = list(range(1, players + 1))
    if draw_seed is not None:
        if isinstance(draw_seed, bool) or not isinstance(draw_seed, int):
            raise TypeError(f"draw_seed must be an int, not {type(draw_seed).__name__}")
        if not 0 <= draw_seed <= MAX_DRAW_SEED:
            # Random() ignores the sign, so -5 and 5 would silently give the same draw.
            raise ValueError(f"draw_seed must be between 0 and {MAX_DRAW_SEED}, got {draw_seed}")
        random.Random(draw_seed).shuffle(drawn)
    order = standard_order(1 << (players - 1).bit_length())
    return order, [Source(seed=drawn[line - 1]) if line <= players else BYE for line in order]


def _placement(lines: Sequence[Source]) -> tuple[int, ...]:
    return tuple(line.seed for line in lines if line.seed is not None)


def _knockout(prefix: str, section: Section, lines: Sequence[Source]) -> list[_Draft]:
    """Every round of a knockout over a power-of-two list of lines, in playing order."""
    drafts: list[_Draft] = []
    current = list(lines)
    round_ = 1
    while len(current) > 1:
        following = []
        for index in range(0, len(current), 2):
            position = index // 2 + 1
            key = f"{prefix}{round_}-{position}"
            drafts.append(
                _Draft(key, section, round_, position, current[index], current[index + 1])
            )
            following.append(_winner(key))
        current = following
        round_ += 1
    return drafts


def _consolation(drafts: Sequence[_Draft], order: Sequence[int]) -> list[_Draft]:
    """A knockout among the losers of the real round-1 matches, if there are two or more.

    The lower line of a round-1 pair holds the weaker seed line, the expected loser; the
    better that line, the higher the loser is seeded here.
    """
    played = [d for d in drafts if d.section == Section.WINNERS and d.round == 1 and not d.is_bye]
    if len(played) < 2:
        return []
    played.sort(key=lambda d: order[2 * d.position - 1])
    count = len(played)
    lines = [
        _loser(played[seed - 1].key) if seed <= count else BYE
        for seed in standard_order(1 << (count - 1).bit_length())
    ]
    return _knockout("C", Section.CONSOLATION, lines)


def _losers_round(losers: list[_Draft], pairs: Sequence[tuple[Source, Source]]) -> list[Source]:
    """Append a losers' round's real matches; return what comes out of each pairing.

    A pairing with nobody on one side is no match: its lone player goes straight on
    (and one with nobody on either side passes on nobody).
    """
    round_ = (losers[-1].round if losers else 0) + 1
    out: list[Source] = []
    for a, b in pairs:
        if a.is_bye or b.is_bye:
            out.append(b if a.is_bye else a)
            continue
        position = 1 if not losers or losers[-1].round != round_ else losers[-1].position + 1
        key = f"L{round_}-{position}"
        losers.append(_Draft(key, Section.LOSERS, round_, position, a, b))
        out.append(_winner(key))
    return out


def _freeze(drafts: Sequence[_Draft]) -> tuple[MatchSpec, ...]:
    """The finished matches, each one's winner_to/loser_to read off the sources."""
    winner_to: dict[str, Slot] = {}
    loser_to: dict[str, Slot] = {}
    for draft in drafts:
        sides: tuple[tuple[Side, Source], ...] = (("A", draft.a), ("B", draft.b))
        for side, source in sides:
            for routes, key in ((winner_to, source.winner_of), (loser_to, source.loser_of)):
                if key is not None:
                    if key in routes:
                        raise AssertionError(f"{key} feeds two slots")
                    routes[key] = (draft.key, side)
    return tuple(
        MatchSpec(
            key=draft.key,
            section=draft.section,
            round=draft.round,
            position=draft.position,
            a=draft.a,
            b=draft.b,
            winner_to=winner_to.get(draft.key),
            loser_to=loser_to.get(draft.key),
            is_bye=draft.is_bye,
            conditional=draft.conditional,
        )
        for draft in drafts
    )
