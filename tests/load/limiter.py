"""How many wrong table-link guesses get through gunicorn's workers in 15 minutes.

Run ``python -m tests.load.limiter [--workers 3] [--guesses 200]``. In a scratch folder it
migrates a SQLite database (in a child process), starts gunicorn on 127.0.0.1 with
``--workers`` × 1 thread and its data folder (so its cache) there, then sends
``--guesses`` wrong table links (``GET /table/<random token>/``) one after another from
127.0.0.1. A 404 means the guess was looked up (it got through), a 429 that the limiter
turned it away. The whole run takes seconds, well inside the limiter's 15-minute window,
so "got through" is what one address gets through in 15 minutes: the limit (20) if every
worker sees the same count, up to ``workers`` times that if each keeps its own.

Prints one line and, with ``--out``, writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .servers import ROOT, gunicorn


def prepare() -> None:
    """Child process: migrate the scratch database; print the cache backend the server's
    settings (the same environment) give."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    print(settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1])


def guess(opener: urllib.request.OpenerDirector, base: str) -> int:
    """The status of one wrong table link (a token as long as a real one)."""
    try:
        with opener.open(f"{base}/table/{secrets.token_urlsafe(32)}/", timeout=30) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def measure(workers: int = 3, guesses: int = 200) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ginclub-limiter-") as folder:
        scratch = Path(folder)
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(
            DJANGO_DEBUG="1",  # base settings as in development; tests.load.settings: DEBUG off
            DJANGO_SETTINGS_MODULE="tests.load.settings",
            PYTHONPATH=str(ROOT),
            GINCLUB_DATA_DIR=str(scratch / "data"),
            SQLITE_PATH=str(scratch / "limiter.sqlite3"),
        )
        done = subprocess.run(
            [sys.executable, "-m", "tests.load.limiter", "--prepare"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"migrating the scratch database failed:\n{done.stderr[-4000:]}")
        cache = done.stdout.strip().splitlines()[-1]
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        log = scratch / "gunicorn.log"
        with gunicorn(env, workers=workers, threads=1, log=log) as base:
            statuses = [guess(opener, base) for _ in range(guesses)]
    other = sorted(set(statuses) - {404, 429})
    return {
        "workers": workers,
        "guesses": guesses,
        "got_through": statuses.count(404),
        "turned_away": statuses.count(429),
        **({"other_statuses": other} if other else {}),
        "cache": cache,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=200)
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        prepare()
        return 0
    result = measure(args.workers, args.guesses)
    print(
        f"{result['workers']} workers · {result['cache']} · {result['guesses']} wrong guesses:"
        f" {result['got_through']} got through (404), {result['turned_away']} turned away (429)"
        + (f", other statuses {result['other_statuses']}" if "other_statuses" in result else "")
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
