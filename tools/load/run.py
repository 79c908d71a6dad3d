"""``make loadtest``: 64 tables enter whole matches at once through the venue server and
through gunicorn (SPEC 10).

Run ``python -m tools.load.run`` (``--help`` for the knobs). For each database, SQLite
(a scratch file, WAL) and then PostgreSQL 15 (a throwaway cluster started here and
stopped afterwards), in a child process of its own:

1. migrate a scratch database and set up a tournament of 128 players: 64 first-round
   matches ready at 64 tables (best of five, the ``tournament`` preset);
2. start the server on 127.0.0.1 at a free port: the venue server (``ginclub venue``,
   waitress) or gunicorn (``--workers``, ``--threads``), each on a tournament of its own
   (``--server``, both by default);
3. run the 64 tables at once (:class:`tools.load.client.Table`, one thread each, plain
   ``urllib`` with a cookie jar): each opens its table link, POSTs every hand of a
   realistic match with its hand number the way htmx does (with ``--refresh`` it also
   reloads the two live regions after each hand, as the page does), sometimes sends a
   hand from a second device at the same moment, and confirms the result;
4. stop the server and check every match against the engine: the stored hands are exactly
   the hands the table sent (none lost, none duplicated, none altered), one "hand entered"
   audit row per hand, ``verify_tournament`` finds nothing to report, the match is
   complete and its winner has moved on to the next round.

Requests, errors, lost or duplicated hands, p50/p95 latency and throughput are printed
and written to ``.bench/load.json``. Budget: zero errors, zero lost or duplicated hands;
the exit status is 1 otherwise. Every request has a timeout, every phase a deadline,
and only loopback is used.

Then, on each database and through each server, the followers phase
(:mod:`tools.load.followers_phase`): 2,000 phones poll a 256-player tournament's public
page while its 64 tables enter hands at a player's pace; its figures go into the same
report as runs of kind ``followers``, with its own budget (poll p95, hand-entry p95,
region requests a second, how soon a hand reaches every follower).
``--followers-only`` runs just that phase, ``--no-followers`` just the tables'.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .client import Plan, Stats, Table, TableResult
from .followers_phase import add_arguments as add_follower_arguments
from .servers import ROOT, another_database, gunicorn, postgres, postgres_available, venue

REPORT = ROOT / ".bench" / "load.json"
BACKENDS = ("sqlite", "postgresql")
SERVERS = ("venue", "gunicorn")
KINDS = ("tables", "followers")
# Lines in the server's log (Django logs to stderr) that mean a request went wrong.
SERVER_TROUBLE = (
    "Traceback",
    "Internal Server Error",
    "[ERROR]",
    "[CRITICAL]",
    "WORKER TIMEOUT",
    "database is locked",
    "Forbidden",
    "Bad Request",
)


# -- one phase (child process: Django is set up for one database) ----------------------------


def configure(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def setup_tournament(
    tables: int, rules: dict[str, Any] | None, server: str
) -> tuple[Any, list[Plan]]:
    """A running tournament with ``tables`` ready first-round matches, and each one's plan."""
    from django.db import connections

    from demo.hands import match_hands
    from tests.factories import make_director
    from tools.bench.data import hand_seed, new_tournament, ready_matches

    director = make_director(username="load-director")
    tournament = new_tournament(
        2 * tables, owner=director, name=f"Load test ({server})", rules=rules, tables=tables
    )
    matches = ready_matches(tournament)
    if len(matches) != tables or any(m.table is None for m in matches):
        raise RuntimeError(f"expected {tables} ready matches at tables, got {len(matches)}")
    plans = []
    for match in matches:
        hands = match_hands(tournament.ruleset, seed=hand_seed("load", match.key))
        plans.append(Plan(match.pk, match.token, [post_fields(hand) for hand in hands]))
    connections.close_all()
    return tournament, plans


