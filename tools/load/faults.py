"""``make faults``: the server is killed with SIGKILL several times while tables enter
hands, and not one acknowledged hand is lost or stored twice (SPEC 9).

Run ``python -m tools.load.faults`` (``--help`` for the knobs). Each run, SQLite through
the venue server, SQLite through gunicorn and PostgreSQL 15 (a throwaway cluster started
here and stopped afterwards) through gunicorn, happens in a child process of its own:

1. migrate a scratch database and set up ``--tables`` ready first-round matches, as
   ``make loadtest`` does (:func:`tools.load.run.setup_tournament`);
2. start the server on 127.0.0.1; every table (a thread) enters its match through its
   table link, one hand at a time with its number, and confirms the result. A request
   that gets no answer (the server is down, or died while answering) is sent again after
   a short pause, until the deadline;
3. at ``--kills`` random moments during the load (each once a random share of the hands
   has been acknowledged), SIGKILL the server's whole process group, as when the laptop's
   power goes or the OOM killer strikes, and start it again on the same port;
4. with the server stopped, check every match: each hand a table was told was recorded is
   stored exactly once with the values it sent ("already entered" in answer to a retry
   counts as recorded: the attempt the kill cut off had got through), nothing is stored
   twice or beyond what was sent, every stored hand has its audit row, and every match
   agrees with the engine; then run ``manage.py verify_tournament``.

Kills, acknowledged hands, lost, duplicated and altered hands, the verify verdict, the
requests the kills cut off and the restart times are printed and written to
``.bench/faults.json``. The exit status is 1 if anything is lost, duplicated, altered or
unverified, a table could not finish, or fewer kills happened than asked. Only loopback
is used; every request has a timeout and every run a deadline.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .client import VERSION_INPUT, Answer, Device, Plan, Stats, TableResult, TransportError
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

REPORT = ROOT / ".bench" / "faults.json"
SERVER_TROUBLE = ("Traceback", "Internal Server Error", "[CRITICAL]", "database is locked")


# -- a table that carries on through crashes ---------------------------------------------------


class FaultTable:
    """One table's match through its table link, like :class:`tools.load.client.Table`
    without a second device, but patient: a request with no answer is sent again after a
    pause until ``deadline``, since the server comes back."""

    def __init__(
        self, base: str, plan: Plan, stats: Stats, *, timeout: float, deadline: float, seed: int
    ) -> None:
        self.plan = plan
        self.stats = stats
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.device = Device(base, stats, timeout=timeout)
        self.result = TableResult(plan.match_id)
        self.path = f"/table/{plan.token}/"

    def fail(self, message: str) -> None:
        self.stats.error(f"match {self.plan.match_id}: {message}")

    def run(self) -> TableResult:
        try:
            self._run()
        except Exception as error:  # a bug in the simulation must show, not hang
            self.fail(f"table crashed: {error!r}")
        return self.result

    def _run(self) -> None:
        opened = self._answered(lambda: self.device.open_page(self.path))
        if opened is None or opened[0].status != 200:
            self.fail(f"opening the table link: {opened and opened[0].status}")
            return
        for number, hand in enumerate(self.plan.hands, start=1):
            if not self._enter(number, hand):
                return
        self.result.finished = True
        self._confirm()

    def _answered(self, send: Callable[[], Answer]) -> tuple[Answer, int] | None:
        """Send until the server answers (not with a 5xx); the answer and the attempts
        it took, or None at the deadline."""
        attempt = 0
        while time.monotonic() < self.deadline:
            attempt += 1
            try:
                answer = send()
            except TransportError as error:
                refused = "Connection refused" in str(error) or "Errno 111" in str(error)
                self.stats.count("refused while down" if refused else "cut off by a kill")
                time.sleep(self.rng.uniform(0.1, 0.3))
                continue
            if answer.status >= 500:
                self.fail(f"HTTP {answer.status} (retried)")
                time.sleep(self.rng.uniform(0.1, 0.3))
                continue
            return answer, attempt
        return None

    def _post(self, number: int, hand: dict[str, Any]) -> Answer:
        data = {"number": number, **hand, "csrfmiddlewaretoken": self.device.csrf}
        headers = {"HX-Request": "true", "HX-Target": "match-entry"}
        return self.device.request("hand", "POST", self.path + "hands/", data, headers)

    def _enter(self, number: int, hand: dict[str, Any]) -> bool:
        self.result.attempted = number
        got = self._answered(lambda: self._post(number, hand))
        if got is None:
            self.fail(f"hand {number}: the deadline came first")
            return False
        answer, attempts = got
        self.result.sent += attempts
        if answer.recorded:
            self.result.recorded.append(number)
        elif answer.already(number) and attempts > 1:
            self.stats.count("retry told already entered")
            self.result.recorded.append(number)
        else:
            self.fail(f"hand {number}: unexpected answer {answer.status}: {answer.form_error()}")
            return False
        return True

    def _confirm(self) -> None:
        """The losing side opens the confirmation box and confirms the version it shows."""
        headers = {"HX-Request": "true", "HX-Target": "match-entry"}
        shown = self._answered(
            lambda: self.device.request("region", "GET", self.path + "entry/", headers=headers)
        )
        version = VERSION_INPUT.search(shown[0].body) if shown is not None else None
        if version is None:
            self.fail("confirm: the confirmation box names no version of the sheet")
            return
        data = {"csrfmiddlewaretoken": self.device.csrf, "version": version.group(1)}
        got = self._answered(
            lambda: self.device.request("confirm", "POST", self.path + "confirm/", data)
        )
        if got is None:
            self.fail("confirm: the deadline came first")
            return
        answer, attempts = got
        location = answer.headers.get("location", "")
        if answer.status in (302, 303) and "/table/" not in location:
            self.result.confirmed = True
        elif answer.status == 410 and attempts > 1:
            self.result.confirmed = True  # the cut-off attempt got through: the link closed
        else:
            self.fail(f"confirm: unexpected answer {answer.status} {location}")


# -- one run (child process: Django is set up for one database) -------------------------------


def starter(server: str, args: argparse.Namespace) -> Callable[[int], tuple[Any, str]]:
    """Starts the server on a port (0: a free one); each start appends to one log."""
    scratch = Path(args.scratch)
    log = scratch / f"faults-{args.phase}-{server}.log"
    if server == "venue":
        data = scratch / f"faults-venue-data-{args.phase}"
        return lambda port: start_venue({**os.environ}, data=data, log=log, port=port)
    return lambda port: start_gunicorn(
        {**os.environ}, workers=args.workers, threads=args.threads, log=log, port=port
    )


def drive_with_kills(
    start: Callable[[int], tuple[Any, str]],
    plans: list[Plan],
    args: argparse.Namespace,
    rng: random.Random,
) -> dict[str, Any]:
    process, base = start(0)
    port = urllib.parse.urlsplit(base).port or 0
    began = time.monotonic()
    deadline = began + args.deadline
    stats = Stats()
    tables = [
        FaultTable(base, plan, stats, timeout=args.request_timeout, deadline=deadline, seed=i)
        for i, plan in enumerate(plans)
    ]
    threads = [threading.Thread(target=t.run, daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    total = sum(len(plan.hands) for plan in plans)
    kills: list[dict[str, Any]] = []
    try:
        for index in range(args.kills):
            # A random moment inside this kill's share of the match, never at its edges.
            share = rng.uniform(index + 0.2, index + 0.8) / (args.kills + 1)
            target = max(1, int(share * total))
            while (
                sum(len(t.result.recorded) for t in tables) < target
                and any(thread.is_alive() for thread in threads)
                and time.monotonic() < deadline
            ):
                time.sleep(0.005)
            if not any(thread.is_alive() for thread in threads) or time.monotonic() > deadline:
                break
            acknowledged = sum(len(t.result.recorded) for t in tables)
            killed_at = time.monotonic()
            os.killpg(process.pid, signal.SIGKILL)  # the whole group: master and workers
            process.wait(timeout=30)
            process, _ = start(port)
            kills.append(
                {
                    "at_seconds": round(killed_at - began, 2),
                    "hands_acknowledged_before": acknowledged,
                    "seconds_until_serving_again": round(time.monotonic() - killed_at, 2),
                }
            )
        for thread in threads:
            thread.join(timeout=max(1.0, deadline - time.monotonic() + 2 * args.request_timeout))
    finally:
        stop(process)
    for index, thread in enumerate(threads):
        if thread.is_alive():
            stats.error(f"table {index} still running at the deadline")
    return {
        "stats": stats,
        "results": [t.result for t in tables],
        "kills": kills,
        "seconds": round(time.monotonic() - began, 2),
    }


def verify_tournament(slug: str) -> dict[str, Any]:
    """``manage.py verify_tournament``'s exit status and last line, on this database."""
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_tournament", slug],
        cwd=ROOT,
        env={**os.environ},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    return {"exit": done.returncode, "says": lines[-1] if lines else ""}


