"""Swiss pairing as a maximum-weight matching: pure Python, the standard library and networkx.

Players are referred to by id. The caller gives, for every player still in the stage,
their match points, their rank (1 is the best: from the standings, or the seed before
round 1), whom they have already played, whether they already had a bye and whether
they have dropped; :func:`pair_round` returns the next round's pairs in board order.

The rules, in order of importance (each one strictly outweighs all the ones after it)
--------------------------------------------------------------------------------------
1. **No avoidable rematch**: two players meet again only when no pairing of the whole
   field avoids it, and then as few times as possible.
2. **At most one bye per player**: an odd field gives one bye (a win, no opponent), to
   a player who already had one only when everyone still playing has (or when rule 1
   leaves no other way).
3. **Score groups**: players meet others on the same match points; when that cannot be
   (an odd group, a rematch to avoid), the stray is kept as small as possible. A pair
   strays by the difference of its players' match points, *squared*, so that two
   players each floating one group down beat one floating two groups; the bye strays by
   its player's points above the lowest score in the field (the bye goes to the bottom
   group). :attr:`SwissRound.deviation` is the total, and it is always the least any
   pairing allowed by rules 1 and 2 can have.
4. **The bye** goes to the lowest-ranked player who has not had one, among those rule 3
   allows.
5. **Dutch preference**: inside a score group ordered by rank, the top half meets the
   bottom half in order (1 v 5, 2 v 6 … in a group of 8); a player who floats down is
   the lowest-ranked of their group and meets the best-ranked of the group below.
6. **The seed** breaks what is still tied: it shuffles the order in which the graph is
   built, which only decides among pairings of exactly equal weight. The same input
   and seed always give the same round.

Late entries are simply players with no opponents yet and whatever score the director
gave them; dropped players are left out (they may still appear in others' opponents).

How
---
Every pair of players is an edge whose weight is a large constant minus a cost built
from the five rules as mixed-radix digits (see :func:`_Weights`): the radix of each
rule exceeds the largest total the rules below it can reach over a whole round, so a
maximum-weight perfect matching (``networkx.max_weight_matching`` with
``maxcardinality=True``, integer weights only) minimises rule 1 first, then 2, 3, 4, 5.
An odd field gets a dummy "bye" vertex.

networkx's blossom algorithm is O(n³) in pure Python, far too slow on the complete
graph of a 1,024-player field, so the round is solved in up to three tries, the first
whose answer comes with a proof that the complete graph could not do better on rules
1–3: no rematch, no second bye, and a deviation equal to a lower bound every pairing
must pay (each cut between score groups with an odd number of players above it must be
crossed by some pair; see :func:`_deviation_floor`).

1. ``groups``: a score group that is even with an even number above it is paired
   within itself (the Dutch ideal, or a matching of the group alone if that ideal
   holds a rematch), the groups between such groups as separate matchings
   (:func:`_solve_by_groups` says why that loses nothing once the proof holds);
2. ``sparse``: one matching of the whole field over each player's next neighbours in
   the standings and the Dutch partners around their ideal one;
3. ``complete``: the complete graph, exact by construction.

Rules 4 and 5 are optimal within the graph that was solved. :attr:`SwissRound.method`
says which try it was.

What this module does not do: know about Django, stages or results; decide scores or
standings (:mod:`pairing.tiebreaks`); store anything.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Final

import networkx as nx

__all__ = ["SwissPlayer", "SwissRound", "pair_round"]

NEIGHBOURS: Final = 6
"""Sparse graph: each player is joined to this many players after them in the standings…"""
DUTCH_WINDOW: Final = 3
"""…and to the players this close to their ideal Dutch partner in their group."""

_BYE: Final = -1  # the dummy vertex; player ids are anything but this


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One player as the pairing sees them.

    ``score`` is match points; ``rank`` their place in the standings (1 is the best,
    unique); ``opponents`` the ids they have met; ``had_bye`` whether they have had a
    bye; ``dropped`` whether they have left (they are not paired).
    """

    id: int
    score: int
    rank: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class SwissRound:
    """A round's pairs in board order, and how far it strays from the score groups.

    ``pairs`` are ``(a, b)`` with ``a`` the better placed player, ``b`` ``None`` for the
    bye (always last); boards run from the top score groups down. ``deviation`` is the
    total stray of rule 3 (sum of squared point differences, the bye's points above the
    lowest score), ``max_stray`` the largest single difference; ``rematches`` are the
    pairs that meet again (only when unavoidable) and ``repeat_bye`` says whether the bye
    went to a player who had one (only when everyone had).
    """

    pairs: tuple[tuple[int, int | None], ...]
    deviation: int
    max_stray: int
    rematches: tuple[tuple[int, int], ...] = ()
    repeat_bye: bool = False
    method: str = field(default="", compare=False)
    """How it was found: ``groups`` (score groups apart), ``sparse`` or ``complete``."""


