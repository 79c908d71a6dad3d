"""The followers phase of ``make loadtest`` (SPEC 10, issue 15): thousands of phones follow a
256-player tournament's public page while its 64 tables enter hands.

Run alone with ``python -m tools.load.run --followers-only`` (``--help`` for the knobs);
:mod:`tools.load.run` calls :func:`phase` in a child process of its own per database and
server, as it does the tables phase:

1. migrate a scratch database; a running 256-player tournament (the ``tournament``
   preset) whose 128 first-round matches are half at the 64 tables, half queued; the
   queued half is played out and confirmed beforehand (:func:`tools.bench.data.store_hands`,
   the real ``confirm_match``), so the bracket and standings have the size and numbers of
   a tournament under way (4,000-odd hands);
2. start the server (the venue server or gunicorn) on 127.0.0.1;
3. for ``--follow-seconds`` the 64 tables (:class:`tools.load.client.Table`, a thread
   each) enter their matches hand by hand, pausing ``--hand-interval`` seconds (± a
   third) between hands, while ``--followers`` phones (:mod:`tools.load.followers`,
   asyncio in processes of their own) poll the public page's two live regions every
   poll interval, each from its own moment in the first interval, with the validators of
   their last answer; the followers go on for one more interval so that every hand can
   show, and only then stop;
4. stop the server; check every table's hands as the tables phase does
   (:func:`tools.load.run.verify`), and that the last standings' Hands-won total is the
   first one plus the winning hands stored.

Why a hand every ~9 s at each table: at a real table a hand takes 2–4 minutes, so 64
tables store a hand every 2–3 s; compressed twentyfold, a 75-second window has ~500 hands,
enough for a hand-entry p95 and for the delay between a hand's acknowledgement and its
first appearance in the followers' standings. It is the hard side of real play for the
public page: the tournament changes several times a second instead of every few seconds,
so fewer polls can be answered 304 and more regions must be rendered afresh than on a
real night. ``--hand-interval 180`` plays in real time (then few hands are sampled).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .client import Device, Plan, Stats, Table, TableResult
from .followers import Poll, hands_won_total, poll_seconds, summarize
from .servers import ROOT, start_gunicorn, start_venue, stop

PLAYERS = 256
LEAD_SECONDS = 4.0  # for the follower processes to start before the window opens
SERVER_WARNINGS = (
    "connection limit",
    "Task queue depth",
    "venue server is busy",  # waitress's queue warning as config.logs.BusyServer says it
    "WORKER TIMEOUT",
    "Broken pipe",
)


def setup(players: int, tables: int, server: str) -> tuple[Any, list[Plan], dict[int, list[bool]]]:
    """The followed tournament, the plan of each match at a table, and which of each
    match's hands has a winner (counts in "Hands won"), by match id."""
    from django.db import connections

    from demo.hands import match_hands
    from engine import score_match
    from scoring.loading import first_dealer
    from tests.factories import make_director
    from tools.bench.data import hand_seed, new_tournament, ready_matches, store_hands
    from tournaments.services import confirm_match

    from .run import post_fields

    director = make_director(username=f"followers-director-{server}")
    tournament = new_tournament(
        players, owner=director, name=f"Followers ({server})", tables=tables
    )
    ready = ready_matches(tournament)
    seated = [m for m in ready if m.table is not None]
    if len(seated) != tables:
        raise RuntimeError(f"expected {tables} matches at tables, got {len(seated)}")
    for match in ready:
        if match.table is None:  # queued behind the tables: played earlier in the evening
            hands = list(match_hands(tournament.ruleset, seed=hand_seed("earlier", match.key)))
            store_hands(match, hands, user=director)
            confirm_match(match=match, user=director)
    plans, wins = [], {}
    rules = tournament.ruleset
    for match in seated:
        match.refresh_from_db()
        hands = list(match_hands(rules, seed=hand_seed("followers", match.key)))
        sheet = score_match(rules, [h.to_input() for h in hands], first_dealer(match))
        wins[match.pk] = [scored.score.winner is not None for scored in sheet.hands]
        plans.append(Plan(match.pk, match.token, [post_fields(hand) for hand in hands]))
    connections.close_all()
    return tournament, plans, wins


