"""The cluster phase of ``make loadtest`` (issue 34): a venue publishes a night to the
club's server past one machine while remote followers poll the mirror, and an app node is
killed and restarted under them.

``python -m tools.load.cluster --load`` (``--help`` for the knobs):

1. the club's set on loopback (:func:`tools.load.cluster.cluster`: PostgreSQL, Redis, two
   gunicorn nodes, HAProxy); a director there and a publishing token;
2. the venue (``ginclub venue``, SQLite, on 127.0.0.2's stand-in address) with a running
   tournament of ``--players`` whose first-round matches are at ``--tables`` tables,
   started with ``GINCLUB_PUBLISH_URL`` pointing at HAProxy; the phase waits until the
   mirror shows the venue's standings;
3. for ``--follow-seconds`` the tables (:func:`tools.load.followers_phase.run_tables`)
   enter hands at the venue at a player's pace, while ``--followers`` phones
   (:mod:`tools.load.followers`) poll the mirror's public page through HAProxy, and a
   watcher reads the mirror's ``standings.json`` four times a second;
4. ``--kill-after`` seconds in, node1 is killed (SIGKILL, master and workers) and started
   again ``--down-seconds`` later; HAProxy's view of it is read from its socket;
5. the tables stop; the mirror must catch up exactly: the venue's hands, its change count,
   its standings;
6. the club's server away (:mod:`tools.load.outage`): every node killed for
   ``--outage-seconds`` while ten hands are entered at the venue, then started: the
   mirror must hold every change again (timed from the first node's answer).

Figures: the followers' polls (p50/p95, errors, how many polls each follower lost: the bar
is one at most), per node from HAProxy's log (requests a second, p95 of HAProxy's total
time, statuses), the publish lag (a winning hand acknowledged at the venue → the mirror's
standings.json counting it: p50/p95/max) and the delay to each follower's standings,
what the kill cost. Report in ``.bench/cluster.json``; exit status 1 if the bar is missed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import tempfile
import threading
import time
import traceback
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from . import balancer
from .cluster import FOREIGN, Cluster, cluster, unavailable
from .followers import appearance_delays, latency_ms, poll_seconds, summarize
from .followers_phase import (
    collect_followers,
    group_cpu,
    machine_busy,
    run_tables,
    setup,
    spawn_followers,
    standings_total,
)
from .outage import club_outage
from .servers import ROOT, start_venue, stop

REPORT = ROOT / ".bench" / "cluster.json"
LEAD_SECONDS = 4.0
WATCH_EVERY = 0.25
KILLED = "node1"

HANDS = """
import json
from scoring.models import Hand
rows = Hand.objects.filter(match__tournament__slug={slug!r}).order_by("match__key", "number")
mirror = __import__("publishing.models").models.Mirror.objects.get(tournament__slug={slug!r})
print(json.dumps({{"hands": [list(r) for r in rows.values_list(*{fields!r})],
                  "applied": mirror.applied_through}}))
"""
HAND_FIELDS = ("match__key", "number", "kind", "by", "deadwood", "defender_deadwood")
CLUB_DIRECTOR = """
from django.contrib.auth import get_user_model
get_user_model().objects.create_superuser("clubdir", "", "club-director-long-pw")
"""


def fetch_json(url: str, timeout: float = 10.0) -> Any:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=timeout) as answer:
        return json.loads(answer.read())


def hands_won(payload: dict[str, Any]) -> int:
    return sum(int(row["hands_won"]) for row in payload["standings"])


def comparable(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings rows without the club's own ratings (the club rates on its own)."""
    return [
        {k: v for k, v in row.items() if not k.startswith("club_rating")}
        for row in payload["standings"]
    ]


def wait_for_mirror(front: str, venue: str, slug: str, seconds: float) -> float:
    """Wait until the mirror's standings are the venue's; how long it took."""
    began = time.monotonic()
    last = ""
    while time.monotonic() - began < seconds:
        try:
            here = fetch_json(f"{venue}/t/{slug}/standings.json")
            there = fetch_json(f"{front}/t/{slug}/standings.json")
            if comparable(here) == comparable(there):
                return time.monotonic() - began
            last = "standings differ"
        except OSError as error:
            last = repr(error)
        time.sleep(0.5)
    raise RuntimeError(f"the mirror did not match the venue within {seconds:g} s ({last})")


