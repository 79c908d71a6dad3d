"""The venue server serves with one process per CPU core on macOS and Linux (config.venue):
the others share its socket, take their part of the room's connections, and stop when
it stops, even when it is killed."""

from __future__ import annotations

import os
import signal
import socket
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tools.load.servers import start_venue, stop

pytestmark = [
    pytest.mark.server,  # starts real servers: one at a time, after the rest
    pytest.mark.skipif(os.name != "posix", reason="the socket is shared on Unix only"),
]

PROCESSES = 3
REQUESTS = 600


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` and that run config.venue_worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"config.venue_worker" in command:
            found.append(int(entry.name))
    return sorted(found)


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def port_free(port: int, *, deadline: float) -> bool:
    """Whether ``port`` can be listened on again before ``deadline`` (the last process
    holding it may still be ending)."""
    while True:
        try:
            with socket.create_server(("127.0.0.1", port)):
                return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)


def ask(host: str, port: int) -> bytes:
    with socket.create_connection((host, port), 30) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_the_processes_share_the_room_and_stop_with_the_server(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    process, base = start_venue(
        env, data=tmp_path / "data", log=tmp_path / "venue.log", processes=PROCESSES
    )
    try:
        address = urllib.parse.urlsplit(base)
        host, port = str(address.hostname), int(address.port or 80)
        workers = children(process.pid)
        assert len(workers) == PROCESSES - 1
        serving = [process.pid, *workers]
        before = {pid: cpu_ticks(pid) for pid in serving}
        with ThreadPoolExecutor(24) as pool:
            answers = list(pool.map(lambda _: ask(host, port), range(REQUESTS)))
        assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in answers)
        worked = {pid: cpu_ticks(pid) - before[pid] for pid in serving}
        assert sum(1 for ticks in worked.values() if ticks > 0) >= 2, worked  # shared out

        process.send_signal(signal.SIGKILL)  # the first process only: the others follow
        process.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers)
        assert port_free(port, deadline=time.monotonic() + 10)  # nothing holds it any more
    finally:
        stop(process)
