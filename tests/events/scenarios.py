"""Whole events, one function per format, each played from a seed: who enters, the hands at
every table, who drops, who does not come. After every round :class:`Rounds` runs every
invariant (:mod:`tests.events.invariants`) and stops at the first round with a problem,
listing all of that round's problems (``EVENTS_KEEP_GOING=1``: note them and play on, to
see everything an event shows; the test still fails at the end)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from tournaments.models import Entry, Tournament

from .driver import Event, Hands, Missing, names
from .invariants import Problem, check

# A hand that decides nothing in a game to 100 (28 points): a match left running at time.
SMALL_KNOCK = {"kind": "knock", "by": "B", "deadwood": 2, "defender_deadwood": 30}


@dataclass
class Rounds:
    event: Event
    tmp_path: Any
    keep_going: bool = field(default_factory=lambda: os.environ.get("EVENTS_KEEP_GOING") == "1")
    seen: list[tuple[str, list[Problem]]] = field(default_factory=list)

    def after(self, label: str) -> None:
        problems = check(self.event, self.tmp_path)
        if not problems:
            return
        if self.keep_going:
            self.seen.append((label, problems))
            return
        self.fail([(label, problems)])

    def missing(self, who: str, what: str) -> None:
        """A step the site does not offer: fails now, or (keep going) at the end."""
        problem = [("a missing step", [Problem("director", who, what)])]
        if not self.keep_going:
            self.fail(problem)
        self.seen += problem

    def fail(self, found: list[tuple[str, list[Problem]]]) -> None:
        lines = [
            f"{self.event.slug}, after {label}:\n  " + "\n  ".join(map(str, problems))
            for label, problems in found
        ]
        steps = "\n  ".join(self.event.steps[-12:])
        pytest.fail("\n".join(lines) + f"\nlast steps:\n  {steps}", pytrace=False)

    def done(self) -> None:
        assert self.event.tournament.status == Tournament.Status.FINISHED, self.event.steps[-5:]
        if self.seen:
            self.fail(self.seen)


def play_waves(event: Event, hands: Hands, rounds: Rounds, name: str) -> None:
    """Every match at a table played from the phones, a wave at a time; the checks after
    each wave (a bracket's round, more or less)."""
    wave = 0
    while ready := event.ready():
        wave += 1
        for match in ready:
            event.play(match, hands)
        rounds.after(f"{name} wave {wave}")


def play_with_a_queue(event: Event, hands: Hands, rounds: Rounds, name: str) -> None:
    """A round with more matches than tables (issue 41): the queued matches' phones try a
    hand through their sheets' links at once, the checks run while they wait, then each
    table plays its match and the queue's first takes the table it frees."""
    waiting = [m for m in event.ready() if m.table is None]
    for match in waiting:
        event.wait_for_table(match, hands)
    if waiting:
        rounds.after(f"{name}, {len(waiting)} matches waiting for a table")
    while ready := event.ready():
        seated = [m for m in ready if m.table is not None]
        assert seated, f"{name}: matches wait with every table free"
        event.play(seated[0], hands)
        for match in event.ready():
            if match.table is None:
                event.wait_for_table(match, hands)  # still waiting: still refused
    rounds.after(name)


def pay_everyone(event: Event, entries: list[Entry], rng: random.Random) -> None:
    for entry in entries:
        event.pay(entry, rng.choice(["cash", "cash", "card", "free"]))


def swiss_then_cut(
    client: Any, tmp_path: Any, *, players: int, seed: int, lossy_wifi: bool = False
) -> None:
    """A Swiss qualifying into a knockout: a drop after round 1 and a late entry for round
    2, a no-show's walkover in round 2, and in the last round the clock: one match decided
    on time and one left level, ruled by the director. Money in the 12-player event; at 33
    a qualifier does not come to the knockout and a lucky loser takes the seat."""
    rng = random.Random(f"swiss-{players}-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    if lossy_wifi:  # issue 32: answers lost, hands entered first from a second phone
        event.wifi = random.Random(f"wifi-{players}-{seed}")
    event.create(f"Swiss {players} seed {seed}", tables=players)
    field_names = names(rng, players + 1)
    entries = [event.register(name) for name in field_names[:players]]
    rounds = Rounds(event, tmp_path)
    if players == 12:
        event.money(fee="10", payout="40, 25, 15, 10, 5, 5")
        pay_everyone(event, entries, rng)
    swiss_rounds = 3 if players <= 12 else 4
    event.add_stage(
        kind="swiss",
        name="Qualifying",
        rounds=swiss_rounds,
        advance=4 if players < 33 else 8,
        game_target=100,
        games_to_win=1,
        tiebreak_2="buchholz",
        tiebreak_3="games_won",
    )
    event.add_stage(kind="single_elimination", name="Knockout", final_games_to_win=2)
    event.start()
    swiss = event.stage(1)
    for number in range(1, swiss_rounds + 1):
        ready = event.ready()
        if number == 2:
            event.walkover(ready.pop(0), rng.choice("AB"))
        if number == swiss_rounds:
            on_time, level = ready.pop(), ready.pop()
            event.clock(swiss, 30)
            event.enter_hands(on_time, hands, given=[SMALL_KNOCK])
        for match in ready:
            event.play(match, hands)
        if number == swiss_rounds:
            said = event.call_time(swiss)
            assert "Decided on time: 1; level, for you to decide: 1" in said, said
            side = rng.choice("AB")
            try:
                event.rule_level(level, side)
            except Missing as missing:
                rounds.missing(level.key, str(missing))
                event.walkover(level, side)  # how a director decides it today
        rounds.after(f"Swiss round {number}")
        if number == 1:
            active = [e for e in entries if not e.withdrawn]
            event.withdraw(rng.choice(active))
            late = event.register(field_names[players])
            event.late_points(swiss, late, rng.randint(0, 1))
        if number < swiss_rounds:
            event.pair(swiss)
    event.close(swiss)
    if players == 33:  # a qualifier does not come: a lucky loser from the Swiss instead
        knockout, played = event.stage(2), event.stage(1).entrants
        out = [e for e in event.entries() if e.pk in played and not e.withdrawn]
        out = [e for e in out if e.pk not in knockout.entrants]
        event.lucky_loser(event.ready()[0], "B", rng.choice(out))
    rounds.after("the cut")
    play_waves(event, hands, rounds, "Knockout")
    rounds.done()
    if lossy_wifi:
        wrong = event.stored_as_meant()
        assert not wrong, "\n".join(wrong)
        assert event.resends and event.clashes, (event.resends, event.clashes)
        print(f"\nlossy Wi-Fi: {event.resends} answers lost and resent, {event.clashes} clashes")


def pools_then_cut(client: Any, tmp_path: Any, *, seed: int) -> None:
    """Twelve players in three pools of four, the top two of each into a knockout of six
    (byes to the two best)."""
    rng = random.Random(f"pools-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(f"Pools seed {seed}", tables=12)
    for name in names(rng, 12):
        event.register(name)
    rounds = Rounds(event, tmp_path)
    event.add_stage(
        kind="round_robin",
        name="Pools",
        pool_size=4,
        advance=2,
        game_target=100,
        games_to_win=1,
        tiebreak_2="head_to_head",
        tiebreak_3="point_margin",
    )
    event.add_stage(kind="single_elimination", name="Knockout")
    event.start()
    play_waves(event, hands, rounds, "Pools")
    event.close(event.stage(1))
    rounds.after("the cut")
    play_waves(event, hands, rounds, "Knockout")
    rounds.done()


def queued_swiss(client: Any, tmp_path: Any, *, seed: int) -> None:
    """A club night with more matches than tables (issue 41): a Swiss of 10 to 16 players at
    2 to 4 tables into a top-4 knockout. In every round the matches without a table wait:
    their links refuse a hand and say where they stand; each gets a table as one frees."""
    rng = random.Random(f"queued-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    players = rng.randint(10, 16)
    event.create(f"Queued seed {seed}", tables=rng.randint(2, 4))
    for name in names(rng, players):
        event.register(name)
    rounds = Rounds(event, tmp_path)
    event.add_stage(
        kind="swiss",
        name="Qualifying",
        rounds=3,
        advance=4,
        game_target=100,
        games_to_win=1,
        tiebreak_2="buchholz",
        tiebreak_3="games_won",
    )
    event.add_stage(kind="single_elimination", name="Knockout")
    event.start()
    swiss = event.stage(1)
    for number in range(1, 4):
        play_with_a_queue(event, hands, rounds, f"Swiss round {number}")
        if number < 3:
            event.pair(swiss)
    event.close(swiss)
    rounds.after("the cut")
    play_waves(event, hands, rounds, "Knockout")
    rounds.done()


def one_bracket(client: Any, tmp_path: Any, *, kind: str, players: int, seed: int) -> None:
    """A tournament of one bracket (double elimination, round robin), one game to 100."""
    rng = random.Random(f"{kind}-{players}-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(f"{kind} {players} seed {seed}", tables=players, bracket_kind=kind)
    for name in names(rng, players):
        event.register(name)
    rounds = Rounds(event, tmp_path)
    event.generate()
    rounds.after("the draw")
    play_waves(event, hands, rounds, kind)
    rounds.done()


def team_night(client: Any, tmp_path: Any, *, seed: int) -> None:
    """Partnership gin: six teams of two, a single elimination (byes to the top two)."""
    rng = random.Random(f"teams-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(f"Team night seed {seed}", preset="partnership", tables=6)
    people = names(rng, 12)
    for n in range(6):
        event.register_team(f"Team {n + 1}", people[2 * n : 2 * n + 2])
    rounds = Rounds(event, tmp_path)
    event.generate()
    rounds.after("the draw")
    play_waves(event, hands, rounds, "Teams")
    rounds.done()


def club_night(client: Any, tmp_path: Any, *, seed: int) -> None:
    """A club night with money: ten players, a single elimination, an entry fee paid in
    cash, by card or let in free, a payout table, a side pot some of them buy into, and a
    season it is in."""
    rng = random.Random(f"club-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(f"Club night seed {seed}", tables=10)
    entries = [event.register(name) for name in names(rng, 10)]
    event.money(fee="12.50", payout="50, 30, 20", rounding="5")
    pay_everyone(event, entries, rng)
    event.side_pot("Side pot", "5", "60, 40", rng.sample(entries, 5))
    event.season(f"Club season {seed}", "10, 6, 4, 2")
    rounds = Rounds(event, tmp_path)
    event.generate()
    rounds.after("the draw")
    play_waves(event, hands, rounds, "Club night")
    rounds.done()


def entered_in_bulk(client: Any, tmp_path: Any, *, seed: int) -> None:
    """Issue 41: fifteen players entered without fifteen clicks. Some are in the registry
    already; a CSV file enters nine (four the registry has, matched by club id or by name
    and (empty) email in another case; five new to it), the same file again enters nobody, and
    the rest are ticked on Registration and entered with one button. Then a Swiss into a
    knockout, every entrant on every surface."""
    rng = random.Random(f"bulk-{seed}")
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(f"Bulk entry seed {seed}", tables=8)
    people = names(rng, 15)
    registered = people[:10]
    # Club ids for the first half; no email (the archive's round trip drops an email the
    # importing director does not own: see the report of issue 41).
    for n, name in enumerate(registered):
        event.new_player(name, club_id=f"C-{n}" if n % 2 == 0 else "")
    rows = [(name, "", f"C-{n}") for n, name in enumerate(registered[:4]) if n % 2 == 0]
    rows += [(name.upper(), "", "") for n, name in enumerate(registered[:4]) if n % 2]
    rows += [(name, "", "") for name in people[10:]]
    rng.shuffle(rows)
    event.import_entries(rows, expect=9)
    event.import_entries(rows, expect=0)
    event.tick_entries(rng.sample(registered[4:], 6))
    assert len(event.entries()) == 15
    rounds = Rounds(event, tmp_path)
    event.add_stage(
        kind="swiss", name="Qualifying", rounds=3, advance=4, game_target=100, games_to_win=1
    )
    event.add_stage(kind="single_elimination", name="Knockout")
    event.start()
    swiss = event.stage(1)
    for number in range(1, 4):
        for match in event.ready():
            event.play(match, hands)
        rounds.after(f"Swiss round {number}")
        if number < 3:
            event.pair(swiss)
    event.close(swiss)
    rounds.after("the cut")
    play_waves(event, hands, rounds, "Knockout")
    rounds.done()