class Watcher(threading.Thread):
    """Reads the mirror's standings.json every WATCH_EVERY seconds until ``until``: when
    each read started, and when each answer came with which Hands-won total."""

    def __init__(self, url: str, start_at: float, until: float) -> None:
        super().__init__(daemon=True)
        self.url, self.start_at, self.until = url, start_at, until
        self.asked: list[float] = []
        self.shown: list[tuple[float, int]] = []
        self.errors: list[str] = []
        self.start()

    def run(self) -> None:
        due = self.start_at
        while due < self.until:
            time.sleep(max(0.0, due - time.monotonic()))
            began = time.monotonic()
            self.asked.append(began)
            try:
                total = hands_won(fetch_json(self.url, timeout=5))
                self.shown.append((time.monotonic(), total))
            except (OSError, ValueError, KeyError) as error:
                self.errors.append(f"{began - self.start_at:.1f} s: {error!r}"[:160])
            due = began + WATCH_EVERY


class Killer(threading.Thread):
    """Kills node1 at ``at`` (SIGKILL) and starts it again ``down`` seconds later; when
    each happened and when HAProxy saw it, relative to ``start_at``."""

    def __init__(self, the_set: Cluster, start_at: float, at: float, down: float) -> None:
        super().__init__(daemon=True)
        self.the_set, self.start_at, self.at, self.down = the_set, start_at, at, down
        self.report: dict[str, Any] = {}
        self.start()

    def run(self) -> None:
        front = self.the_set.front
        assert front is not None
        try:
            time.sleep(max(0.0, self.at - time.monotonic()))
            killed = self.the_set.kill(KILLED)
            self.report["killed_at_s"] = round(killed - self.start_at, 2)
            out = front.wait_for(KILLED, "DOWN", 20)
            self.report["haproxy_down_after_s"] = round(out - killed, 2)
            time.sleep(max(0.0, killed + self.down - time.monotonic()))
            began = time.monotonic()
            answering = self.the_set.restart(KILLED)
            self.report["restarted_at_s"] = round(began - self.start_at, 2)
            self.report["answering_after_s"] = round(answering - began, 2)
            back = front.wait_for(KILLED, "UP", 30)
            self.report["haproxy_up_after_s"] = round(back - answering, 2)
        except Exception as error:
            self.report["failed"] = f"{error!r}"


class CpuShares(threading.Thread):
    """The share of a core each part used from ``start_at`` to ``until`` (Linux /proc),
    read every second: ``groups()`` names each part's process groups (node1's changes when
    it is restarted); a group's last reading counts after it is gone (killed)."""

    def __init__(self, groups: Any, start_at: float, until: float) -> None:
        super().__init__(daemon=True)
        self.groups, self.start_at, self.until = groups, start_at, until
        self.base: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.owner: dict[int, str] = {}
        self.machine: list[tuple[float, float]] = []
        self.start()

    def run(self) -> None:
        time.sleep(max(0.0, self.start_at - time.monotonic()))
        self.machine.append(machine_busy())
        first = True
        while True:
            for name, pids in self.groups().items():
                for pid in pids:
                    used = group_cpu(pid) or 0.0
                    if pid not in self.owner:
                        self.owner[pid] = name
                        self.base[pid] = used if first else 0.0
                    if used > 0:
                        self.last[pid] = used
            first = False
            if time.monotonic() >= self.until:
                break
            time.sleep(min(1.0, max(0.0, self.until - time.monotonic())))
        self.machine.append(machine_busy())

    def percent(self) -> dict[str, float]:
        span = max(1e-9, self.until - self.start_at)
        shares: dict[str, float] = {}
        for pid, name in self.owner.items():
            used = self.last.get(pid, self.base[pid]) - self.base[pid]
            shares[name] = shares.get(name, 0.0) + 100 * max(0.0, used) / span
        shares = {name: round(value, 1) for name, value in shares.items()}
        if len(self.machine) == 2:
            (busy0, total0), (busy1, total1) = self.machine
            shares["machine busy (of all cores)"] = round(
                100 * (busy1 - busy0) / max(1e-9, total1 - total0), 1
            )
        return shares