def post_fields(hand: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {"kind": hand.kind}
    for name in ("by", "deadwood", "defender_deadwood", "knock_card"):
        value = getattr(hand, name)
        if value not in (None, ""):
            fields[name] = value
    return fields


def drive(base: str, plans: list[Plan], args: argparse.Namespace) -> tuple[Stats, list, float]:
    """All tables at once; returns what they saw and the wall time of the run."""
    stats = Stats()
    deadline = time.monotonic() + args.deadline
    tables = [
        Table(
            base,
            plan,
            stats,
            timeout=args.request_timeout,
            deadline=deadline,
            refresh=args.refresh,
            twin_rate=args.second_device,
            twin_last=not args.spare_deciding_hand,
            seed=index,
        )
        for index, plan in enumerate(plans)
    ]
    results: list[TableResult | None] = [None] * len(tables)
    start_line = threading.Barrier(len(tables) + 1)

    def play(index: int) -> None:
        start_line.wait(timeout=60)
        results[index] = tables[index].run()

    threads = [
        threading.Thread(target=play, args=(i,), daemon=True, name=f"table-{i}")
        for i in range(len(tables))
    ]
    for thread in threads:
        thread.start()
    start_line.wait(timeout=60)
    start = time.perf_counter()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic() + 2 * args.request_timeout))
    seconds = time.perf_counter() - start
    for index, thread in enumerate(threads):
        if thread.is_alive():
            stats.error(f"table {index} still running at the deadline")
    return stats, results, seconds


def verify(plans: list[Plan], results: list[TableResult | None]) -> dict[str, Any]:
    """Every match against what its table sent and was told, and against the engine.

    *Lost*: a hand the server acknowledged (recorded, or "already entered" to a retry)
    that is not stored as sent. *Duplicated*: a stored hand beyond those sent, or twice.
    *Altered*: a stored hand that differs from the one sent under its number. *Unsent*:
    hands a table never got to send (it stopped on an error or at the deadline).
    """
    from archive.verify import check_match
    from scoring.loading import HandData, hand_inputs, load_hands, sheet_for
    from scoring.models import Hand
    from tournaments.models import AuditEntry, Match

    totals = dict.fromkeys(("lost", "duplicated", "altered", "unsent", "unacknowledged"), 0)
    problems: list[str] = []
    for plan, result in zip(plans, results, strict=True):
        result = result or TableResult(plan.match_id)
        match = Match.objects.select_related("tournament").get(pk=plan.match_id)
        sent = [
            HandData(
                h["kind"],
                h.get("by", ""),
                h.get("deadwood"),
                h.get("defender_deadwood"),
                h.get("knock_card", ""),
            ).cleaned()
            for h in plan.hands[: result.attempted]
        ]
        stored = load_hands(match)
        numbers = [hand.number for hand in stored]
        by_number = {hand.number: HandData.of(hand) for hand in stored}
        lost = [n for n in result.recorded if n not in by_number]
        extra = len(numbers) - len(set(numbers)) + sum(1 for n in numbers if n > len(sent))
        altered = [n for n, hand in enumerate(sent, 1) if n in by_number and by_number[n] != hand]
        unacknowledged = [n for n in by_number if n not in result.recorded]
        counts = {
            "lost": len(lost),
            "duplicated": extra,
            "altered": len(altered),
            "unsent": len(plan.hands) - result.attempted,
            "unacknowledged": len(unacknowledged),
        }
        for name, count in counts.items():
            totals[name] += count
        if lost or extra or altered:
            problems.append(f"{match.key}: lost {lost[:5]}, {extra} extra, altered {altered[:5]}")
        audits = AuditEntry.objects.filter(
            tournament=match.tournament,
            action="hand entered",
            object_type="hand",
            object_id__in=[str(hand.pk) for hand in stored],
        ).count()
        if audits != len(stored):
            problems.append(f"{match.key}: {audits} 'hand entered' audit rows for {len(stored)}")
        problems += [
            str(d) for d in check_match(match, hand_inputs(stored), match.tournament.ruleset)
        ]
        sheet = sheet_for(match, stored)
        if not result.confirmed:
            continue  # the table stopped early: its errors say why
        if not sheet.complete:
            problems.append(f"{match.key}: confirmed, but the engine says it is not decided")
        if match.status != Match.Status.COMPLETE:
            problems.append(f"{match.key}: status {match.status} after confirmation")
        elif match.next_match_id:
            following = Match.objects.get(pk=match.next_match_id)
            winner = match.side_a_id if match.winner_side == "A" else match.side_b_id
            placed = following.side_a_id if match.next_slot == "A" else following.side_b_id
            if placed != winner:
                problems.append(
                    f"{match.key}: winner not in {following.key} slot {match.next_slot}"
                )
    return {
        "matches": len(plans),
        "hands_planned": sum(len(plan.hands) for plan in plans),
        "hands_stored": Hand.objects.filter(match_id__in=[p.match_id for p in plans]).count(),
        "lost_hands": totals["lost"],
        "duplicated_hands": totals["duplicated"],
        "altered_hands": totals["altered"],
        "unsent_hands": totals["unsent"],
        "stored_unacknowledged": totals["unacknowledged"],
        "problems": problems,
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency(values: list[float]) -> dict[str, Any]:
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 0.50) * 1000, 1),
        "p95_ms": round(percentile(values, 0.95) * 1000, 1),
        "max_ms": round(max(values, default=0.0) * 1000, 1),
        "mean_ms": round(statistics.fmean(values) * 1000, 1) if values else 0.0,
    }


