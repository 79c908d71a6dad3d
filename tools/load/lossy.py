"""``make loadtest``'s lossy phase (issue 32): 64 tables enter their matches through a
loopback proxy that loses and delays connections, as venue Wi-Fi does, and every hand
still ends stored exactly once with the values sent.

Run ``python -m tools.load.lossy`` (``--help`` for the knobs). For each run asked, SQLite
through the venue server by default (``--server both``: through gunicorn too;
``--backend both``: also PostgreSQL 15 through gunicorn, a throwaway cluster started here
and stopped afterwards), in a child process of its own:

1. migrate a scratch database and set up ``--tables`` ready first-round matches
   (:func:`tools.load.run.setup_tournament`);
2. start the server on 127.0.0.1 and, in front of it, :class:`tools.load.proxy.LossyProxy`
   on a port of its own: of the connections, ``--drop-before`` (5 %) are dropped before the
   request reaches the server, ``--drop-after`` (5 %) after the server answered (it stored
   the hand; the phone gets a reset), every other one is delayed 0 to ``--max-delay``
   (5 s);
3. every table (:class:`tools.load.outbox.LossyTable`) enters its match through the
   proxy as the outbox script does: a submission id per hand made by the phone, the same
   id resent with backoff after a network error or a ``--request-timeout`` (4 s: a request
   held longer is resent while the first is still on its way), "taken"/"stale" answered by
   reading the page; now and then (``--second-phone``) another phone at the table sends
   the same hand at once. Each phone then reads the score its sheet shows, and the losing
   side confirms;
4. with the server stopped, check: every hand the phones meant is stored exactly once,
   with the values sent, under the id of the one phone told "saved" for it; no extra
   hands; every phone's final score is the engine's over the stored hands; every match
   agrees with the engine and is complete; ``manage.py verify_tournament`` is clean.

Hands, resends, drops before/after, delays, and p50/p95 of a hand's time from the first
tap until the phone could go on ("saved", or stored by the other phone) are printed and
written to ``.bench/lossy.json``. The exit status is 1 if any invariant breaks. Only
loopback is used; every request has a timeout and every run a deadline.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from .client import Plan, Stats
from .outbox import LossyTable
from .proxy import AFTER, BEFORE, DELAYED, LossyProxy
from .servers import (
    ROOT,
    add_run_choices,
    child_options,
    child_run,
    report_runs,
    start_gunicorn,
    start_venue,
    stop,
)
from .servers import run_all as run_runs

REPORT = ROOT / ".bench" / "lossy.json"
SERVER_TROUBLE = ("Traceback", "Internal Server Error", "[CRITICAL]", "database is locked")


# -- one run (child process: Django set up for its scratch database) --------------------------


def drive(base: str, plans: list[Plan], args: argparse.Namespace) -> tuple[Stats, list, float]:
    stats = Stats()
    began = time.monotonic()
    deadline = began + args.deadline
    tables = [
        LossyTable(
            base,
            plan,
            stats,
            timeout=args.request_timeout,
            deadline=deadline,
            twin_rate=args.second_phone,
            seed=args.seed * 1000 + index,
        )
        for index, plan in enumerate(plans)
    ]
    threads = [threading.Thread(target=t.run, daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic() + 2 * args.request_timeout))
    for index, thread in enumerate(threads):
        if thread.is_alive():
            stats.error(f"table {index} still running at the deadline")
    return stats, tables, time.monotonic() - began


def check(plans: list[Plan], tables: list[LossyTable]) -> dict[str, Any]:
    """What the phones meant and were told against what is stored, and each phone's final
    score against the engine's."""
    from scoring.loading import HandData, load_hands, sheet_for
    from tournaments.models import Match

    problems: list[str] = []
    scores_checked = scores_wrong = 0
    for plan, table in zip(plans, tables, strict=True):
        match = Match.objects.select_related("tournament").get(pk=plan.match_id)
        stored = load_hands(match)
        by_number = {hand.number: hand for hand in stored}
        if len(by_number) != len(stored):
            problems.append(f"{match.key}: a hand number stored twice")
        if len(stored) != len(plan.hands):
            problems.append(f"{match.key}: {len(stored)} hands stored, {len(plan.hands)} meant")
        saved: dict[int, list[str]] = {}
        for phone in table.phones:
            for sent in phone.log.hands:
                hand = by_number.get(sent.number)
                if hand is None:
                    problems.append(f"{match.key}: hand {sent.number} never stored")
                    continue
                if HandData.of(hand) != _data(sent.values):
                    problems.append(f"{match.key}: hand {sent.number} stored with other values")
                if "saved" in sent.outcomes:
                    saved.setdefault(sent.number, []).append(sent.ids[-1])
        for number, hand in by_number.items():
            told = saved.get(number, [])
            if told != [hand.submission]:
                problems.append(
                    f"{match.key}: hand {number} stored under {hand.submission or 'no id'}, "
                    f"phones told saved under {told}"
                )
        sheet = sheet_for(match, stored)
        engine = (
            sheet.match.won.a,
            sheet.match.won.b,
            sheet.match.total.a,
            sheet.match.total.b,
        )
        for phone in table.phones:
            scores_checked += 1
            if phone.log.shown_score != engine:
                scores_wrong += 1
                problems.append(
                    f"{match.key}: {phone.log.name} shows {phone.log.shown_score}, "
                    f"the engine says {engine}"
                )
    return {"scores_checked": scores_checked, "scores_wrong": scores_wrong, "problems": problems}


