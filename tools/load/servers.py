"""The processes a load test starts: gunicorn or the venue server on loopback, a
throwaway PostgreSQL 15, and a throwaway Redis.

The context managers stop what they started (by its process id, never by name) on the
way out, also after an error or an interrupt. ``start_venue`` and ``start_gunicorn`` hand
the process itself to the caller: the fault test kills and restarts it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
PG_USER = "postgres"
ACCESS_FORMAT = "%(D)s %(s)s %(m)s %(U)s"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen, grace: float = 10.0) -> None:
    """SIGTERM the process group we started, then SIGKILL it if it lingers."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=grace)


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str],
    *,
    workers: int,
    threads: int,
    log: Path,
    access_log: Path | None = None,
    timeout: float = 60.0,
) -> Iterator[str]:
    """:func:`start_gunicorn` as a context manager: yields the URL, stops gunicorn after."""
    process, base = start_gunicorn(
        env, workers=workers, threads=threads, log=log, access_log=access_log, timeout=timeout
    )
    try:
        yield base
    finally:
        stop(process)


def start_gunicorn(
    env: dict[str, str],
    *,
    workers: int,
    threads: int,
    log: Path,
    access_log: Path | None = None,
    timeout: float = 60.0,
    port: int = 0,
) -> tuple[subprocess.Popen, str]:
    """gunicorn serving the site on 127.0.0.1 at ``port`` (a free one by default), and
    wait until it answers; returns the process (a group of its own: the master and its
    workers) and its base URL.

    With ``access_log`` every request is logged as "<microseconds> <status> <method>
    <path>": the time gunicorn spent on it, without the wait for a free worker."""
    port = port or free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--timeout",
        str(int(timeout)),
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
        "--error-logfile",
        str(log),
    ]
    if access_log is not None:
        command += ["--access-logfile", str(access_log), "--access-logformat", ACCESS_FORMAT]
    return spawn(command, env, log, port)


def start_venue(
    env: dict[str, str],
    *,
    data: Path,
    log: Path,
    address: str = "127.0.0.2",
    port: int = 0,
    demo: bool = False,
    processes: int | None = None,
) -> tuple[subprocess.Popen, str]:
    """Start ``ginclub venue`` (waitress, DEBUG off, the venue settings) on a free port,
    its data in ``data``, with ``processes`` serving processes (the server's own choice
    by default), and wait until it answers; returns the process (a group of its own, the
    other serving processes in it) and the loopback URL it serves. The LAN address it
    shows phones is stood in by ``address`` (loopback too): nothing reaches the
    machine's real addresses."""
    port = port or free_port()
    environment = {
        key: value
        for key, value in env.items()
        if key not in ("DJANGO_DEBUG", "DJANGO_SETTINGS_MODULE", "SITE_URL")
    }
    environment.update(GINCLUB_ADDRESS=address, PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "config.cli", "venue", "--port", str(port)]
    command += ["--data", str(data)] + ([] if demo else ["--no-demo"])
    command += [] if processes is None else ["--processes", str(processes)]
    return spawn(command, environment, log, port)


def spawn(
    command: list[str], env: dict[str, str], log: Path, port: int, path: str = "/"
) -> tuple[subprocess.Popen, str]:
    """Start a server (a process group of its own, output into ``log``) and wait until it
    answers ``path`` on 127.0.0.1:``port``; stop it again if it never does."""
    with open(log, "ab") as output:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(process, base, log, path)
    except BaseException:
        stop(process)
        raise
    return process, base


@contextlib.contextmanager
def venue(env: dict[str, str], **options: Any) -> Iterator[str]:
    """:func:`start_venue` as a context manager: yields the URL, stops the server after."""
    process, base = start_venue(env, **options)
    try:
        yield base
    finally:
        stop(process)


def _wait_until_serving(process: subprocess.Popen, base: str, log: Path, path: str = "/") -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{_tail(log)}")
        try:
            with opener.open(base + path, timeout=5):
                return
        except urllib.error.HTTPError:
            return  # any HTTP answer means it is serving
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within 60 s:\n{_tail(log)}")


