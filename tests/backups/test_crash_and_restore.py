"""The laptop dies mid-round: SIGKILL the venue server while tables enter hands.

After a restart every hand a table was told was recorded is there, with the values it
sent, and nothing is stored twice; the tournament still agrees with its hands. Then the
newest backup the server took is restored with ``ginclub restore`` and verified, while a
damaged or foreign file is refused and changes nothing. Real processes on loopback only.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tools.load.client import Plan, Stats, Table
from tools.load.servers import ROOT, start_venue, stop

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

TABLES = 8


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )


def stored_hands(database: Path) -> dict[int, list[tuple]]:
    connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    try:
        rows = connection.execute(
            "SELECT match_id, number, kind, by, deadwood, defender_deadwood FROM scoring_hand "
            "ORDER BY match_id, number"
        ).fetchall()
    finally:
        connection.close()
    hands: dict[int, list[tuple]] = {}
    for match_id, *hand in rows:
        hands.setdefault(match_id, []).append(tuple(hand))
    return hands


def sent(plan: Plan, number: int) -> tuple:
    hand = plan.hands[number - 1]
    return (
        number,
        hand["kind"],
        hand.get("by", ""),
        hand.get("deadwood"),
        hand.get("defender_deadwood"),
    )


def test_sigkill_loses_no_acknowledged_hand_and_a_backup_restores(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_DEBUG")
    }
    database, data = tmp_path / "db.sqlite3", tmp_path / "data"
    env.update(SQLITE_PATH=str(database), GINCLUB_DATA_DIR=str(data), DJANGO_DEBUG="1")
    scenario = tmp_path / "plans.json"
    done = run("-m", "tools.load.scenario", str(scenario), "--tables", str(TABLES), env=env)
    assert done.returncode == 0, done.stderr
    setup = json.loads(scenario.read_text())
    plans = [Plan(**plan) for plan in setup["plans"]]

    process, base = start_venue(env, data=data, log=tmp_path / "venue.log")
    stats = Stats()
    deadline = time.monotonic() + 60
    tables = [
        Table(base, plan, stats, timeout=5, deadline=deadline, refresh=False, twin_rate=0.2,
              seed=index, retries=1)
        for index, plan in enumerate(plans)
    ]  # fmt: skip
    threads = [threading.Thread(target=table.run, daemon=True) for table in tables]
    for thread in threads:
        thread.start()
    while sum(len(t.result.recorded) for t in tables) < 3 * TABLES:
        assert time.monotonic() < deadline, stats.errors[:5]
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)  # mid-round, as a laptop dies
    process.wait(timeout=10)
    for thread in threads:
        thread.join(timeout=30)
    acknowledged = {table.plan.match_id: list(table.result.recorded) for table in tables}
    assert sum(map(len, acknowledged.values())) >= 3 * TABLES

    process, base = start_venue(env, data=data, log=tmp_path / "venue-again.log")
    try:
        hands = stored_hands(database)
        for plan in plans:
            stored = hands.get(plan.match_id, [])
            numbers = [hand[0] for hand in stored]
            assert numbers == list(range(1, len(stored) + 1)), "a gap or a duplicate"
            assert set(acknowledged[plan.match_id]) <= set(numbers), "an acknowledged hand lost"
            assert stored == [sent(plan, number) for number in numbers], "a hand altered"
    finally:
        stop(process)
    verified = run("-m", "config.cli", "manage", "verify_tournament", setup["slug"], env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    backups = sorted((data / "backups").glob("ginclub-*.sqlite3"))
    assert backups, "the venue server took no backup"
    before = stored_hands(database)
    for bad, reason in (
        (b"not a database at all", "not a SQLite database"),
        (backups[-1].read_bytes()[:8192], "damaged"),
    ):
        path = tmp_path / "bad.sqlite3"
        path.write_bytes(bad)
        refused = run("-m", "config.cli", "restore", str(path), env=env)
        assert refused.returncode == 1 and reason in refused.stderr, refused.stderr
        assert stored_hands(database) == before  # refused: nothing changed

    restored = run("-m", "config.cli", "restore", str(backups[-1]), env=env)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "Every match agrees with its hands." in restored.stdout
    assert list((data / "backups").glob("before-restore-*.sqlite3"))  # what it replaced
    verified = run("-m", "config.cli", "manage", "verify_tournament", setup["slug"], env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
