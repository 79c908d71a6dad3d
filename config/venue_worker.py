"""One more process serving the venue server's socket (macOS and Linux).

:func:`config.venue.serve` starts ``python -m config.venue_worker FD`` with the listening
socket as file descriptor ``FD`` and the venue environment; this process serves it with
the same waitress settings until the venue server closes this process's standard input
(it stops, or was killed), or Ctrl+C reaches the terminal's processes.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading


def _stop_with_the_venue_server() -> None:
    """Wait for the end of standard input, then end this process at once: the first
    process is gone or stopping, and nothing here holds what it must finish."""
    sys.stdin.buffer.read()
    os._exit(0)


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import waitress

    from config.venue import CONNECTION_LIMIT, open_files, server_options
    from config.wsgi import application  # sets Django up, once

    sock = socket.socket(fileno=int(argv[0]))
    threading.Thread(target=_stop_with_the_venue_server, daemon=True).start()
    open_files(CONNECTION_LIMIT + 256)
    with contextlib.suppress(KeyboardInterrupt):
        waitress.serve(application, sockets=[sock], **server_options())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
