"""``make loadtest``'s lossy phase in miniature: four tables on SQLite through the real
venue server, behind the lossy proxy with its fates fixed (every tenth connection dropped
before the server, every tenth after it answered, the rest delayed up to half a second),
a second phone at the table now and then. Every hand ends stored once with the values
sent and every phone shows the server's score.

It runs in processes of its own (a scratch database, the server and the proxy on
loopback), so it touches neither the test database nor anything beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server  # real servers under load: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]


def test_hands_through_a_lossy_link_are_stored_once_and_every_phone_shows_the_score(tmp_path):
    report_path = tmp_path / "lossy.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.load.lossy",
            "--server",
            "venue",
            "--tables",
            "4",
            "--game-target",
            "40",
            "--cycle",
            "..b...a...",
            "--max-delay",
            "0.5",
            "--second-phone",
            "0.3",
            "--seed",
            "7",
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
    assert result["hands_stored"] == result["hands_planned"] > 8
    assert result["lost_hands"] == result["duplicated_hands"] == result["altered_hands"] == 0
    assert result["scores_checked"] == 4 * 2 and result["scores_wrong"] == 0
    assert result["verify_tournament"]["exit"] == 0, result["verify_tournament"]
    assert result["tables_confirmed"] == 4
    assert result["errors"] == result["server_errors"] == result["problems"] == []
    assert result["connections_open_at_end"] == 0  # late requests reached the server too
    # The loss was met: both kinds of drop, and hands resent under their own ids.
    assert result["dropped_before"] > 0 and result["dropped_after"] > 0
    assert result["hand_resends"] > 0
    # A second phone entered some hands at once: one of the two was told what was stored.
    counters = result["counters"]
    assert counters["second-phone hands"] > 0
    assert counters.get("told taken", 0) + counters.get("told stale", 0) > 0
    assert report["pass"] and done.returncode == 0, done.stdout
