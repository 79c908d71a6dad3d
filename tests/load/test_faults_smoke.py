"""``make faults`` in miniature: four tables on SQLite through the real venue server,
which is killed with SIGKILL twice while they play and started again each time.

It runs in processes of its own (a scratch database, the server on loopback), so it
touches neither the test database nor anything beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server  # real servers under load: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]


def test_two_kills_lose_and_duplicate_nothing(tmp_path):
    report_path = tmp_path / "faults.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.load.faults",
            "--backend",
            "sqlite",
            "--server",
            "venue",
            "--tables",
            "4",
            "--kills",
            "2",
            "--game-target",
            "50",
            "--deadline",
            "90",
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
    assert "failed" not in result, result
    assert result["kills"] == 2, result["kill_log"]
    assert result["acknowledged_hands"] == result["hands_planned"] > 8
    assert result["lost_hands"] == 0
    assert result["duplicated_hands"] == 0
    assert result["altered_hands"] == 0
    assert result["verify_tournament"]["exit"] == 0, result["verify_tournament"]
    assert result["tables_confirmed"] == 4
    assert result["errors"] == result["server_errors"] == result["problems"] == []
    assert result["counters"]["refused while down"] > 0  # the tables did meet the outage
    assert report["pass"] and done.returncode == 0, done.stdout