def server_times(access: Path) -> dict[str, Any]:
    """gunicorn's own time per request (from its access log), by the same kinds as the
    client's: what the request cost once a worker thread had it, without the queue."""
    kinds: dict[str, list[float]] = {}
    try:
        lines = access.read_text(errors="replace").splitlines()
    except OSError:
        return {}
    for line in lines:
        parts = line.split()
        if len(parts) < 4 or not parts[0].isdigit():
            continue
        method, path = parts[2], parts[3]
        if path.endswith("/hands/"):
            kind = "hand"
        elif path.endswith("/confirm/"):
            kind = "confirm"
        elif method == "GET" and path.startswith("/table/"):
            kind = "page"
        else:
            continue
        kinds.setdefault(kind, []).append(int(parts[0]) / 1e6)
    return {kind: latency(values) for kind, values in sorted(kinds.items())}


def serving(server: str, backend: str, args: argparse.Namespace) -> Any:
    """The server to drive: the venue server (waitress), or gunicorn as on a club server."""
    scratch = Path(args.scratch)
    log = scratch / f"{server}-{backend}.log"
    if server == "venue":
        return venue({**os.environ}, data=scratch / f"venue-data-{backend}", log=log), log
    access = scratch / f"access-{backend}.log"
    return gunicorn(
        {**os.environ}, workers=args.workers, threads=args.threads, log=log, access_log=access
    ), log


def phase(backend: str, server: str, args: argparse.Namespace) -> dict[str, Any]:
    """Set up, serve, drive and verify one database; Django is configured here."""
    from django.db import connection

    rules = {"game_target": args.game_target} if args.game_target else None
    tournament, plans = setup_tournament(args.tables, rules, server)
    running, log = serving(server, backend, args)
    with running as base:
        stats, results, seconds = drive(base, plans, args)
    checked = verify(plans, results)
    all_latencies = [s for values in stats.latencies.values() for s in values]
    errors = stats.errors
    server_log = log.read_text(errors="replace") if log.exists() else ""
    server_errors = [
        line for line in server_log.splitlines() if any(mark in line for mark in SERVER_TROUBLE)
    ]
    result: dict[str, Any] = {
        "backend": backend,
        "server": server,
        "database": connection.vendor
        + (f" {connection.Database.sqlite_version}" if connection.vendor == "sqlite" else ""),
        "tables": len(plans),
        "rules": tournament.rules.get("preset", "") + (f" {rules}" if rules else ""),
        "served by": (
            f"gunicorn {args.workers} workers × {args.threads} threads"
            if server == "gunicorn"
            else "venue server (waitress)"
        ),
        "seconds": round(seconds, 2),
        "requests": stats.requests,
        "errors": len(errors),
        "error_samples": errors[:20],
        "server_errors": server_errors[:20],
        "throughput_rps": round(stats.requests / seconds, 1) if seconds else 0.0,
        "hands_per_second": round(checked["hands_stored"] / seconds, 1) if seconds else 0.0,
        "latency": latency(all_latencies),
        "latency_by_kind": {kind: latency(v) for kind, v in sorted(stats.latencies.items())},
        "server_time_by_kind": (
            server_times(Path(args.scratch) / f"access-{backend}.log")
            if server == "gunicorn"
            else {}
        ),
        "counters": dict(sorted(stats.counters.items())),
        "tables_finished": sum(1 for r in results if r is not None and r.finished),
        "tables_confirmed": sum(1 for r in results if r is not None and r.confirmed),
        **checked,
    }
    result["pass"] = (
        result["errors"] == 0
        and not server_errors
        and checked["lost_hands"] == 0
        and checked["duplicated_hands"] == 0
        and checked["altered_hands"] == 0
        and checked["unsent_hands"] == 0
        and not checked["problems"]
        and result["tables_confirmed"] == len(plans)
    )
    return result