def stored_total(tournament: Any) -> int:
    """The Hands-won total the standings should show, from the database."""
    from standings.data import load

    return sum(row.stats.hands_won for row in load(tournament).standings.rows)


def standings_total(base: str, slug: str, timeout: float) -> int:
    """The Hands-won total of the standings region as the server sends it now."""
    device = Device(base, Stats(), timeout=timeout)
    headers = {"HX-Request": "true", "HX-Target": "standings", "HX-Trigger": "standings"}
    answer = device.request("standings", "GET", f"/t/{slug}/", headers=headers)
    total = hands_won_total(answer.body.encode()) if answer.status == 200 else None
    if total is None:
        raise RuntimeError(f"the standings region answered {answer.status}, with no total")
    return total


def keep_alive(args: argparse.Namespace, server: str) -> tuple[bool, str]:
    """Whether followers keep their connections alive, and why. The venue server (waitress)
    holds at most ``config.venue.CONNECTION_LIMIT`` connections and makes the rest wait
    unanswered; with more followers than that they reconnect for every poll instead."""
    if args.keep_alive != "auto":
        return args.keep_alive == "on", f"--keep-alive {args.keep_alive}"
    if server != "venue":
        return True, "gunicorn: kept alive (it closes them after its keep-alive timeout, 2 s)"
    from config.venue import CONNECTION_LIMIT

    wanted = 2 * args.followers + 2 * args.tables
    if wanted <= CONNECTION_LIMIT:
        return True, f"kept alive: up to {wanted} connections ≤ waitress limit {CONNECTION_LIMIT}"
    return False, (
        f"reconnecting for every poll: {args.followers} followers keep up to {wanted} "
        f"connections, waitress's connection_limit is {CONNECTION_LIMIT}"
    )


def group_cpu(pgid: int) -> float | None:
    """CPU seconds used so far by the processes of a process group (Linux /proc)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:  # fields from the state on: state ppid pgrp …
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class CpuWatch(threading.Thread):
    """The server's CPU (its process group) and the whole machine's, from ``start`` to
    ``end`` (``time.monotonic()``), read from Linux's /proc."""

    def __init__(self, pgid: int, start: float, end: float) -> None:
        super().__init__(daemon=True)
        self.pgid, self.start_at, self.end_at = pgid, start, end
        self.readings: list[tuple[float, float | None, tuple[float, float]]] = []
        self.start()

    def run(self) -> None:
        for moment in (self.start_at, self.end_at):
            time.sleep(max(0.0, moment - time.monotonic()))
            self.readings.append((time.monotonic(), group_cpu(self.pgid), machine_busy()))

    def server_percent(self) -> float | None:
        if len(self.readings) < 2 or self.readings[0][1] is None or self.readings[1][1] is None:
            return None
        (t0, cpu0, _), (t1, cpu1, _) = self.readings
        return round(100 * max(0.0, cpu1 - cpu0) / max(1e-9, t1 - t0), 1)  # 0: it died

    def machine_percent(self) -> float | None:
        if len(self.readings) < 2:
            return None
        (busy0, total0), (busy1, total1) = self.readings[0][2], self.readings[1][2]
        return round(100 * (busy1 - busy0) / max(1e-9, total1 - total0), 1)


