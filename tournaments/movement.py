"""Moving players through a stored bracket: the in-memory board behind the services.

A :class:`Board` holds every match of one tournament, keyed by match key, with the routes
between them (winner to, loser to). The services load a board (one query for matches, one
for withdrawn entries), change it, and save the rows that changed. Keeping the routing in
memory makes generation of a large bracket cheap and lets the bracket preview run the very
same code without saving anything.

A slot of a match is *filled* (an entry is in it), *pending* (the match feeding it is not
complete yet) or *empty* (nobody will ever come: a bye, or the feeding match produced
nobody). A match whose slots are all settled becomes ready, or completes by itself as a
bye; a bye's winner moves on at once.

Lock order. Every write that touches a match takes its locks in this order, so that two
writes meeting on one match queue rather than deadlock (PostgreSQL; SQLite's immediate
transactions serialise writers anyway):

1. the tournament row, with :func:`lock_tournament`, by every write that moves players
   through the bracket or may change a confirmed result: confirmation, reopening,
   walkover, withdrawal, tables, the draw, a hand's correction or deletion (it may reopen
   the match), a table link's renewal, a tournament's settings, and the tournament's very
   first hand (it locks the rules, a write of the tournament row);
2. match rows: the one match a hand is written to, or under the tournament lock the
   match a bracket move decides on (or the whole board, for reopening and withdrawals)
   and then the rows the move writes (:meth:`Board.load`, :meth:`Board.save`);
3. then hands, audit rows and any other row;
4. last, just before commit, the tournament's public version row
   (:func:`tournaments.public_version.changed`): every write that changes what the public pages
   show takes it, so whoever holds it waits for nothing else after.

Hand entry, the hottest write, skips step 1 (except that first hand) and locks only its
match row. It never waits for the tournament lock: the lock is ``FOR NO KEY UPDATE``,
which lets the foreign keys of the rows a hand write inserts (hand, audit row) take their
key-share lock on the tournament row. Whoever locks more than one match row holds the
tournament lock, so two of those never meet; a hand write, once it holds its match row,
waits for no other lock, so it always lets the others through.

What this module does not do: permission checks, audit rows, or transactions (the
services do those).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from .models import Decision, Entry, Match, Tournament

Status = Match.Status
SIDES = ("A", "B")
OTHER = {"A": "B", "B": "A"}

# Matches holding a table: players are (or are about to be) sitting at it.
TABLE_STATUSES = (Status.READY, Status.IN_PLAY, Status.AWAITING)
# A match in one of these states has been played into: its players cannot be changed.
STARTED_STATUSES = (Status.IN_PLAY, Status.AWAITING, Status.COMPLETE)

# The fields routing may change; saved with update_fields.
ROUTING_FIELDS = [
    "side_a",
    "side_b",
    "status",
    "table",
    "queued_at",
    "winner_side",
    "is_bye",
    "forfeit",
    "started_at",
    "completed_at",
]


ROUTING_ATTNAMES = [Match._meta.get_field(name).attname for name in ROUTING_FIELDS]


@dataclass(frozen=True, slots=True)
class Route:
    """Where a match's result goes: ``(key, slot)`` for the winner and for the loser."""

    winner_to: tuple[str, str] | None = None
    loser_to: tuple[str, str] | None = None


@dataclass
class Pending:
    """A decision the board made or was told of (:class:`Decision`), written by
    :meth:`Board.save`: a bye, a walkover, or (set by the services) a result on time."""

    kind: str
    side: str
    entry: int | None = None
    hands: int = 0
    basis: dict[str, Any] = field(default_factory=dict)