def _as_postgres(command: str, *, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["su", PG_USER, "-s", "/bin/sh", "-c", command],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def postgres_available() -> str | None:
    """Why a throwaway cluster cannot be started here, or None if it can."""
    if not (PG_BIN / "initdb").exists():
        return f"no PostgreSQL 15 binaries in {PG_BIN}"
    if os.geteuid() != 0:
        return "starting a cluster as the postgres user needs root"
    try:
        import pwd

        pwd.getpwnam(PG_USER)
    except KeyError:
        return f"no {PG_USER} user"
    return None


@contextlib.contextmanager
def postgres(*, max_connections: int = 200) -> Iterator[str]:
    """A fresh PostgreSQL 15 cluster on 127.0.0.1 (trust auth, its own port and temporary
    directory); yields a DATABASE_URL for a new empty database. Stopped and deleted after."""
    problem = postgres_available()
    if problem:
        raise RuntimeError(problem)
    import pwd

    scratch = Path(tempfile.mkdtemp(prefix="ginclub-pg-"))
    account = pwd.getpwnam(PG_USER)
    os.chown(scratch, account.pw_uid, account.pw_gid)
    data, log = scratch / "data", scratch / "server.log"
    port = free_port()
    started = False
    try:
        done = _as_postgres(
            f"{PG_BIN}/initdb -A trust -U postgres -E UTF8 --no-locale -D {data}", timeout=180
        )
        if done.returncode:
            raise RuntimeError(f"initdb failed:\n{done.stdout}\n{done.stderr}")
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c max_connections={max_connections} "
            f"-c unix_socket_directories={scratch} -c logging_collector=off"
        )
        done = _as_postgres(
            f"{PG_BIN}/pg_ctl -D {data} -l {log} -w -t 60 -o '{options}' start", timeout=90
        )
        started = True
        if done.returncode:
            raise RuntimeError(f"PostgreSQL did not start:\n{done.stderr}\n{_tail(log)}")
        done = _as_postgres(f"{PG_BIN}/createdb -h 127.0.0.1 -p {port} ginclub_load")
        if done.returncode:
            raise RuntimeError(f"createdb failed:\n{done.stderr}")
        yield f"postgres://postgres@127.0.0.1:{port}/ginclub_load"
    finally:
        if started:
            _stop_postgres(data)
        shutil.rmtree(scratch, ignore_errors=True)


def another_database(url: str, name: str) -> str:
    """A new empty database beside the one ``url`` (from :func:`postgres`) names."""
    port = urllib.parse.urlsplit(url).port
    done = _as_postgres(f"{PG_BIN}/createdb -h 127.0.0.1 -p {port} {name}")
    if done.returncode:
        raise RuntimeError(f"createdb failed:\n{done.stderr}")
    return url.rsplit("/", 1)[0] + f"/{name}"


def _stop_postgres(data: Path) -> None:
    """pg_ctl stop; if the server is still there, SIGKILL the postmaster we started."""
    pid_file = data / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        pid = None
    with contextlib.suppress(subprocess.TimeoutExpired):
        _as_postgres(f"{PG_BIN}/pg_ctl -D {data} -m fast -w -t 60 stop", timeout=90)
    if pid is not None and pid_file.exists():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


REDIS_SERVER = "redis-server"


def redis_available() -> str | None:
    """Why a throwaway Redis cannot be started here, or None if it can."""
    if shutil.which(REDIS_SERVER) is None:
        return "no redis-server (Debian's redis-server package; `make test-deps` installs it)"
    return None


@contextlib.contextmanager
def redis() -> Iterator[str]:
    """A fresh Redis on 127.0.0.1 (its own port and temporary directory, nothing saved to
    disk); yields its ``REDIS_URL``. Stopped by its process id and deleted after."""
    problem = redis_available()
    if problem:
        raise RuntimeError(problem)
    scratch = Path(tempfile.mkdtemp(prefix="ginclub-redis-"))
    port = free_port()
    command = [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(scratch)]
    command += ["--save", "", "--appendonly", "no", "--protected-mode", "yes"]
    log = scratch / "redis.log"
    with open(log, "ab") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}:\n{_tail(log)}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer within 30 s:\n{_tail(log)}")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)
        shutil.rmtree(scratch, ignore_errors=True)


# -- a phase's runs, each in a child process (tools.load.faults, tools.load.lossy) -----------


