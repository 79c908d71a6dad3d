"""A lossy loopback proxy: venue Wi-Fi between the simulated phones and the server.

:class:`LossyProxy` listens on 127.0.0.1 at a port of its own and relays each connection
to the server (one request a connection: the load client sends ``Connection: close``).
Each connection meets one fate, drawn when it is accepted:

- *dropped before*: the request is read and never forwarded; the phone gets a reset, and
  the server never hears of it;
- *dropped after*: the request is forwarded and the server's whole answer read (the
  server did its work and believes it answered); the phone gets a reset instead;
- *delayed*: everything else, held for a random 0 to ``max_delay`` seconds, part before
  the request is forwarded and the rest before the answer is relayed. A request held
  longer than the phone waits still reaches the server afterwards, as a late packet does.

Fates come from a seeded generator, or from ``cycle`` (a string of ``b``, ``a`` and
``.``, one character a connection in turn) when a test wants them fixed. Counts of each
fate are kept. It runs an asyncio loop in a thread of its own; :meth:`stop` ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

from .client import is_loopback

CHUNK = 65536
BEFORE, AFTER, DELAYED = "dropped before", "dropped after", "delayed"
FATES = (BEFORE, AFTER, DELAYED)


@dataclass
class Fates:
    """How many connections met each fate, and the delays given."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FATES, 0))
    delays: list[float] = field(default_factory=list)
    unreachable: int = 0
    """Connections the server refused (it never answered anything)."""


class LossyProxy:
    def __init__(
        self,
        upstream: tuple[str, int],
        *,
        drop_before: float = 0.05,
        drop_after: float = 0.05,
        max_delay: float = 5.0,
        seed: int = 0,
        cycle: str = "",
    ) -> None:
        if not is_loopback(upstream[0]):
            raise ValueError(f"the lossy proxy relays to loopback only, not {upstream[0]}")
        if cycle.strip("ba."):
            raise ValueError("a cycle is made of b (drop before), a (drop after) and .")
        self.upstream = upstream
        self.drop_before = drop_before
        self.drop_after = drop_after
        self.max_delay = max_delay
        self.cycle = cycle
        self.rng = random.Random(seed)
        self.fates = Fates()
        self.lock = threading.Lock()
        self.accepted = 0
        self.settled = 0
        """Connections whose relay has ended, whatever their fate."""
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        # The loop keeps only weak references to tasks, and a stream's protocol only a weak
        # one to its reader: a connection waiting on the server would be garbage-collected
        # mid-answer once the phone stopped sending. Its tasks are held here until done.
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- fates ---------------------------------------------------------------------------------

    def fate(self) -> tuple[str, float]:
        """The next connection's fate and, if delayed, its delay."""
        with self.lock:
            index = self.accepted
            self.accepted += 1
            if self.cycle:
                mark = self.cycle[index % len(self.cycle)]
                kind = {"b": BEFORE, "a": AFTER}.get(mark, DELAYED)
            else:
                roll = self.rng.random()
                if roll < self.drop_before:
                    kind = BEFORE
                elif roll < self.drop_before + self.drop_after:
                    kind = AFTER
                else:
                    kind = DELAYED
            delay = self.rng.uniform(0.0, self.max_delay) if kind == DELAYED else 0.0
            self.fates.counts[kind] += 1
            if kind == DELAYED:
                self.fates.delays.append(delay)
            return kind, delay

    def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for every connection to end (a request held past
        its phone's patience still reaches the server); how many are still open."""
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                open_now = self.accepted - self.settled
            if not open_now or time.monotonic() > deadline:
                return open_now
            time.sleep(0.05)

    def counts(self) -> dict[str, int]:
        with self.lock:
            return {**self.fates.counts, "server unreachable": self.fates.unreachable}

    def delays(self) -> list[float]:
        with self.lock:
            return list(self.fates.delays)

    # -- running -------------------------------------------------------------------------------

    def start(self) -> LossyProxy:
        self._thread = threading.Thread(target=self._run, name="lossy-proxy", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout=10) or not self.port:
            raise RuntimeError("the lossy proxy did not start")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> LossyProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._server = loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0, backlog=512)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            self._ready.set()
            loop.run_forever()
        finally:
            self._ready.set()
            if self._server is not None:
                self._server.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            with contextlib.suppress(Exception):
                loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    # -- one connection ------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            await self._relay(reader, writer, *self.fate())
        finally:
            with self.lock:
                self.settled += 1

    async def _relay(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, kind: str, delay: float
    ) -> None:
        try:
            if kind == BEFORE:
                await reader.read(CHUNK)  # the request leaves the phone, and is lost
                _reset(writer)
                return
            before = self.rng.uniform(0.0, delay) if delay else 0.0
            if before:
                await asyncio.sleep(before)
            try:
                up_reader, up_writer = await asyncio.open_connection(*self.upstream)
            except OSError:
                with self.lock:
                    self.fates.unreachable += 1
                _reset(writer)
                return
            try:
                pump = asyncio.ensure_future(_pump(reader, up_writer))
                self._tasks.add(pump)
                pump.add_done_callback(self._tasks.discard)
                answer = await _read_all(up_reader)  # the server closes after its answer
                pump.cancel()
            finally:
                up_writer.close()
            if kind == AFTER:
                _reset(writer)  # the server answered; the phone never hears it
                return
            if delay - before > 0:
                await asyncio.sleep(delay - before)
            writer.write(answer)
            await writer.drain()
            writer.close()
        except (OSError, asyncio.IncompleteReadError):
            _reset(writer)  # the phone gave up meanwhile: nothing to tell it


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The phone's bytes to the server, until the phone closes (or the answer is in)."""
    with contextlib.suppress(OSError):
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()


async def _read_all(reader: asyncio.StreamReader) -> bytes:
    chunks = []
    while data := await reader.read(CHUNK):
        chunks.append(data)
    return b"".join(chunks)


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a dropped Wi-Fi link looks to the phone."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