class Board:
    def __init__(
        self,
        tournament: Tournament,
        matches: Iterable[Match],
        routes: dict[str, Route],
        withdrawn: set[int],
        *,
        now: datetime | None = None,
    ) -> None:
        self.tournament = tournament
        self.matches: dict[str, Match] = {m.key: m for m in matches}
        self.routes = routes
        self.withdrawn = withdrawn
        self.now = now or timezone.now()
        self.dirty: set[str] = set()
        # Decisions to write (by match key) and matches whose result decisions are taken
        # back; who made the move that decided them (the services say).
        self.decided: dict[str, Pending] = {}
        self.undone: set[str] = set()
        self.user: Any = None
        self.via = ""
        # The routing fields as stored, so that save() writes only what the board changed.
        self.stored = {m.key: _routing_state(m) for m in self.matches.values() if m.pk}
        # (key, slot) -> (feeding match key, "winner" | "loser")
        self.feeders: dict[tuple[str, str], tuple[str, str]] = {}
        for key, route in routes.items():
            if route.winner_to:
                self.feeders[route.winner_to] = (key, "winner")
            if route.loser_to:
                self.feeders[route.loser_to] = (key, "loser")

    @classmethod
    def load(
        cls,
        tournament: Tournament,
        *,
        lock: bool = True,
        focus: Match | None = None,
        whole: bool = False,
    ) -> Board:
        """Every match of ``tournament``.

        With ``lock`` the tournament row is locked first (the lock order above): one lock
        serialises every bracket move in a tournament, so two tables confirming at once
        queue instead of deadlocking over each other's match rows. Then the row of
        ``focus``, the match the move decides on, is locked before the board is read (a
        hand being written to it is waited for, and the move sees the match as it is
        now), or with ``whole`` every match row, in id order, for a move that decides on
        other matches' play (reopening, a withdrawal). The other rows are read as they
        stand: a hand write changes only a match's play (scores, start, a status among
        those that hold a table), and :meth:`save` writes only the fields the board
        changed, so it never puts a stale value back.
        """
        matches = Match.objects.filter(tournament=tournament).order_by("pk")
        if lock:
            lock_tournament(tournament)
            if whole:
                matches = matches.select_for_update(no_key=True)
            elif focus is not None:
                lock_match = Match.objects.select_for_update(no_key=True).filter(pk=focus.pk)
                list(lock_match.values_list("pk"))
        matches = list(matches)
        key_of = {m.pk: m.key for m in matches}
        routes = {
            m.key: Route(
                winner_to=(key_of[m.next_match_id], m.next_slot) if m.next_match_id else None,
                loser_to=(
                    (key_of[m.loser_next_match_id], m.loser_next_slot)
                    if m.loser_next_match_id
                    else None
                ),
            )
            for m in matches
        }
        withdrawn = set(
            Entry.objects.filter(tournament=tournament, withdrawn=True).values_list("pk", flat=True)
        )
        return cls(tournament, matches, routes, withdrawn)

    # -- reading -------------------------------------------------------------------------

    def get(self, match: Match) -> Match:
        return self.matches[match.key]

    def slot_state(self, match: Match, side: str) -> str:
        if match.entry_id(side) is not None:
            return "filled"
        feeder = self.feeders.get((match.key, side))
        if feeder is None:
            return "empty"
        return "empty" if self.matches[feeder[0]].status == Status.COMPLETE else "pending"

    def came_from_losers(self, match: Match, side: str) -> bool:
        """Whether the player in this slot has lost a match already (so a grand final won
        from this slot calls for the bracket reset)."""
        feeder = self.feeders.get((match.key, side))
        if feeder is None:
            return False
        key, kind = feeder
        return kind == "loser" or self.matches[key].section != Match.Section.WINNERS

    def downstream(self, match: Match) -> list[tuple[Match, str]]:
        """The matches this one's winner and loser go to, with the slot, once each."""
        route = self.routes.get(match.key, Route())
        found = []
        for target in (route.winner_to, route.loser_to):
            if target is not None:
                found.append((self.matches[target[0]], target[1]))
        return found

    def blocking(self, match: Match) -> Match | None:
        """The first downstream match already played into, looking through byes."""
        for target, _slot in self.downstream(match):
            if target.status == Status.COMPLETE and target.is_bye:
                deeper = self.blocking(target)
                if deeper is not None:
                    return deeper
            elif target.status in STARTED_STATUSES:
                return target
        return None

    # -- changing ------------------------------------------------------------------------

    def touch(self, match: Match) -> None:
        self.dirty.add(match.key)

    def set_slot(self, match: Match, side: str, entry_id: int | None) -> None:
        if side == "A":
            match.side_a_id = entry_id
        else:
            match.side_b_id = entry_id
        self.touch(match)

    def settle(self, match: Match) -> None:
        """Make a waiting match ready, or complete it as a bye, once its slots are known."""
        if match.status != Status.WAITING:
            return
        states = {side: self.slot_state(match, side) for side in SIDES}
        if "pending" in states.values():
            return
        filled = [side for side in SIDES if states[side] == "filled"]
        if len(filled) == 2:
            out = [side for side in SIDES if match.entry_id(side) in self.withdrawn]
            if len(out) == 2:
                self.complete(match, "", bye=True)
            elif len(out) == 1:
                self.complete(match, OTHER[out[0]], forfeit=True)
            else:
                match.status = Status.READY
                match.queued_at = self.now
                self.touch(match)
        elif len(filled) == 1:
            self.complete(match, filled[0], bye=True)
        else:
            self.complete(match, "", bye=True)

    def complete(
        self, match: Match, winner_side: str, *, forfeit: bool = False, bye: bool = False
    ) -> None:
        match.status = Status.COMPLETE
        match.winner_side = winner_side
        match.forfeit = forfeit
        match.is_bye = bye
        match.completed_at = self.now
        if bye:
            match.table = None
        if bye and winner_side:
            holder = match.entry_id(winner_side)
            basis = {"reason": "no opponent"}
            self.decided[match.key] = Pending("bye", winner_side, holder, 0, basis)
        elif forfeit:
            out = match.entry_id(OTHER[winner_side])
            withdrawn = out in self.withdrawn
            self.decided[match.key] = Pending(
                "walkover",
                winner_side,
                out if withdrawn else None,
                basis={"reason": "withdrawal" if withdrawn else "walkover"},
            )
        self.touch(match)
        self.advance(match)

    def advance(self, match: Match) -> None:
        """Send a complete match's winner and loser on, and settle where they land."""
        targets = self.downstream(match)
        winner = match.entry_id(match.winner_side) if match.winner_side else None
        loser = match.entry_id(OTHER[match.winner_side]) if match.winner_side else None
        if any(target.conditional for target, _slot in targets) and not (
            match.winner_side and self.came_from_losers(match, match.winner_side)
        ):
            # The winners' champion won the grand final: no reset is needed.
            for target, _slot in targets:
                if target.conditional:
                    self.skip(target)
            targets = [(t, s) for t, s in targets if not t.conditional]
        route = self.routes.get(match.key, Route())
        for target, slot in targets:
            if (target.key, slot) == route.winner_to:
                self.set_slot(target, slot, winner)
            else:
                self.set_slot(target, slot, loser)
        for target in {t.key: t for t, _s in targets}.values():
            self.settle(target)

    def skip(self, match: Match) -> None:
        match.side_a_id = None
        match.side_b_id = None
        match.table = None
        self.complete(match, "", bye=True)

    def retract(self, match: Match) -> None:
        """Take this match's winner and loser back out of the matches they went to.

        The caller has checked :meth:`blocking`: nothing downstream has started, except
        byes, which are undone in turn.
        """
        for target, slot in self.downstream(match):
            if target.status == Status.COMPLETE:
                self.retract(target)
            self.set_slot(target, slot, None)
            self.reset(target)

    def reset(self, match: Match) -> None:
        """Back to waiting for players (undoing a bye or a ready state)."""
        match.status = Status.WAITING
        match.winner_side = ""
        match.is_bye = False
        match.forfeit = False
        match.table = None
        match.queued_at = None
        match.completed_at = None
        self.take_back(match)

    def take_back(self, match: Match) -> None:
        """The match's result is undone: so are the decisions that made it."""
        self.decided.pop(match.key, None)
        if match.pk:
            self.undone.add(match.key)
        self.touch(match)

    def settle_all(self) -> None:
        for match in sorted(self.matches.values(), key=_queue_order):
            self.settle(match)

    def assign_tables(self, *, call: bool | None = None) -> None:
        """Give free tables, lowest number first, to playable matches without one; queue
        the rest. ``call`` (default: the tournament's "call tables automatically") False:
        no table is given, every playable match without one is queued for the director to
        send to a table (:func:`tournaments.services.send_to_table`)."""
        if call is None:
            call = self.tournament.auto_call
        for match in self.matches.values():
            if match.table is not None and match.status == Status.WAITING:
                match.table = None
                self.touch(match)
        free = self.free_tables() if call else []
        queue = sorted(
            (m for m in self.matches.values() if m.is_queued),
            key=_queue_order,
        )
        for match, table in zip(queue, free, strict=False):
            match.table = table
            self.touch(match)
        for match in queue[len(free) :]:
            if match.queued_at is None:
                match.queued_at = self.now
                self.touch(match)

    def free_tables(self) -> list[int]:
        used = {
            m.table
            for m in self.matches.values()
            if m.table is not None and m.status in TABLE_STATUSES
        }
        return [n for n in range(1, self.tournament.tables + 1) if n not in used]

    def all_complete(self) -> bool:
        return bool(self.matches) and all(
            m.status == Status.COMPLETE for m in self.matches.values()
        )

    def save(self) -> list[Match]:
        """Write the changed matches, only the fields that changed; tables are released
        before they are taken."""
        changed = [self.matches[key] for key in sorted(self.dirty)]
        # One unfinished match per table is a database constraint: write the rows that
        # let go of a table before the rows that hold one.
        changed.sort(key=lambda m: m.table is not None and m.status in TABLE_STATUSES)
        for match in changed:
            now = _routing_state(match)
            stored = self.stored.get(match.key)
            fields = [
                name
                for i, name in enumerate(ROUTING_FIELDS)
                if stored is None or now[i] != stored[i]
            ]
            if fields:
                match.save(update_fields=fields)
            self.stored[match.key] = now
        self.dirty.clear()
        self.save_decisions()
        return changed

    def save_decisions(self) -> None:
        """Take back the result decisions of the matches undone; write the new ones (of
        saved matches: the draw calls this again once it has inserted its own)."""
        undone = [self.matches[key].pk for key in sorted(self.undone)]
        if undone:
            Decision.objects.filter(match_id__in=undone, kind__in=Decision.RESULTS).delete()
        self.undone.clear()
        ready = {key: d for key, d in self.decided.items() if self.matches[key].pk}
        Decision.objects.bulk_create(
            Decision(
                tournament=self.tournament,
                match=self.matches[key],
                kind=d.kind,
                side=d.side,
                entry_id=d.entry,
                hands=d.hands,
                basis=d.basis,
                decided_by=self.user if getattr(self.user, "is_authenticated", False) else None,
                via=self.via[:120],
                at=self.now,
            )
            for key, d in sorted(ready.items())
        )
        for key in ready:
            del self.decided[key]