def child_run(
    module: str,
    backend: str,
    server: str,
    env: dict[str, str],
    options: list[str],
    scratch: str,
    deadline: float,
) -> dict[str, Any]:
    """``python -m module --phase backend --server server …options`` in a child process;
    its report (the JSON it writes to ``--out``), or why there is none."""
    name = module.rsplit(".", 1)[-1]
    out = Path(scratch) / f"{name}-{backend}-{server}.json"
    argv = [sys.executable, "-m", module, "--phase", backend, "--server", server]
    argv += ["--out", str(out), "--scratch", scratch, *options]
    failed = {"backend": backend, "server": server, "pass": False}
    limit = deadline + 300  # setup, migrations, restarts, the checks
    try:
        done = subprocess.run(argv, cwd=ROOT, env=env, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return {**failed, "failed": f"over {limit} s"}
    if not out.exists():
        return {**failed, "failed": f"exit {done.returncode}"}
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def run_all(
    runs: list[tuple[str, str]],
    scratch: str,
    name: str,
    child: Callable[[str, str, dict[str, str]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Each (backend, server) run through ``child`` with its own database: a SQLite file
    in ``scratch``, or a database of a throwaway PostgreSQL cluster (all PostgreSQL runs
    share the cluster)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env["DJANGO_DEBUG"] = "1"  # base settings as in development; tools.load.settings: DEBUG off
    env["PYTHONPATH"] = str(ROOT)
    results = []
    for backend, server in runs:
        if backend == "sqlite":
            env["GINCLUB_DATA_DIR"] = str(Path(scratch) / f"data-sqlite-{server}")
            env["SQLITE_PATH"] = str(Path(scratch) / f"{name}-{server}.sqlite3")
            results.append(child(backend, server, env))
    wanted = [server for backend, server in runs if backend == "postgresql"]
    if not wanted:
        return results
    problem = postgres_available()
    if problem:
        return results + [
            {"backend": "postgresql", "server": s, "pass": False, "failed": f"not run: {problem}"}
            for s in wanted
        ]
    env.pop("SQLITE_PATH", None)
    with postgres(max_connections=100) as url:
        for server in wanted:
            env["GINCLUB_DATA_DIR"] = str(Path(scratch) / f"data-postgresql-{server}")
            env["DATABASE_URL"] = another_database(url, f"ginclub_{name}_{server}")
            results.append(child("postgresql", server, env))
    return results


# -- a phase's whole run: the frame the fault and lossy phases share ---------------------------

RUNS = (("sqlite", "venue"), ("sqlite", "gunicorn"), ("postgresql", "gunicorn"))
"""Each (database, server) pair a phase runs on, as ``--backend`` and ``--server`` choose."""


def add_run_choices(parser: argparse.ArgumentParser, *, backend: str, server: str) -> None:
    """``--backend`` and ``--server`` (with their defaults), ``--seed`` and the child's
    hidden options (``--phase``, ``--out``, ``--scratch``)."""
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default=backend)
    parser.add_argument("--server", choices=("venue", "gunicorn", "both"), default=server)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--phase", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)


def child_options(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    """The options a child run gets from the parent's: the seed, ``names``, a game target."""
    options = ["--seed", str(args.seed)]
    for name in names:
        options += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    if args.game_target:
        options += ["--game-target", str(args.game_target)]
    return options


def report_runs(
    args: argparse.Namespace,
    *,
    name: str,
    bar: str,
    run_phase: Callable[[argparse.Namespace], int],
    run_all: Callable[[list[tuple[str, str]], argparse.Namespace, str], list[dict[str, Any]]],
    print_result: Callable[[dict[str, Any]], None],
) -> int:
    """A phase's ``main``: in a child (``--phase``), its one run; in the parent, each run
    that ``--backend`` and ``--server`` choose, printed, then the report written to
    ``--report`` with whether every run met ``bar``. The exit status says the same."""
    import datetime
    import random

    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1_000_000)
    if args.phase:
        return run_phase(args)
    runs = [
        (backend, server)
        for backend, server in RUNS
        if args.backend in (backend, "both") and args.server in (server, "both")
    ]
    report: dict[str, Any] = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "bar": bar,
        "runs": [],
    }
    with tempfile.TemporaryDirectory(prefix=f"ginclub-{name}-") as scratch:
        for result in run_all(runs, args, scratch):
            report["runs"].append(result)
            print_result(result)
    report["pass"] = bool(report["runs"]) and all(run["pass"] for run in report["runs"])
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{'bar met' if report['pass'] else 'BAR MISSED'} · report: {args.report}")
    return 0 if report["pass"] else 1