def venue_env(scratch: Path, front: str, token: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GINCLUB_")) and k not in FOREIGN
    }
    data = scratch / "venue"
    env.update(
        PYTHONPATH=str(ROOT),
        GINCLUB_DATA_DIR=str(data),
        GINCLUB_PUBLISH_URL=front,
        GINCLUB_PUBLISH_TOKEN=token,
        GINCLUB_VENUE_NAME="Riverside",
    )
    return env


def configure_venue_database(scratch: Path) -> None:
    """Django here on the venue's database (the venue server's own file), migrated."""
    from .run import configure

    data = scratch / "venue"
    data.mkdir(parents=True, exist_ok=True)
    for name in FOREIGN:
        os.environ.pop(name, None)
    configure(
        {
            "DJANGO_SETTINGS_MODULE": "tools.load.settings",
            "DJANGO_DEBUG": "1",
            "GINCLUB_DATA_DIR": str(data),
        }
    )


def mirror_state(the_set: Cluster, slug: str) -> dict[str, Any]:
    out = the_set.manage("shell", "-c", HANDS.format(slug=slug, fields=HAND_FIELDS))
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def venue_state(tournament: Any) -> dict[str, Any]:
    from scoring.models import Hand
    from tournaments.models import AuditEntry

    rows = Hand.objects.filter(match__tournament=tournament).order_by("match__key", "number")
    return {
        "hands": [list(row) for row in rows.values_list(*HAND_FIELDS)],
        "changes": AuditEntry.objects.filter(tournament=tournament).count(),
    }


def caught_up(the_set: Cluster, tournament: Any, seconds: float) -> tuple[float, dict[str, Any]]:
    """Wait until the mirror holds exactly the venue's hands and changes."""
    began = time.monotonic()
    while True:
        here, there = venue_state(tournament), mirror_state(the_set, tournament.slug)
        same = here["hands"] == there["hands"] and here["changes"] == there["applied"]
        if same or time.monotonic() - began > seconds:
            return time.monotonic() - began, {
                "exact": same,
                "venue_hands": len(here["hands"]),
                "mirror_hands": len(there["hands"]),
                "venue_changes": here["changes"],
                "mirror_applied": there["applied"],
            }
        time.sleep(1)


def follower_losses(polls: list[Any]) -> dict[str, Any]:
    """How many polls each follower lost (no answer, or an error status)."""
    lost = Counter(p.follower for p in polls if p.error or p.status not in (200, 304))
    spread = Counter(lost.values())
    return {
        "followers_with_a_lost_poll": len(lost),
        "most_lost_by_one_follower": max(lost.values(), default=0),
        "followers_by_polls_lost": {str(k): v for k, v in sorted(spread.items())},
    }


