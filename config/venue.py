"""The venue server: a laptop on the venue Wi-Fi serves the tournament to the room.

``ginclub venue`` (``make run``) sets the venue environment (see :mod:`config.settings`),
then :func:`serve` prepares the database (migrate, static files, on first start a
director account with a random password and the demo tournament), starts the backup
thread, prints the address phones use (and its QR code) and serves the site with
waitress, a production WSGI server in pure Python that runs on Windows, macOS and Linux
alike, on every IPv4 interface of the laptop.

One Python process computes on one CPU core at a time, and a full room (2,000 phones
following the page while the tables enter hands) needs them all. So on macOS and Linux
the listening socket is shared with more waitress processes, one per core
(:data:`MAX_PROCESSES` at most, ``--processes`` to choose): :mod:`config.venue_worker`,
started as ordinary commands (``subprocess``) that are handed the socket; the system
gives each new connection to whichever process takes it first. Only the first process
prepares the database, prints and takes backups; the others stop when it does. Windows
cannot hand a socket to another command this way and is served by the one process.

Nothing here forks or needs a shell.
"""

from __future__ import annotations

import io
import os
import secrets
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils.translation import gettext as _

from config import network

# The busiest moment of a club evening: a round is paired and a few people open their
# pages at once, each browser fetching a page and its files over up to six connections
# (the browsers' limit per server): eight browsers at once.
EVENING_BURST = 8 * 6
# A thread for each request of that burst, so the evening does not queue (waitress warns
# of every request that waits; config.logs.BusyServer says so in words when it happens).
# Threads that wait cost little: one Python process computes on one core anyway, and
# SQLite queues the writers. Each keeps its own database connection (CONN_MAX_AGE).
THREADS = EVENING_BURST
# Every phone following the tournament keeps a connection open between its polls: a
# full room (2,000 followers) and its tables. Beyond ~1,000 connections select() fails
# (FD_SETSIZE), so waitress polls with poll() where the system has it (not Windows), and
# the process may open as many files as its hard limit allows (Unix).
CONNECTION_LIMIT = 4000
USE_POLL = hasattr(select, "poll")
# Where there is no poll() (Windows), CPython's select() watches at most 512 sockets.
SELECT_CONNECTION_LIMIT = 450
# Connections waiting to be accepted, for a room whose phones all poll at once.
BACKLOG = 2048
# Serving processes at most (one per CPU core up to this many): beyond it, SQLite's one
# writer at a time and the shared cache decide, not the cores.
MAX_PROCESSES = 4
ADDRESS_CHECK_SECONDS = 15
# No 0/O or 1/l/i: the first-start password is read off a screen and typed.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_password() -> str:
    return "-".join("".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4)) for _ in range(3))


def prepare(*, demo: bool, out: TextIO) -> str | None:
    """Migrate, collect the static files and, on first start (no account yet), make the
    director's account and load the demo. Returns the new director's password, if any."""
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    if get_user_model().objects.exists():
        return None
    from demo.management.commands.seed_demo import USERNAME, ensure_director

    password = new_password()
    if demo:
        call_command("seed_demo", if_empty=True, password=password, stdout=io.StringIO())
    ensure_director(USERNAME, password)
    return password


def phone_url(addresses: list[str], port: int) -> str | None:
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + "/"
    return f"http://{addresses[0]}:{port}/" if addresses else None