def machine_busy() -> tuple[float, float]:
    try:
        values = [float(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def start_server(server: str, backend: str, args: argparse.Namespace) -> tuple[Any, str, Path]:
    scratch = Path(args.scratch)
    log = scratch / f"followers-{server}-{backend}.log"
    if server == "venue":
        data = scratch / f"venue-followers-{backend}"
        process, base = start_venue({**os.environ}, data=data, log=log)
    else:
        process, base = start_gunicorn(
            {**os.environ},
            workers=args.workers,
            threads=args.threads,
            log=log,
            access_log=scratch / f"followers-{server}-{backend}-access.log",
        )
    return process, base, log


def run_tables(
    base: str,
    plans: list[Plan],
    wins: dict[int, list[bool]],
    args: argparse.Namespace,
    start_at: float,
    until: float,
) -> tuple[Stats, list[TableResult | None], list[float]]:
    """The tables from ``start_at`` to ``until``; returns what they saw and when each
    winning hand was acknowledged."""
    stats = Stats()
    winning: list[float] = []
    spread = args.hand_interval * args.hand_jitter
    tables = []
    for index, plan in enumerate(plans):
        rng = random.Random(10_000 + index)
        first = [True]

        def think(rng: random.Random = rng, first: list[bool] = first) -> float:
            if first[0]:  # the tables are at different points of their hands at the start
                first[0] = False
                return rng.uniform(0, args.hand_interval + spread)
            return rng.uniform(args.hand_interval - spread, args.hand_interval + spread)

        def acknowledged(number: int, flags: list[bool] = wins[plan.match_id]) -> None:
            if flags[number - 1]:
                winning.append(time.monotonic())

        tables.append(
            Table(
                base,
                plan,
                stats,
                timeout=args.request_timeout,
                deadline=until + args.request_timeout * 4,
                refresh=False,
                twin_rate=args.second_device,
                seed=index,
                think=think,
                until=until,
                acknowledged=acknowledged,
            )
        )
    results: list[TableResult | None] = [None] * len(tables)

    def play(index: int) -> None:
        time.sleep(max(0.0, start_at - time.monotonic()))
        results[index] = tables[index].run()

    threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(len(tables))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, until - time.monotonic() + 4 * args.request_timeout + 10))
    for index, thread in enumerate(threads):
        if thread.is_alive():
            stats.error(f"table {index} still running after the window")
    return stats, results, winning