def phase(the_set: Cluster, args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    from .run import verify

    configure_venue_database(scratch)
    if not args.interval:
        args.interval, _source = poll_seconds()
    tournament, plans, wins = setup(args.players, args.tables, "venue")
    the_set.manage("shell", "-c", CLUB_DIRECTOR)
    token = the_set.manage("publish_token", "clubdir").strip().splitlines()[-1]
    front = the_set.base
    env = venue_env(scratch, front, token)
    venue, venue_base = start_venue(env, data=scratch / "venue", log=scratch / "venue.log")
    followers: list[Any] = []
    try:
        first_publish = wait_for_mirror(front, venue_base, tournament.slug, 180)
        base_total = standings_total(front, tournament.slug, args.request_timeout)
        start_at = time.monotonic() + LEAD_SECONDS
        until = start_at + args.follow_seconds
        seconds = args.follow_seconds + 2 * args.interval + 5
        clock = time.time() - time.monotonic()  # monotonic → Unix, for HAProxy's log
        followers = spawn_followers(front, tournament.slug, args, start_at, seconds, True)
        watch = balancer.StateWatch(the_set.front) if the_set.front else None
        watcher = Watcher(f"{front}/t/{tournament.slug}/standings.json", start_at, until + 15)
        cpu = CpuShares(
            lambda: {
                "venue": [venue.pid],
                "haproxy": [the_set.front.process.pid] if the_set.front else [],
                **{n.name: [n.process.pid] for n in the_set.nodes if n.process},
                "followers": [process.pid for process, _out in followers],
            },
            start_at,
            until,
        )
        killer = None
        if not args.no_kill:
            killer = Killer(the_set, start_at, start_at + args.kill_after, args.down_seconds)
        stats, results, winning = run_tables(venue_base, plans, wins, args, start_at, until)
        polls, client = collect_followers(followers, start_at + seconds + args.poll_timeout + 120)
        watcher.join(timeout=30)
        cpu.join(timeout=10)
        if killer is not None:
            killer.join(timeout=60)
        changes = watch.stop() if watch else []
        catch_up_s, exact = caught_up(the_set, tournament, 120)
        venue_standings = comparable(fetch_json(f"{venue_base}/t/{tournament.slug}/standings.json"))
        mirror_standings = comparable(fetch_json(f"{front}/t/{tournament.slug}/standings.json"))
        checked = verify(plans, results)  # before the outage's hands, which no table entered
        outage: dict[str, Any] = {"skipped": True}
        if args.outage_seconds:
            outage = club_outage(the_set, tournament, args.outage_seconds)
    finally:
        for process, _out in followers:
            stop(process)
        stop(venue)
    figures = summarize(
        polls,
        followers=args.followers,
        interval=args.interval,
        start_at=start_at,
        busy_until=until,
        acknowledged=winning,
        base_total=base_total,
    )
    lag = appearance_delays(sorted(winning), base_total, {0: watcher.shown}, {0: watcher.asked})
    logged = balancer.read_log(the_set.front.log) if the_set.front else []
    window = (clock + start_at + args.interval, clock + until)
    prefix = f"/t/{tournament.slug}/"
    result: dict[str, Any] = {
        "kind": "cluster",
        "nodes": len(the_set.nodes),
        "served by": f"{len(the_set.nodes)} gunicorn nodes × {the_set.workers} workers × "
        f"{the_set.threads} threads, PostgreSQL, Redis, HAProxy round robin "
        "(live regions kept 1 s)",
        "players": args.players,
        "tables": len(plans),
        "poll_interval_s": args.interval,
        "window_seconds": round(until - start_at, 1),
        "first_publish_s": round(first_publish, 2),
        **figures,
        # After the first interval: every follower has opened the page (its first poll, a
        # whole region with no validator yet, is behind it); HAProxy's figures are these.
        "latency_after_first_interval": latency_ms(
            p.seconds
            for p in polls
            if p.status in (200, 304) and not p.error and p.start >= start_at + args.interval
        ),
        "follower_losses": follower_losses(polls),
        "per_node": balancer.node_figures(logged, start=window[0], end=window[1], prefix=prefix),
        "publishing_per_node": balancer.node_figures(
            logged, start=window[0], end=window[1], prefix="/publish/"
        ),
        "haproxy_retried": balancer.retried(logged),
        "haproxy_node_changes": [
            f"{moment - start_at:.1f} s: {node} {state}" for moment, node, state in changes
        ],
        "kill": killer.report if killer else {"skipped": True},
        "publish_lag": {
            "winning_hands": lag.hands,
            "seen": lag.seen,
            "missed": lag.missed,
            "p50_ms": lag.p50_ms,
            "p95_ms": lag.p95_ms,
            "max_ms": lag.max_ms,
            "watcher_errors": watcher.errors[:10],
        },
        "cpu_percent_of_a_core": cpu.percent(),
        "catch_up_after_tables_s": round(catch_up_s, 2),
        "mirror": exact,
        "standings_equal": venue_standings == mirror_standings,
        "club_outage": outage,
        "hand_latency_at_venue": latency_ms(stats.latencies.get("hand", [])),
        "table_errors": len(stats.errors),
        "table_error_samples": stats.errors[:10],
        "follower_error_samples": client.pop("error_samples")[:10],
        "client": client,
        **{k: checked[k] for k in ("lost_hands", "duplicated_hands", "altered_hands")},
        "problems": checked["problems"][:10],
        "node_log_errors": node_errors(the_set),
    }
    result["failures"] = gate(result, args)
    result["pass"] = not result["failures"]
    return result


def node_errors(the_set: Cluster) -> list[str]:
    from .run import SERVER_TROUBLE

    lines = []
    for node in the_set.nodes:
        text = node.log.read_text(errors="replace") if node.log.exists() else ""
        lines += [
            f"{node.name}: {line}"
            for line in text.splitlines()
            if any(mark in line for mark in SERVER_TROUBLE)
        ]
    return lines[:20]


def gate(result: dict[str, Any], args: argparse.Namespace) -> list[str]:
    failures = []
    losses = result["follower_losses"]
    if losses["most_lost_by_one_follower"] > args.max_lost_polls:
        failures.append(
            f"a follower lost {losses['most_lost_by_one_follower']} polls "
            f"(at most {args.max_lost_polls})"
        )
    delay = result["delay"]
    if delay["missed"] or not delay["pairs"]:
        failures.append(
            f"hand at the venue → follower's standings on the mirror: {delay['missed']} of "
            f"{delay['pairs']} never shown"
        )
    if args.time_bars:
        if result["latency"]["p95_ms"] > args.max_poll_p95_ms:
            failures.append(f"poll p95 {result['latency']['p95_ms']} ms > {args.max_poll_p95_ms:g}")
        limit = (args.interval + args.delay_margin) * 1000
        if delay["p95_ms"] > limit:
            failures.append(
                f"hand at the venue → follower's standings on the mirror: p95 "
                f"{delay['p95_ms']} ms (limit {limit:g})"
            )
    if result["publish_lag"]["missed"] or not result["publish_lag"]["seen"]:
        failures.append("a winning hand never reached the mirror's standings.json")
    if not result["mirror"]["exact"] or not result["standings_equal"]:
        failures.append(f"the mirror is not the venue: {result['mirror']}")
    if result["lost_hands"] or result["duplicated_hands"] or result["altered_hands"]:
        failures.append("hands lost, duplicated or altered at the venue")
    if result["table_errors"] or result["problems"] or result["client"]["failed"]:
        failures.append("errors at the tables or in the followers' processes")
    if "failed" in result["club_outage"]:
        failures.append(f"the club's outage: {result['club_outage']['failed']}")
    if "failed" in result["kill"]:
        failures.append(f"the node kill: {result['kill']['failed']}")
    if result["followers_answered"] < result["followers"]:
        failures.append(f"followers answered {result['followers_answered']}/{result['followers']}")
    return failures


def print_cluster(result: dict[str, Any]) -> None:
    if "failed" in result:
        print(f"\ncluster: FAILED: {result['failed']}\n{result.get('traceback', '')}")
        return
    lat, delay, lag = result["latency"], result["delay"], result["publish_lag"]
    steady = result["latency_after_first_interval"]
    losses = result["follower_losses"]
    print(
        f"\ncluster · {result['served by']} · {'pass' if result['pass'] else 'FAIL'}\n"
        f"  venue: {result['players']} players, {result['tables']} tables publishing · first "
        f"publish {result['first_publish_s']} s · {result['followers']} followers poll the "
        f"mirror every {result['poll_interval_s']:g} s\n"
        f"  polls {result['polls_answered']}/{result['polls']} answered · "
        f"{result['region_rps']} req/s · p50 {lat['p50_ms']} · p95 {lat['p95_ms']} · max "
        f"{lat['max_ms']} ms · errors {result['errors']} {result['errors_by_kind'] or ''}\n"
        f"  after the first interval (every follower has opened the page): p50 {steady['p50_ms']}"
        f" · p95 {steady['p95_ms']} · max {steady['max_ms']} ms\n"
        f"  followers who lost a poll: {losses['followers_with_a_lost_poll']} (most by one: "
        f"{losses['most_lost_by_one_follower']}) · HAProxy sent {result['haproxy_retried']} "
        f"requests again to the other node"
    )
    for node, figures in result["per_node"].items():
        n = figures["latency"]
        print(
            f"  {node}: {figures['requests']} polls, {figures['rps']} req/s · p50 "
            f"{n['p50_ms']} · p95 {n['p95_ms']} · max {n['max_ms']} ms (in HAProxy) · "
            f"{figures['statuses']}"
        )
    print(
        f"  kill: {result['kill']} · HAProxy: {', '.join(result['haproxy_node_changes'])}\n"
        f"  publish lag (hand at the venue → mirror's standings.json): {lag['seen']}/"
        f"{lag['winning_hands']} · p50 {lag['p50_ms']} · p95 {lag['p95_ms']} · max "
        f"{lag['max_ms']} ms\n"
        f"  hand → follower's standings: p50 {delay['p50_ms']} · p95 {delay['p95_ms']} · max "
        f"{delay['max_ms']} ms · {delay['missed']} of {delay['pairs']} never\n"
        f"  CPU while the tables play (% of a core): {result['cpu_percent_of_a_core']}\n"
        f"  mirror after the tables: {result['mirror']} in {result['catch_up_after_tables_s']} s"
        f" · standings equal {result['standings_equal']}\n"
        f"  the club's server away, then back: {result['club_outage']}"
    )
    for line in result["failures"]:
        print(f"  ✗ {line}")
    for line in (
        result["follower_error_samples"][:5]
        + result["table_error_samples"][:5]
        + result["node_log_errors"][:5]
        + result["problems"][:5]
    ):
        print(f"  ! {line}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per node")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--node-connections", type=int, default=16, help="HAProxy's maxconn for each node"
    )
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--players", type=int, help="default: two a table")
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--follower-processes", type=int, default=1)
    parser.add_argument("--poll-interval", type=float, help="default: public.live.POLL_SECONDS")
    parser.add_argument("--follow-seconds", type=float, default=75)
    parser.add_argument("--hand-interval", type=float, default=9)
    parser.add_argument("--hand-jitter", type=float, default=1 / 3)
    parser.add_argument("--poll-timeout", type=float, default=10)
    parser.add_argument("--request-timeout", type=float, default=30)
    parser.add_argument("--second-device", type=float, default=0.0)
    parser.add_argument("--kill-after", type=float, default=25, help="seconds into the window")
    parser.add_argument("--down-seconds", type=float, default=10)
    parser.add_argument("--no-kill", action="store_true")
    parser.add_argument(
        "--outage-seconds", type=float, default=45, help="the club's whole outage (0: none)"
    )
    parser.add_argument(
        "--no-time-bars",
        dest="time_bars",
        action="store_false",
        help="judge outcomes only (no poll lost, the mirror exact): the tests' mode",
    )
    parser.add_argument("--max-poll-p95-ms", type=float, default=100)
    parser.add_argument("--max-lost-polls", type=int, default=1, help="by any one follower")
    parser.add_argument("--delay-margin", type=float, default=2.0)
    parser.add_argument("--report", type=Path, default=REPORT)
    parser.add_argument("--keep-scratch", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    args.players = args.players or 2 * args.tables
    args.interval = args.poll_interval  # or the site's, once Django is set up (phase)
    return args


def main(argv: list[str] | None = None) -> int:
    from .cluster import stop_on_signals

    args = parse(argv)
    report: dict[str, Any] = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "bar": f"poll p95 ≤ {args.max_poll_p95_ms:g} ms; no follower loses more than "
        f"{args.max_lost_polls} poll to the node kill; hand at the venue → follower's "
        f"standings on the mirror p95 ≤ poll interval + {args.delay_margin:g} s; the mirror "
        "exactly the venue after",
    }
    problem = unavailable()
    stop_on_signals()
    with tempfile.TemporaryDirectory(prefix="ginclub-cluster-load-") as temporary:
        scratch = Path(temporary)
        if args.keep_scratch:  # a fresh folder in it for this run's logs and databases
            scratch = args.keep_scratch.resolve() / time.strftime("%Y%m%d-%H%M%S")
            scratch.mkdir(parents=True)
        args.scratch = str(scratch)
        try:
            if problem:
                raise RuntimeError(f"not run: {problem}")
            with cluster(
                scratch / "club",
                nodes=args.nodes,
                workers=args.workers,
                threads=args.threads,
                node_connections=args.node_connections,
            ) as the_set:
                result = phase(the_set, args, scratch)
        except Exception as error:
            result = {
                "kind": "cluster",
                "pass": False,
                "failed": f"{error!r}",
                "traceback": traceback.format_exc()[-4000:],
            }
    report["run"] = result
    report["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    report["pass"] = bool(result["pass"])
    print_cluster(result)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{'bar met' if report['pass'] else 'BAR MISSED'} · report: {args.report}")
    return 0 if report["pass"] else 1