def run_phase(args: argparse.Namespace) -> int:
    """Entry point of the child process (``--phase``)."""
    if args.kind == "followers":
        from .followers_phase import phase as followers_phase

        return run_child(args, lambda: followers_phase(args.phase, args.server, args))
    return run_child(args, lambda: {"kind": "tables", **phase(args.phase, args.server, args)})


def run_child(args: argparse.Namespace, run: Callable[[], dict[str, Any]]) -> int:
    """A child process's phase (this one's, or the fault test's): Django set up for its
    database, ``run`` called, its result (or what broke it) written to ``--out``."""
    configure({"DJANGO_SETTINGS_MODULE": "tools.load.settings"})
    try:
        result = run()
    except Exception as error:
        import traceback

        result = {
            "kind": getattr(args, "kind", "tables"),
            "backend": args.phase,
            "server": args.server,
            "pass": False,
            "failed": f"{error!r}",
            "traceback": traceback.format_exc()[-4000:],
        }
    Path(args.out).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0 if result["pass"] else 1


# -- the whole run (parent: starts a child per database) -------------------------------------


def child_args(
    args: argparse.Namespace, backend: str, server: str, out: Path, scratch: str, kind: str
) -> list[str]:
    argv = [
        sys.executable,
        "-m",
        "tools.load.run",
        "--kind",
        kind,
        "--phase",
        backend,
        "--server",
        server,
        "--out",
        str(out),
        "--scratch",
        scratch,
        "--tables",
        str(args.tables),
        "--workers",
        str(args.workers),
        "--threads",
        str(args.threads),
        "--deadline",
        str(args.deadline),
        "--request-timeout",
        str(args.request_timeout),
        "--second-device",
        str(args.second_device),
    ]
    if args.game_target:
        argv += ["--game-target", str(args.game_target)]
    if args.refresh:
        argv.append("--refresh")
    if args.spare_deciding_hand:
        argv.append("--spare-deciding-hand")
    if kind == "followers":
        from .followers_phase import child_arguments

        argv += child_arguments(args)
    return argv