def phase(args: argparse.Namespace) -> dict[str, Any]:
    from django.db import connection

    from .run import setup_tournament, verify

    rng = random.Random(args.seed)
    rules = {"game_target": args.game_target} if args.game_target else None
    tournament, plans = setup_tournament(args.tables, rules, f"faults {args.server}")
    driven = drive_with_kills(starter(args.server, args), plans, args, rng)
    stats, results = driven["stats"], driven["results"]
    checked = verify(plans, results)
    verdict = verify_tournament(tournament.slug)
    log = Path(args.scratch) / f"faults-{args.phase}-{args.server}.log"
    server_log = log.read_text(errors="replace") if log.exists() else ""
    server_errors = [
        line for line in server_log.splitlines() if any(mark in line for mark in SERVER_TROUBLE)
    ]
    result: dict[str, Any] = {
        "backend": args.phase,
        "server": args.server,
        "database": connection.vendor,
        "tables": len(plans),
        "seed": args.seed,
        "kills_asked": args.kills,
        "kills": len(driven["kills"]),
        "kill_log": driven["kills"],
        "seconds": driven["seconds"],
        "requests": stats.requests,
        "acknowledged_hands": sum(len(r.recorded) for r in results),
        "lost_hands": checked["lost_hands"],
        "duplicated_hands": checked["duplicated_hands"],
        "altered_hands": checked["altered_hands"],
        "unsent_hands": checked["unsent_hands"],
        "stored_unacknowledged": checked["stored_unacknowledged"],
        "hands_planned": checked["hands_planned"],
        "hands_stored": checked["hands_stored"],
        "tables_finished": sum(1 for r in results if r.finished),
        "tables_confirmed": sum(1 for r in results if r.confirmed),
        "verify_tournament": verdict,
        "counters": dict(sorted(stats.counters.items())),
        "errors": stats.errors[:20],
        "server_errors": server_errors[:20],
        "problems": checked["problems"][:20],
    }
    result["pass"] = (
        result["kills"] == args.kills
        and result["lost_hands"] == 0
        and result["duplicated_hands"] == 0
        and result["altered_hands"] == 0
        and verdict["exit"] == 0
        and not checked["problems"]
        and not stats.errors
        and not server_errors
        and result["tables_confirmed"] == len(plans)
    )
    return result