def banner(*, port: int, password: str | None, out: TextIO) -> None:
    """The few lines a director needs: where phones go, how to log in, where data is."""
    addresses = settings.VENUE_ADDRESSES
    url = phone_url(addresses, port)
    write = out.write
    write("\n" + _("Gin club venue server is running.") + "\n\n")
    if url:
        write(_("Phones at the tables: join the venue Wi-Fi, then open") + f"\n    {url}\n")
        for other in addresses[1:]:
            write(
                _("  (on another network of this laptop: %(url)s)")
                % {"url": f"http://{other}:{port}/"}
                + "\n"
            )
        write(_("or scan this code:") + "\n")
        draw_qr(url, out)
    else:
        write(
            _(
                "This laptop is on no network yet: phones cannot connect until it joins the "
                "venue Wi-Fi (or a phone's hotspot). Then stop this server and start it again."
            )
            + "\n"
        )
    write(_("On this laptop: %(url)s") % {"url": f"http://127.0.0.1:{port}/"} + "\n")
    if password:
        write(
            "\n"
            + _("Director log-in (shown once, keep it): username %(user)s, password %(pw)s")
            % {"user": "director", "pw": password}
            + "\n"
        )
    write("\n" + _("Data folder: %(path)s") % {"path": settings.DATA_DIR})
    if connection.vendor == "sqlite":
        write("\n" + _("Database: %(path)s") % {"path": settings.DATABASES["default"]["NAME"]})
        write(
            "\n"
            + _("Backups: %(path)s (after every confirmed match and every %(minutes)d minutes)")
            % {"path": settings.BACKUP_DIR, "minutes": max(1, settings.BACKUP_INTERVAL // 60)}
        )
    write("\n" + _("Stop the server with Ctrl+C.") + "\n\n")
    out.flush()


def draw_qr(url: str, out: TextIO) -> None:
    """The phone address as a QR code in the terminal (half-block characters where the
    terminal takes UTF-8, plain blocks otherwise)."""
    compact = (getattr(out, "encoding", "") or "").lower().replace("-", "") == "utf8"
    try:
        segno.make(url, error="m").terminal(out=out, compact=compact, border=2)
    except (UnicodeError, OSError):
        out.write(_("(this terminal cannot draw the QR code)") + "\n")


def watch_addresses(initial: list[str], port: int, out: TextIO) -> threading.Event:
    """Tell the director when the laptop's network changes (it joined the Wi-Fi late, or
    moved to another one): phones need the new address, and a restart prints it."""
    stop = threading.Event()

    def run() -> None:
        known = list(initial)
        while not stop.wait(ADDRESS_CHECK_SECONDS):
            current = network.lan_addresses()
            if current == known:
                continue
            known = current
            shown = ", ".join(f"http://{address}:{port}/" for address in current) or "—"
            out.write(
                "\n"
                + _(
                    "The laptop's network changed (now %(addresses)s). Stop this server with "
                    "Ctrl+C and start it again so that phones and QR codes use the new address."
                )
                % {"addresses": shown}
                + "\n"
            )
            out.flush()

    threading.Thread(target=run, name="ginclub-addresses", daemon=True).start()
    return stop


def start_backups() -> Callable[[], None]:
    """The backup thread, for a SQLite database; returns what stops it."""
    if connection.vendor != "sqlite":
        return lambda: None
    from backups.scheduler import BackupScheduler

    scheduler = BackupScheduler(
        database=Path(settings.DATABASES["default"]["NAME"]),
        folder=settings.BACKUP_DIR,
        keep=settings.BACKUP_KEEP,
        interval=settings.BACKUP_INTERVAL,
    )
    scheduler.start()
    return scheduler.stop


def start_publishing(out: TextIO) -> Callable[[], None]:
    """The publishing thread (publishing.sending), always: it idles while there is no
    destination, so one saved from the venue's "Publish to the club's server" page takes
    effect without a restart. ``--publish URL`` stores the destination first. Returns what
    stops it."""
    from publishing import sending

    destination = sending.configure_from_environment()
    if destination is not None:
        if not destination.token:
            out.write("Publishing: GINCLUB_PUBLISH_TOKEN is not set; the club will refuse.\n")
        out.write(f"Publishing every tournament that is not a draft to {destination.url}\n")
    return sending.start()


def open_files(wanted: int) -> int:
    """Let this process open ``wanted`` files (sockets), up to the hard limit (Unix);
    returns the limit now in force (0 where the system sets none this way)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def server_options() -> dict[str, object]:
    """waitress's settings, the same in every serving process."""
    return {
        "threads": THREADS,
        "connection_limit": CONNECTION_LIMIT if USE_POLL else SELECT_CONNECTION_LIMIT,
        "asyncore_use_poll": USE_POLL,
        "backlog": BACKLOG,
        "ident": "ginclub",
        "clear_untrusted_proxy_headers": True,
    }


def can_share_socket() -> bool:
    """Whether other commands can be handed the listening socket (not on Windows)."""
    return os.name == "posix"


def process_count(asked: int | None = None) -> int:
    """How many processes serve: ``asked``, else one per CPU core up to
    :data:`MAX_PROCESSES`; always one where the socket cannot be shared."""
    if not can_share_socket():
        return 1
    if asked is not None:
        return max(1, asked)
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


def listener(port: int) -> socket.socket:
    """The listening socket on every IPv4 interface (an address in use raises OSError
    here, before anything is printed)."""
    return socket.create_server(("0.0.0.0", port), backlog=BACKLOG)


def start_workers(sock: socket.socket, count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` more processes serving ``sock`` (:mod:`config.venue_worker`). Each
    reads its standard input until this process closes it, or ends: then it stops too,
    even when this process was killed."""
    workers = []
    for _number in range(count):
        workers.append(
            subprocess.Popen(
                [sys.executable, "-m", "config.venue_worker", str(sock.fileno())],
                stdin=subprocess.PIPE,
                pass_fds=(sock.fileno(),),
                env=os.environ.copy(),
            )
        )
    return workers


def stop_workers(workers: list[subprocess.Popen[bytes]], grace: float = 5.0) -> None:
    for worker in workers:
        if worker.stdin is not None:
            worker.stdin.close()
    for worker in workers:
        try:
            worker.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def serve(
    *, port: int, demo: bool = True, processes: int | None = None, out: TextIO = sys.stdout
) -> None:
    import waitress

    sock = listener(port)
    password = prepare(demo=demo, out=out)
    from config.wsgi import application  # after collectstatic: whitenoise indexes the files

    stop_publishing = start_publishing(out)
    connection.close()  # the other processes open their own
    stop_backups = start_backups()
    stop_watching = watch_addresses(settings.VENUE_ADDRESSES, port, out)
    banner(port=port, password=password, out=out)
    open_files(CONNECTION_LIMIT + 256)
    workers = start_workers(sock, process_count(processes) - 1)
    try:
        waitress.serve(application, sockets=[sock], **server_options())
    finally:
        stop_workers(workers)
        stop_watching.set()
        stop_backups()
        stop_publishing()