def run_backend(
    backend: str,
    servers: tuple[str, ...],
    args: argparse.Namespace,
    scratch: str,
    kinds: tuple[str, ...] = ("tables",),
) -> list[dict[str, Any]]:
    """Each kind of phase (the tables', the followers') through each server on this
    database, each on a database of its own, in a child process of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env["DJANGO_DEBUG"] = "1"  # base settings as in development; tools.load.settings: DEBUG off
    env["PYTHONPATH"] = str(ROOT)
    env["GINCLUB_DATA_DIR"] = str(Path(scratch) / f"data-{backend}")  # the servers' cache

    def child(server: str, kind: str) -> dict[str, Any]:
        out = Path(scratch) / f"{backend}-{server}-{kind}.json"
        failed = {"kind": kind, "backend": backend, "server": server, "pass": False}
        limit = args.deadline + 300  # setup, migrations, verification
        if kind == "followers":
            limit = 2 * args.follow_seconds + 3 * (args.poll_interval or 15) + 600
        try:
            done = subprocess.run(
                child_args(args, backend, server, out, scratch, kind),
                cwd=ROOT,
                env=env,
                timeout=limit,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return {**failed, "failed": f"phase over {limit} s"}
        if not out.exists():
            return {**failed, "failed": f"exit {done.returncode}"}
        return json.loads(out.read_text())

    names = {"tables": "load", "followers": "followers"}
    results = []
    if backend == "sqlite":
        for kind in kinds:
            for server in servers:  # each server plays on a database of its own
                env["SQLITE_PATH"] = str(Path(scratch) / f"{names[kind]}-{server}.sqlite3")
                results.append(child(server, kind))
        return results
    problem = postgres_available()
    if problem:
        return [
            {
                "kind": kind,
                "backend": backend,
                "server": s,
                "pass": False,
                "failed": f"not run: {problem}",
            }
            for kind in kinds
            for s in servers
        ]
    with postgres(max_connections=200) as url:
        for kind in kinds:
            for server in servers:
                env["DATABASE_URL"] = another_database(url, f"ginclub_{names[kind]}_{server}")
                results.append(child(server, kind))
    return results


def print_result(result: dict[str, Any]) -> None:
    if result.get("kind") == "followers":
        from .followers_phase import print_followers

        print_followers(result)
        return
    name = f"{result.get('database', result['backend'])} · {result.get('server', '')}"
    if "failed" in result:
        print(f"\n{name}: FAILED: {result['failed']}")
        if "traceback" in result:
            print(result["traceback"])
        return
    verdict = "pass" if result["pass"] else "FAIL"
    lat = result["latency"]
    print(
        f"\n{name} · {result['tables']} tables · {result['rules']} · {result['served by']}"
        f" · {verdict}\n"
        f"  requests {result['requests']} in {result['seconds']} s · "
        f"{result['throughput_rps']} req/s · {result['hands_per_second']} hands/s\n"
        f"  errors {result['errors']} · lost hands {result['lost_hands']} · duplicated "
        f"{result['duplicated_hands']} · altered {result['altered_hands']} · unsent "
        f"{result['unsent_hands']} · hands stored {result['hands_stored']}/"
        f"{result['hands_planned']} · confirmed "
        f"{result['tables_confirmed']}/{result['tables']}\n"
        f"  latency p50 {lat['p50_ms']} ms · p95 {lat['p95_ms']} ms · max {lat['max_ms']} ms"
    )
    server = result.get("server_time_by_kind", {})
    for kind, values in result["latency_by_kind"].items():
        inside = server.get(kind)
        print(
            f"    {kind:8} {values['count']:6} requests · p50 {values['p50_ms']:7.1f} ms · "
            f"p95 {values['p95_ms']:7.1f} ms · max {values['max_ms']:7.1f} ms"
            + (
                f"  (in gunicorn: p50 {inside['p50_ms']:.1f} · p95 {inside['p95_ms']:.1f}"
                f" · max {inside['max_ms']:.1f})"
                if inside
                else ""
            )
        )
    if result["counters"]:
        print("  " + " · ".join(f"{k} {v}" for k, v in result["counters"].items()))
    for line in result["error_samples"][:10] + result["server_errors"][:10]:
        print(f"  ! {line}")
    for line in result["problems"][:10]:
        print(f"  ! {line}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--server", choices=(*SERVERS, "both"), default="both")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--game-target", type=int, help="shorter games (rules override)")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=600, help="seconds per database")
    parser.add_argument("--request-timeout", type=float, default=30)
    parser.add_argument(
        "--second-device", type=float, default=0.05, help="share of hands sent twice at once"
    )
    parser.add_argument(
        "--spare-deciding-hand",
        action="store_true",
        help="never send a match's deciding hand from a second device",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="after each hand also GET the two regions htmx reloads (triples the requests)",
    )
    parser.add_argument("--report", type=Path, default=REPORT)
    parser.add_argument(
        "--keep-scratch", type=Path, metavar="DIR", help="keep logs and databases in DIR"
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--followers-only", action="store_true", help="only the followers phase")
    which.add_argument("--no-followers", action="store_true", help="only the tables phase")
    add_follower_arguments(parser)
    parser.add_argument("--kind", choices=KINDS, default="tables", help=argparse.SUPPRESS)
    parser.add_argument("--phase", choices=BACKENDS, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.phase:
        return run_phase(args)
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    servers = SERVERS if args.server == "both" else (args.server,)
    kinds = ("followers",) if args.followers_only else ("tables",) if args.no_followers else KINDS
    report: dict[str, Any] = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "budget": "zero errors, zero lost or duplicated hands"
        + (
            f"; followers: poll p95 ≤ {args.max_poll_p95_ms:g} ms, hand entry p95 ≤ "
            f"{args.max_hand_p95_ms:g} ms, ≥ {args.min_region_rps:g} region requests/s, "
            f"a hand in every follower's standings within one poll interval + "
            f"{args.delay_margin:g} s"
            if "followers" in kinds
            else ""
        ),
        "runs": [],
    }
    with tempfile.TemporaryDirectory(prefix="ginclub-load-") as temporary:
        scratch = temporary
        if args.keep_scratch:  # the servers' logs and databases, kept for a post-mortem
            args.keep_scratch.mkdir(parents=True, exist_ok=True)
            scratch = str(args.keep_scratch.resolve())
        for backend in backends:
            for result in run_backend(backend, servers, args, scratch, kinds):
                report["runs"].append(result)
                print_result(result)
    report["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    report["pass"] = all(run["pass"] for run in report["runs"])
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{'budget met' if report['pass'] else 'BUDGET BROKEN'} · report: {args.report}")
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