def pair_round(players: Iterable[SwissPlayer], *, seed: int) -> SwissRound:
    """The next round's pairing of the players who have not dropped (see the module)."""
    active = [p for p in players if not p.dropped]
    ids = [p.id for p in active]
    if len(set(ids)) != len(ids):
        raise ValueError("every player needs a different id")
    if _BYE in ids:
        raise ValueError(f"{_BYE} is reserved for the bye")
    if len({p.rank for p in active}) != len(active):
        raise ValueError("every player needs a different rank")
    if not active:
        return SwissRound(pairs=(), deviation=0, max_stray=0, method="empty")
    field_ = _Field(active)
    weights = _Weights(field_)
    tries: dict[str, Callable[[], dict[int, int]]] = {
        "groups": lambda: _solve_by_groups(field_, weights, seed),
        "sparse": lambda: _solve(field_, weights, _sparse_edges(field_, field_.order), seed),
        "complete": lambda: _solve(field_, weights, _all_edges(field_), seed),
    }
    for method, attempt in tries.items():
        mate = attempt()
        if method == "complete" or (mate and _proven(field_, field_.result(mate))):
            break
    return replace(field_.result(mate), method=method)


class _Field:
    """The active players in standings order (score down, then rank), with the numbers
    the costs need: each player's score group and place in it."""

    def __init__(self, active: Sequence[SwissPlayer]) -> None:
        self.order = sorted(active, key=lambda p: (-p.score, p.rank))
        self.by_id = {p.id: p for p in self.order}
        self.index = {p.id: i for i, p in enumerate(self.order)}
        self.groups: list[list[SwissPlayer]] = []
        for player in self.order:
            if self.groups and self.groups[-1][0].score == player.score:
                self.groups[-1].append(player)
            else:
                self.groups.append([player])
        self.group_of: dict[int, int] = {}
        self.place: dict[int, int] = {}
        for g, members in enumerate(self.groups):
            for place, player in enumerate(members):
                self.group_of[player.id] = g
                self.place[player.id] = place
        self.lowest = self.order[-1].score
        self.odd = len(self.order) % 2 == 1
        # bye preference: how many players who could take the bye stand below this one
        eligible = [p for p in self.order if not p.had_bye] or self.order
        self.bye_place = {p.id: len(eligible) - 1 - i for i, p in enumerate(eligible)}

    def stray(self, a: int, b: int) -> int:
        """Rule 3 for one pair: the point difference (the bye: points above the lowest)."""
        if b == _BYE:
            return self.by_id[a].score - self.lowest
        return abs(self.by_id[a].score - self.by_id[b].score)

    def bye_rank(self, a: int, b: int) -> int:
        """Rule 4 for one pair: for the bye, how many who could take it stand lower."""
        if b != _BYE:
            return 0
        return self.bye_place.get(a, len(self.order))

    def preference(self, a: int, b: int) -> int:
        """Rule 5 for one pair, 0 when it is the Dutch ideal; never more than the field."""
        if b == _BYE:
            return 0
        if self.index[a] > self.index[b]:
            a, b = b, a
        ga, gb = self.group_of[a], self.group_of[b]
        if ga == gb:
            half = len(self.groups[ga]) // 2
            return abs(self.place[b] - self.place[a] - half)
        # a floats down: the lowest of its group meets the best of the group below
        return (len(self.groups[ga]) - 1 - self.place[a]) + self.place[b]

    def rematch(self, a: int, b: int) -> bool:
        return b != _BYE and b in self.by_id[a].opponents

    def repeat_bye(self, a: int, b: int) -> bool:
        return b == _BYE and self.by_id[a].had_bye

    def result(self, mate: dict[int, int]) -> SwissRound:
        pairs: list[tuple[int, int | None]] = []
        bye: tuple[int, None] | None = None
        seen: set[int] = set()
        for player in self.order:
            a = player.id
            if a in seen:
                continue
            b = mate[a]
            seen |= {a, b}
            if b == _BYE:
                bye = (a, None)
            else:
                pairs.append((a, b))
        if bye is not None:
            pairs.append(bye)
        strays = [self.stray(a, _BYE if b is None else b) for a, b in pairs]
        return SwissRound(
            pairs=tuple(pairs),
            deviation=sum(s * s for s in strays),
            max_stray=max(strays, default=0),
            rematches=tuple((a, b) for a, b in pairs if b is not None and self.rematch(a, b)),
            repeat_bye=bye is not None and self.by_id[bye[0]].had_bye,
        )