def _data(values: dict[str, Any]) -> Any:
    from scoring.loading import HandData

    return HandData(
        values["kind"],
        values.get("by", ""),
        values.get("deadwood"),
        values.get("defender_deadwood"),
        values.get("knock_card", ""),
    ).cleaned()


def start_server(server: str, args: argparse.Namespace) -> tuple[Any, str, Path]:
    scratch = Path(args.scratch)
    log = scratch / f"lossy-{args.phase}-{server}.log"
    if server == "venue":
        data = scratch / f"lossy-venue-data-{args.phase}"
        process, base = start_venue({**os.environ}, data=data, log=log)
    else:
        process, base = start_gunicorn(
            {**os.environ}, workers=args.workers, threads=args.threads, log=log
        )
    return process, base, log


def phase(args: argparse.Namespace) -> dict[str, Any]:
    from django.db import connection

    from .faults import verify_tournament
    from .run import latency, percentile, setup_tournament, verify

    rules = {"game_target": args.game_target} if args.game_target else None
    tournament, plans = setup_tournament(args.tables, rules, f"lossy {args.server}")
    process, base, log = start_server(args.server, args)
    upstream = urllib.parse.urlsplit(base)
    proxy = LossyProxy(
        (upstream.hostname or "127.0.0.1", upstream.port or 80),
        drop_before=args.drop_before,
        drop_after=args.drop_after,
        max_delay=args.max_delay,
        seed=args.seed,
        cycle=args.cycle,
    )
    try:
        with proxy:
            stats, tables, seconds = drive(proxy.base, plans, args)
            # Late requests (held past their phone's patience) reach the server before the
            # check, as they would on the venue's Wi-Fi.
            still_open = proxy.drain(args.max_delay + 10)
    finally:
        stop(process)
    results = [table.result for table in tables]
    stored = verify(plans, results)
    checked = check(plans, tables)
    verdict = verify_tournament(tournament.slug)
    server_log = log.read_text(errors="replace") if log.exists() else ""
    server_errors = [
        line for line in server_log.splitlines() if any(mark in line for mark in SERVER_TROUBLE)
    ]
    fates = proxy.counts()
    delays = proxy.delays()
    taps = [s for table in tables for s in table.tap_to_saved]
    counters = dict(sorted(stats.counters.items()))
    result: dict[str, Any] = {
        "backend": args.phase,
        "database": connection.vendor,
        "server": args.server,
        "tables": len(plans),
        "seed": args.seed,
        "seconds": round(seconds, 1),
        "requests": stats.requests,
        "connections": sum(fates.values()) - fates["server unreachable"],
        "connections_open_at_end": still_open,
        "dropped_before": fates[BEFORE],
        "dropped_after": fates[AFTER],
        "delayed": fates[DELAYED],
        "delay_p50_s": round(percentile(delays, 0.5), 2),
        "delay_max_s": round(max(delays, default=0.0), 2),
        "hands_planned": stored["hands_planned"],
        "hands_stored": stored["hands_stored"],
        "hand_posts": len(stats.latencies.get("hand", [])),
        "hand_resends": counters.get("hand resends", 0),
        "resends": sum(v for k, v in counters.items() if k.endswith(" resends")),
        "tap_to_saved": {
            "p50_s": round(percentile(taps, 0.5), 2),
            "p95_s": round(percentile(taps, 0.95), 2),
            "max_s": round(max(taps, default=0.0), 2),
        },
        "request_latency": latency([s for v in stats.latencies.values() for s in v]),
        "lost_hands": stored["lost_hands"],
        "duplicated_hands": stored["duplicated_hands"],
        "altered_hands": stored["altered_hands"],
        "unsent_hands": stored["unsent_hands"],
        "scores_checked": checked["scores_checked"],
        "scores_wrong": checked["scores_wrong"],
        "tables_confirmed": sum(1 for r in results if r.confirmed),
        "verify_tournament": verdict,
        "counters": counters,
        "errors": stats.errors[:20],
        "server_errors": server_errors[:20],
        "problems": (stored["problems"] + checked["problems"])[:20],
    }
    result["pass"] = (
        not stats.errors
        and not server_errors
        and not stored["problems"]
        and not checked["problems"]
        and stored["lost_hands"] == stored["duplicated_hands"] == stored["altered_hands"] == 0
        and stored["unsent_hands"] == 0
        and stored["hands_stored"] == stored["hands_planned"]
        and checked["scores_wrong"] == 0
        and verdict["exit"] == 0
        and result["tables_confirmed"] == len(plans)
        and still_open == 0
        and fates["server unreachable"] == 0
        and fates[BEFORE] > 0
        and fates[AFTER] > 0
        and result["hand_resends"] > 0
    )
    return result