def spawn_followers(
    base: str, slug: str, args: argparse.Namespace, start_at: float, seconds: float, keep: bool
) -> list[tuple[subprocess.Popen, Path]]:
    processes = []
    count = max(1, min(args.follower_processes, args.followers))
    for index in range(count):
        share = args.followers // count + (1 if index < args.followers % count else 0)
        first = index * (args.followers // count) + min(index, args.followers % count)
        out = Path(args.scratch) / f"followers-{os.getpid()}-{index}.json"
        argv = [sys.executable, "-m", "tools.load.followers", "--base", base, "--slug", slug]
        argv += ["--followers", str(share), "--first", str(first), "--seed", str(index)]
        argv += ["--start-at", repr(start_at), "--seconds", repr(seconds)]
        argv += ["--interval", repr(args.interval), "--timeout", str(args.poll_timeout)]
        argv += ["--out", str(out)] + ([] if keep else ["--no-keep-alive"])
        # a process group of its own, so that stop() can end it (and only it)
        processes.append((subprocess.Popen(argv, cwd=ROOT, start_new_session=True), out))
    return processes


def collect_followers(
    processes: list[tuple[subprocess.Popen, Path]], limit: float
) -> tuple[list[Poll], dict[str, Any]]:
    polls: list[Poll] = []
    client: dict[str, Any] = {
        "processes": len(processes), "cpu_seconds": 0.0, "wall_seconds": 0.0, "counters": {},
        "loop_lag_ms": [], "late_start_ms": 0.0, "error_samples": [], "failed": [],
    }  # fmt: skip
    for process, out in processes:
        try:
            process.wait(timeout=max(1.0, limit - time.monotonic()))
        except subprocess.TimeoutExpired:
            stop(process)
            client["failed"].append(f"follower process {process.pid} over its time")
            continue
        if process.returncode or not out.exists():
            client["failed"].append(f"follower process exited {process.returncode}")
            continue
        done = json.loads(out.read_text())
        out.unlink()
        polls += [Poll.of(row) for row in done["polls"]]
        client["cpu_seconds"] += done["cpu_seconds"]
        client["wall_seconds"] = max(client["wall_seconds"], done["wall_seconds"])
        for name, value in done["counters"].items():
            client["counters"][name] = client["counters"].get(name, 0) + value
        client["loop_lag_ms"].append(done["loop_lag_ms"])
        client["late_start_ms"] = max(client["late_start_ms"], done["late_start_ms"])
        client["error_samples"] += done["error_samples"]
    return polls, client


def phase(backend: str, server: str, args: argparse.Namespace) -> dict[str, Any]:
    """Set up, serve, follow, verify; Django is configured for one database here."""
    from django.db import connection

    from .run import SERVER_TROUBLE, latency, verify

    if args.poll_interval:
        args.interval, interval_source = args.poll_interval, "--poll-interval"
    else:
        args.interval, interval_source = poll_seconds()
    tournament, plans, wins = setup(args.players, args.tables, server)
    base_expected = stored_total(tournament)
    keep, keep_reason = keep_alive(args, server)
    process, base, log = start_server(server, backend, args)
    followers: list[tuple[subprocess.Popen, Path]] = []
    try:
        base_total = standings_total(base, tournament.slug, args.request_timeout)
        start_at = time.monotonic() + LEAD_SECONDS
        until = start_at + args.follow_seconds
        # Every hand gets polls after it: two intervals and a few seconds past the last hand,
        # so a poll answered from the render before it (Poll-Again-After) is followed by
        # one that shows it, even on a machine busy with other tests.
        seconds = args.follow_seconds + 2 * args.interval + 5
        followers = spawn_followers(base, tournament.slug, args, start_at, seconds, keep)
        cpu = CpuWatch(process.pid, start_at, until)
        stats, results, winning = run_tables(base, plans, wins, args, start_at, until)
        cpu.join()
        polls, client = collect_followers(followers, start_at + seconds + args.poll_timeout + 120)
        died = process.poll()
    finally:
        for follower, _out in followers:  # still running only if something broke
            stop(follower)
        stop(process)
    checked = verify(plans, results)
    won_stored = winning_stored(wins)
    final_total = stored_total(tournament)
    figures = summarize(
        polls,
        followers=args.followers,
        interval=args.interval,
        start_at=start_at,
        busy_until=until,
        acknowledged=winning,
        base_total=base_total,
    )
    server_log = log.read_text(errors="replace") if log.exists() else ""
    lines = server_log.splitlines()
    server_errors = [line for line in lines if any(mark in line for mark in SERVER_TROUBLE)]
    if died is not None:
        server_errors.insert(0, f"the server exited with {died} during the phase")
    warnings = {mark: sum(1 for line in lines if mark in line) for mark in SERVER_WARNINGS}
    window = until - start_at
    self_check = []
    if base_total != base_expected:
        self_check.append(f"standings showed {base_total} hands won, the database {base_expected}")
    if final_total != base_total + won_stored:
        self_check.append(
            f"the standings end at {final_total} hands won, not {base_total} + the "
            f"{won_stored} winning hands the tables stored"
        )
    hand = latency(stats.latencies.get("hand", []))
    delay_limit_ms = (args.interval + args.delay_margin) * 1000
    result: dict[str, Any] = {
        "kind": "followers",
        "backend": backend,
        "server": server,
        "database": connection.vendor
        + (f" {connection.Database.sqlite_version}" if connection.vendor == "sqlite" else ""),
        "served by": (
            f"gunicorn {args.workers} workers × {args.threads} threads"
            if server == "gunicorn"
            else "venue server (waitress)"
        ),
        "players": args.players,
        "tables": len(plans),
        "poll_interval_source": interval_source,
        "keep_alive": keep,
        "keep_alive_reason": keep_reason,
        "hand_interval_s": [
            round(args.hand_interval * (1 - args.hand_jitter), 2),
            round(args.hand_interval * (1 + args.hand_jitter), 2),
        ],
        "window_seconds": round(window, 1),
        **figures,
        "followers_carried": carried(polls, args.followers),
        "hand_latency": hand,
        "hands_acknowledged": sum(len(r.recorded) for r in results if r is not None),
        "winning_hands_acknowledged": len(winning),
        "standings_hands_won": {"start": base_total, "end": final_total},
        "table_errors": len(stats.errors),
        "table_error_samples": stats.errors[:20],
        "follower_error_samples": client.pop("error_samples")[:20],
        "server_errors": server_errors[:20],
        "server_warnings": {k: v for k, v in warnings.items() if v},
        "server_log_tail": lines[-15:],
        "client": {
            **client,
            "cpu_percent_of_a_core": round(
                100 * client["cpu_seconds"] / max(1e-9, client["wall_seconds"]), 1
            ),
        },
        "server_cpu_percent": cpu.server_percent(),
        "machine_cpu_busy_percent": cpu.machine_percent(),
        "self_check": self_check,
        **{k: checked[k] for k in ("lost_hands", "duplicated_hands", "altered_hands")},
        "problems": checked["problems"],
    }
    result["budget"] = {
        "poll_p95_ms": args.max_poll_p95_ms,
        "hand_p95_ms": args.max_hand_p95_ms,
        "region_rps": args.min_region_rps,
        "delay_ms": delay_limit_ms,
    }
    result["failures"] = gate(result, args, delay_limit_ms)
    result["pass"] = not result["failures"]
    return result


def winning_stored(wins: dict[int, list[bool]]) -> int:
    """Winning hands stored at the tables (verify has checked they are the ones sent, in
    order, so the first n of a match's plan)."""
    from scoring.models import Hand

    return sum(sum(flags[: Hand.objects.filter(match_id=pk).count()]) for pk, flags in wins.items())


def child_arguments(args: argparse.Namespace) -> list[str]:
    """The followers phase's options, for the child process that runs it."""
    argv = []
    for name in (
        "followers", "players", "poll_interval", "follow_seconds", "hand_interval",
        "hand_jitter", "poll_timeout", "keep_alive", "follower_processes", "max_poll_p95_ms",
        "max_hand_p95_ms", "min_region_rps", "delay_margin",
    ):  # fmt: skip
        value = getattr(args, name)
        if value is not None:
            argv += ["--" + name.replace("_", "-"), str(value)]
    return argv if args.time_bars else [*argv, "--no-time-bars"]


def carried(polls: list[Poll], followers: int) -> int:
    """Followers every one of whose polls was answered (200 or 304)."""
    failed = {p.follower for p in polls if p.error or p.status not in (200, 304)}
    answered = {p.follower for p in polls}
    return len(answered - failed) if answered else 0


def gate(result: dict[str, Any], args: argparse.Namespace, delay_limit_ms: float) -> list[str]:
    """The budget, as a list of what broke it (empty: met)."""
    failures = []
    errors = result["errors"] + result["table_errors"]
    if errors or result["server_errors"] or result["client"]["failed"]:
        failures.append(
            f"errors: {result['errors']} polls, {result['table_errors']} at the tables, "
            f"{len(result['server_errors'])} in the server's log"
            + (f", {'; '.join(result['client']['failed'])}" if result["client"]["failed"] else "")
        )
    if result["lost_hands"] or result["duplicated_hands"] or result["altered_hands"]:
        failures.append("hands lost, duplicated or altered")
    if result["problems"] or result["self_check"]:
        failures.append("the tournament does not check out")
    if result["followers_carried"] < result["followers"]:
        failures.append(f"followers carried {result['followers_carried']}/{result['followers']}")
    delay = result["delay"]
    if delay["missed"] or not delay["pairs"]:
        failures.append(f"hand to follower: {delay['missed']} of {delay['pairs']} never shown")
    if args.time_bars:
        failures += time_bars_broken(result, args, delay_limit_ms)
    return failures


def time_bars_broken(
    result: dict[str, Any], args: argparse.Namespace, delay_limit_ms: float
) -> list[str]:
    """The budget's times (``make loadtest``'s business, not the tests')."""
    failures = []
    if result["latency"]["p95_ms"] > args.max_poll_p95_ms:
        failures.append(f"poll p95 {result['latency']['p95_ms']} ms > {args.max_poll_p95_ms}")
    if result["hand_latency"]["p95_ms"] > args.max_hand_p95_ms:
        failures.append(
            f"hand entry p95 {result['hand_latency']['p95_ms']} ms > {args.max_hand_p95_ms}"
        )
    if result["region_rps"] < args.min_region_rps:
        failures.append(f"{result['region_rps']} region requests/s < {args.min_region_rps}")
    if result["delay"]["max_ms"] > delay_limit_ms:
        failures.append(
            f"hand to follower: max {result['delay']['max_ms']} ms (limit {delay_limit_ms:g})"
        )
    return failures


def print_followers(result: dict[str, Any]) -> None:
    name = f"{result.get('database', result['backend'])} · {result.get('server', '')}"
    if "failed" in result:
        print(f"\n{name} · followers: FAILED: {result['failed']}")
        if "traceback" in result:
            print(result["traceback"])
        return
    lat, l200, l304 = result["latency"], result["latency_200"], result["latency_304"]
    hand, delay, client = result["hand_latency"], result["delay"], result["client"]

    def ms(values: dict[str, Any]) -> str:
        return f"p50 {values['p50_ms']} · p95 {values['p95_ms']} · max {values['max_ms']} ms"

    print(
        f"\n{name} · followers of {result['players']} players, {result['tables']} tables · "
        f"{result['served by']} · {'pass' if result['pass'] else 'FAIL'}\n"
        f"  followers carried {result['followers_carried']}/{result['followers']} · poll every "
        f"{result['poll_interval_s']:g} s ({result['poll_interval_source']}) · "
        f"{result['keep_alive_reason']}\n"
        f"  region requests {result['region_rps']}/s sustained (offered "
        f"{result['offered_rps']}/s) · polls {result['polls_answered']}/{result['polls']} "
        f"answered · 304s {100 * result['share_304']:.1f}% · errors {result['errors']} "
        f"{result['errors_by_kind'] or ''}\n"
        f"  polls {ms(lat)} (200: {l200['count']}, {ms(l200)}; 304: {l304['count']}, "
        f"{ms(l304)})\n"
        f"  hand entry {hand['count']} hands, {ms(hand)} · hands a table every "
        f"{result['hand_interval_s'][0]:g}–{result['hand_interval_s'][1]:g} s · lost "
        f"{result['lost_hands']} · duplicated {result['duplicated_hands']} · altered "
        f"{result['altered_hands']}\n"
        f"  hand → follower's standings: {delay['hands']} winning hands × followers, "
        f"{delay['seen']} shown, {delay['missed']} never · p50 {delay['p50_ms']} · p95 "
        f"{delay['p95_ms']} · max {delay['max_ms']} ms ({delay['worst'] or '—'})\n"
        f"  CPU while the tables enter: server {result['server_cpu_percent']}% of a core, "
        f"machine {result['machine_cpu_busy_percent']}% busy · followers' client "
        f"{client['cpu_percent_of_a_core']}% of a core (loop lag p95 "
        f"{max((x['p95'] for x in client['loop_lag_ms']), default=0)} ms) · connections "
        f"opened {client['counters'].get('connects', 0)}, peak open "
        f"{client['counters'].get('peak_connections', 0)}"
    )
    if result["server_warnings"]:
        print(
            "  server log: " + " · ".join(f"{k} ×{v}" for k, v in result["server_warnings"].items())
        )
    for line in result["failures"]:
        print(f"  ✗ {line}")
    samples = result["follower_error_samples"][:5] + result["table_error_samples"][:5]
    for line in (
        samples + result["server_errors"][:5] + result["self_check"] + result["problems"][:5]
    ):
        print(f"  ! {line}")
    if result["server_errors"]:
        print("  the server's log ends:")
        for line in result["server_log_tail"]:
            print(f"    {line}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("followers phase")
    group.add_argument("--followers", type=int, default=2000, help="phones polling the page")
    group.add_argument("--players", type=int, default=PLAYERS)
    group.add_argument(
        "--poll-interval", type=float, help="seconds (default: public.live.POLL_SECONDS, else 10)"
    )
    group.add_argument("--follow-seconds", type=float, default=75, help="tables enter hands")
    group.add_argument("--hand-interval", type=float, default=9, help="seconds between hands")
    group.add_argument("--hand-jitter", type=float, default=1 / 3, help="± share of it")
    group.add_argument("--poll-timeout", type=float, default=10)
    group.add_argument("--keep-alive", choices=("auto", "on", "off"), default="auto")
    group.add_argument("--follower-processes", type=int, default=1)
    group.add_argument(
        "--no-time-bars",
        dest="time_bars",
        action="store_false",
        help="judge outcomes only (every hand stored once and shown): the tests' mode",
    )
    group.add_argument("--max-poll-p95-ms", type=float, default=100)
    group.add_argument("--max-hand-p95-ms", type=float, default=250)
    group.add_argument("--min-region-rps", type=float, default=270)
    group.add_argument(
        "--delay-margin",
        type=float,
        default=1.0,
        help="seconds beyond one poll interval a hand may take to reach a follower",
    )
