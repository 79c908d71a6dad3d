"""``make loadtest`` in miniature: four tables, short games, SQLite, through the real venue
server and the real gunicorn.

The load test runs in its own process (it starts gunicorn on a scratch database of its
own), so this test touches neither the test database nor the network beyond loopback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server  # real servers under load: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]


def test_four_tables_lose_nothing(tmp_path):
    report_path = tmp_path / "load.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.load.run",
            "--backend",
            "sqlite",
            "--tables",
            "4",
            "--game-target",
            "50",
            "--workers",
            "2",
            "--threads",
            "2",
            "--second-device",
            "0.3",
            "--deadline",
            "60",
            "--request-timeout",
            "20",
            "--report",
            str(report_path),
            "--no-followers",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert report_path.exists(), done.stdout + done.stderr
    report = json.loads(report_path.read_text())
    assert [run["server"] for run in report["runs"]] == ["venue", "gunicorn"], report
    for result in report["runs"]:
        assert "failed" not in result, result
        assert result["errors"] == 0, result["error_samples"]
        assert result["server_errors"] == []
        assert result["lost_hands"] == 0
        assert result["duplicated_hands"] == 0
        assert result["altered_hands"] == 0
        assert result["problems"] == []
        assert result["unsent_hands"] == 0
        assert result["hands_stored"] == result["hands_planned"] > 4
        assert result["tables_confirmed"] == 4
        assert result["counters"]["second-device posts"] > 0
    assert report["pass"] and done.returncode == 0, done.stdout