class _Weights:
    """Edge weights as mixed-radix numbers, rule 1 the most significant digit.

    A round has ``m`` pairs in a field of ``n``. Rule 5 costs at most ``n`` a pair, so
    at most ``m·n`` a round: rule 4's radix is one more. Rule 4 (one bye) costs at most
    ``n``. Rule 3 costs at most ``s²`` a pair (``s`` the spread of scores), ``m·s²`` a
    round. Rule 2 can only happen once (one bye), and rule 1 at most ``m`` times. Each
    radix is one more than the largest total of everything below it, so no amount of a
    lower rule outweighs one unit of a higher one. Weights are ``top − cost`` with
    ``top`` above any cost: all positive integers; every perfect matching has ``m``
    edges, so the heaviest is the cheapest.
    """

    def __init__(self, field_: _Field) -> None:
        self.field = field_
        n = len(field_.order)
        pairs = (n + 1) // 2
        spread = field_.order[0].score - field_.lowest
        self.rule5 = 1
        self.rule4 = self.rule5 * (pairs * n + 1)
        self.rule3 = self.rule4 * (n + 1)
        self.rule2 = self.rule3 * (pairs * spread * spread + 1)
        self.rule1 = 2 * self.rule2
        self.top = self.rule1 * (pairs + 1)

    def weight(self, a: int, b: int) -> int:
        f = self.field
        stray = f.stray(a, b)
        cost = (
            self.rule1 * f.rematch(a, b)
            + self.rule2 * f.repeat_bye(a, b)
            + self.rule3 * stray * stray
            + self.rule4 * f.bye_rank(a, b)
            + self.rule5 * f.preference(a, b)
        )
        return self.top - cost


def _all_edges(field_: _Field) -> list[tuple[int, int]]:
    vertices = [p.id for p in field_.order] + ([_BYE] if field_.odd else [])
    return [(a, b) for i, a in enumerate(vertices) for b in vertices[i + 1 :]]