def _routing_state(match: Match) -> tuple[object, ...]:
    return tuple(getattr(match, name) for name in ROUTING_ATTNAMES)


def lock_tournament(tournament: Tournament | int) -> None:
    """Take the per-tournament lock, step 1 of the lock order (module docstring).

    ``FOR NO KEY UPDATE``: it excludes every other holder of the lock, and any update of
    the tournament row, but not the key-share lock a foreign key takes when a hand write
    inserts a row that points at the tournament."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    list(Tournament.objects.select_for_update(no_key=True).filter(pk=pk).values_list("pk"))


def _queue_order(match: Match) -> tuple[int, int, int]:
    return (match.round, match.position, match.pk or 0)


def copy_state(source: Match, target: Match) -> None:
    """Bring the caller's instance up to date with the board's copy of the same row."""
    if source is target:
        return
    for name in ROUTING_FIELDS:
        field = Match._meta.get_field(name)
        setattr(target, field.attname, getattr(source, field.attname))


def store_matches(matches: list[Match], routes: dict[str, Route]) -> None:
    """Insert new matches, in playing order, with their routes (the draw's bracket, a
    stage's matches) so every route points at a row that already exists: layer by layer
    from the final backwards, one INSERT per layer (no second pass of UPDATEs)."""
    depth: dict[str, int] = {}
    for match in reversed(matches):  # playing order: every target comes later
        route = routes[match.key]
        targets = [t[0] for t in (route.winner_to, route.loser_to) if t is not None]
        depth[match.key] = 1 + max((depth[key] for key in targets), default=-1)
    by_key = {m.key: m for m in matches}
    for layer in range(max(depth.values(), default=-1) + 1):
        batch = [m for m in matches if depth[m.key] == layer]
        for match in batch:
            route = routes[match.key]
            if route.winner_to:
                match.next_match = by_key[route.winner_to[0]]
                match.next_slot = route.winner_to[1]
            if route.loser_to:
                match.loser_next_match = by_key[route.loser_to[0]]
                match.loser_next_slot = route.loser_to[1]
        Match.objects.bulk_create(batch, batch_size=500)
