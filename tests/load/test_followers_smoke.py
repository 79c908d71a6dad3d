"""The followers phase of ``make loadtest`` in miniature: 16 players, 4 tables entering
hands and 6 followers polling the public page, on SQLite through the real venue server.

It runs in processes of its own (a scratch database, the server on loopback), so it
touches neither the test database nor anything beyond 127.0.0.1. The budget is loosened
(this checks the harness, not the speed): every poll answered, every hand stored once,
and every winning hand shown in every follower's standings by its next poll or so.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server  # real servers under load: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]


def test_followers_see_every_hand(tmp_path):
    report_path = tmp_path / "load.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.load.run",
            "--followers-only",
            "--backend",
            "sqlite",
            "--server",
            "venue",
            "--players",
            "16",
            "--tables",
            "4",
            "--followers",
            "6",
            "--follow-seconds",
            "8",
            "--poll-interval",
            "1.5",
            "--hand-interval",
            "1",
            "--no-time-bars",
            "--report",
            str(report_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert report_path.exists(), done.stdout + done.stderr
    report = json.loads(report_path.read_text())
    [result] = report["runs"]
    assert result["kind"] == "followers" and "failed" not in result, result
    assert result["failures"] == [], done.stdout
    assert result["followers_carried"] == 6 and result["keep_alive"]
    assert result["errors"] == result["table_errors"] == 0
    assert result["server_errors"] == result["self_check"] == result["problems"] == []
    assert result["lost_hands"] == result["duplicated_hands"] == result["altered_hands"] == 0
    assert result["hands_acknowledged"] > 8
    assert result["winning_hands_acknowledged"] > 4
    end = result["standings_hands_won"]
    assert end["end"] > end["start"] > 0  # the queued matches were played out beforehand
    delay = result["delay"]
    assert delay["missed"] == 0 and delay["seen"] == delay["pairs"] > 0
    assert result["latency_200"]["count"] > 0
    assert report["pass"] and done.returncode == 0, done.stdout