def _sparse_edges(field_: _Field, players: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
    """Among ``players`` (consecutive in the standings): each one's next neighbours, the
    Dutch partners near their ideal one, and the bye for the lowest-placed players who
    could take it (when the last player of the field is among them)."""
    order = [p.id for p in players]
    edges: dict[tuple[int, int], None] = {}
    for i, a in enumerate(order):
        for b in order[i + 1 : i + 1 + NEIGHBOURS]:
            edges[a, b] = None
    inside = set(order)
    for members in field_.groups:
        members = [p for p in members if p.id in inside]
        half = len(members) // 2
        for place, player in enumerate(members):
            ideal = place + half
            for other in members[max(place + 1, ideal - DUTCH_WINDOW) : ideal + DUTCH_WINDOW + 1]:
                edges[player.id, other.id] = None
    if field_.odd and field_.order[-1].id in inside:
        ranked = sorted(order, key=lambda a: field_.bye_place.get(a, len(field_.order)))
        for a in ranked[: 2 * NEIGHBOURS]:
            edges[a, _BYE] = None
    return list(edges)


def _solve_by_groups(field_: _Field, weights: _Weights, seed: int) -> dict[int, int]:
    """Pair every score group that can be closed on its own by itself, and match the runs
    of groups between such groups separately.

    A group is closed when it is even and an even number of players stand above it (and
    it is not the lowest group of an odd field, which holds the bye). If the whole round
    then meets the deviation floor, no pair of any pairing as good on rules 1–3 crosses
    the cuts around a closed group (each odd cut is crossed once, between neighbouring
    groups; these cuts are even), so a best round pairs a closed group within itself,
    and the runs between closed groups are independent problems. A closed group takes
    its Dutch ideal (1 v 1+h …), which costs nothing, unless that holds a rematch; then
    it is matched on its own.
    """
    mate: dict[int, int] = {}
    run: list[SwissPlayer] = []
    above = 0
    last = len(field_.groups) - 1

    def flush() -> bool:
        if run:
            vertices = {p.id for p in run}
            if field_.odd and field_.order[-1].id in vertices:
                vertices.add(_BYE)
            solved = _solve(field_, weights, _sparse_edges(field_, run), seed, vertices)
            if not solved:
                return False
            mate.update(solved)
            run.clear()
        return True

    for g, members in enumerate(field_.groups):
        closed = len(members) % 2 == 0 and above % 2 == 0 and not (g == last and field_.odd)
        above += len(members)
        if not closed:
            run.extend(members)
            continue
        if not flush():
            return {}
        half = len(members) // 2
        ideal = list(zip(members[:half], members[half:], strict=True))
        if any(b.id in a.opponents for a, b in ideal):
            run.extend(members)
            if not flush():
                return {}
            continue
        for a, b in ideal:
            mate[a.id], mate[b.id] = b.id, a.id
    return mate if flush() else {}


def _solve(
    field_: _Field,
    weights: _Weights,
    edges: list[tuple[int, int]],
    seed: int,
    vertices: set[int] | None = None,
) -> dict[int, int]:
    """A maximum-weight perfect matching over ``edges`` (every one of ``vertices``,
    by default the whole field and the bye, matched), or ``{}`` if there is none.

    The seed shuffles the order the graph is built in, which is all that decides
    between matchings of equal weight.
    """
    if vertices is None:
        vertices = {p.id for p in field_.order} | ({_BYE} if field_.odd else set())
    rng = random.Random(seed)
    nodes = sorted(vertices, key=lambda v: field_.index.get(v, len(field_.order)))
    rng.shuffle(nodes)
    edges = list(edges)
    rng.shuffle(edges)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, weights.weight(a, b)) for a, b in edges)
    mate: dict[int, int] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        mate[a], mate[b] = b, a
    return mate if len(mate) == len(nodes) else {}


def _proven(field_: _Field, result: SwissRound) -> bool:
    """Whether no pairing of the complete graph beats ``result`` on rules 1–3."""
    return (
        not result.rematches
        and not result.repeat_bye
        and result.deviation == _deviation_floor(field_)
    )


def _deviation_floor(field_: _Field) -> int:
    """The least rule-3 total any pairing can have, ignoring rematches and byes.

    Cut the standings between two score groups: if an odd number of players (the bye
    vertex counting as one of the lowest group) stand above the cut, some pair must
    cross it. A pair crossing several cuts strays by the sum of their gaps, and the
    square of a sum is at least the sum of the squares, so every pairing pays at least
    the squared gap of every odd cut.
    """
    floor = 0
    above = 0
    for upper, lower in pairwise(field_.groups):
        above += len(upper)
        if above % 2:
            gap = upper[0].score - lower[0].score
            floor += gap * gap
    return floor