def run_phase(args: argparse.Namespace) -> int:
    """Entry point of the child process (``--phase``)."""
    from .run import run_child

    return run_child(args, lambda: phase(args))


# -- the whole run (parent: a child per database and server) ----------------------------------


def run_all(runs: list[tuple[str, str]], args: argparse.Namespace, scratch: str) -> list[dict]:
    """Each run in a child process of its own; PostgreSQL in a throwaway cluster."""
    names = ("tables", "kills", "workers", "threads", "deadline", "request_timeout")
    options = child_options(args, names)

    def child(backend: str, server: str, env: dict[str, str]) -> dict[str, Any]:
        return child_run("tools.load.faults", backend, server, env, options, scratch, args.deadline)

    return run_runs(runs, scratch, "faults", child)


def print_result(result: dict[str, Any]) -> None:
    name = f"{result['backend']} · {result['server']}"
    if "failed" in result:
        print(f"\n{name}: FAILED: {result['failed']}")
        print(result.get("traceback", ""))
        return
    verdict = result["verify_tournament"]
    print(
        f"\n{name} · {result['tables']} tables · {'pass' if result['pass'] else 'FAIL'}\n"
        f"  kills {result['kills']}/{result['kills_asked']} · acknowledged hands "
        f"{result['acknowledged_hands']} · lost {result['lost_hands']} · duplicated "
        f"{result['duplicated_hands']} · altered {result['altered_hands']} · stored "
        f"{result['hands_stored']}/{result['hands_planned']} · confirmed "
        f"{result['tables_confirmed']}/{result['tables']}\n"
        f"  verify_tournament: exit {verdict['exit']}: {verdict['says']}\n"
        f"  {result['requests']} requests in {result['seconds']} s · "
        + " · ".join(f"{k} {v}" for k, v in result["counters"].items())
    )
    for kill in result["kill_log"]:
        print(
            f"    SIGKILL at {kill['at_seconds']} s after {kill['hands_acknowledged_before']}"
            f" hands; serving again {kill['seconds_until_serving_again']} s later"
        )
    for line in result["errors"][:10] + result["server_errors"][:10] + result["problems"][:10]:
        print(f"  ! {line}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_choices(parser, backend="both", server="both")
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--game-target", type=int, default=100, help="shorter games")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=300, help="seconds per run")
    parser.add_argument("--request-timeout", type=float, default=20)
    parser.add_argument("--report", type=Path, default=REPORT)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return report_runs(
        parse(argv),
        name="faults",
        bar="0 acknowledged hands lost, 0 duplicated, verify_tournament agrees",
        run_phase=run_phase,
        run_all=run_all,
        print_result=print_result,
    )


if __name__ == "__main__":
    sys.exit(main())