def run_phase(args: argparse.Namespace) -> int:
    from .run import run_child

    return run_child(args, lambda: phase(args))


# -- the whole run (parent: a child per server) -----------------------------------------------


def run_all(runs: list[tuple[str, str]], args: argparse.Namespace, scratch: str) -> list[dict]:
    """Each run in a child process of its own; PostgreSQL in a throwaway cluster."""
    names = (
        "tables",
        "workers",
        "threads",
        "deadline",
        "request_timeout",
        "drop_before",
        "drop_after",
        "max_delay",
        "second_phone",
    )
    options = child_options(args, names)
    if args.cycle:
        options += ["--cycle", args.cycle]

    def child(backend: str, server: str, env: dict[str, str]) -> dict[str, Any]:
        return child_run("tools.load.lossy", backend, server, env, options, scratch, args.deadline)

    return run_runs(runs, scratch, "lossy", child)


def print_result(result: dict[str, Any]) -> None:
    name = f"{result['backend']} · {result['server']}"
    if "failed" in result:
        print(f"\n{name}: FAILED: {result['failed']}\n{result.get('traceback', '')}")
        return
    taps, verdict = result["tap_to_saved"], result["verify_tournament"]
    print(
        f"\n{name} · {result['tables']} tables · {'pass' if result['pass'] else 'FAIL'}\n"
        f"  hands stored {result['hands_stored']}/{result['hands_planned']} · lost "
        f"{result['lost_hands']} · duplicated {result['duplicated_hands']} · altered "
        f"{result['altered_hands']} · phones' scores wrong {result['scores_wrong']}/"
        f"{result['scores_checked']} · confirmed {result['tables_confirmed']}/{result['tables']}\n"
        f"  connections {result['connections']}: dropped before {result['dropped_before']} · "
        f"dropped after {result['dropped_after']} · delayed {result['delayed']} "
        f"(p50 {result['delay_p50_s']} s, max {result['delay_max_s']} s) · still open at "
        f"the end {result['connections_open_at_end']}\n"
        f"  hand posts {result['hand_posts']} · hand resends {result['hand_resends']} · all "
        f"resends {result['resends']} · first tap to saved p50 {taps['p50_s']} s, p95 "
        f"{taps['p95_s']} s, max {taps['max_s']} s · {result['seconds']} s\n"
        f"  verify_tournament: exit {verdict['exit']}: {verdict['says']}\n  "
        + " · ".join(f"{k} {v}" for k, v in result["counters"].items())
    )
    for line in result["errors"][:10] + result["server_errors"][:10] + result["problems"][:10]:
        print(f"  ! {line}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_choices(parser, backend="sqlite", server="venue")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--game-target", type=int, default=100, help="shorter games")
    parser.add_argument("--drop-before", type=float, default=0.05)
    parser.add_argument("--drop-after", type=float, default=0.05)
    parser.add_argument("--max-delay", type=float, default=5.0, help="seconds")
    parser.add_argument(
        "--cycle", default="", help="fixed fates instead: b (before), a (after), . (delayed)"
    )
    parser.add_argument("--second-phone", type=float, default=0.1, help="share of hands")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=900, help="seconds per run")
    parser.add_argument("--request-timeout", type=float, default=4.0)
    parser.add_argument("--report", type=Path, default=REPORT)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return report_runs(
        parse(argv),
        name="lossy",
        bar="every hand stored exactly once with the values sent, no extra hand, every "
        "phone showing the engine's score, verify_tournament clean",
        run_phase=run_phase,
        run_all=run_all,
        print_result=print_result,
    )


if __name__ == "__main__":
    sys.exit(main())
