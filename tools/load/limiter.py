"""How many wrong table-link guesses get through the server's workers in 15 minutes.

Run ``python -m tools.load.limiter [--workers 3] [--guesses 200] [--threads 8]``. In a
scratch folder it migrates a SQLite database and makes one match with a real table link
(in a child process), starts gunicorn on 127.0.0.1 with ``--workers`` × 1 thread and its
data folder (so its cache) there, then sends ``--guesses`` wrong table links
(``GET /table/<random token>/``) from 127.0.0.1, one after another or from ``--threads``
threads at once. Then it opens the real link from the same address, and sends one more
wrong link as another phone behind a proxy would (X-Forwarded-For: 198.51.100.77). A 404
means the guess was looked up (it got through), a 429 that the limiter turned it away.
The whole run takes seconds, well inside the limiter's 15-minute window, so "got through"
is what one address gets through in 15 minutes: the limit (20) if every worker sees the
same count and counts atomically, more if each keeps its own or concurrent guesses lose
updates.

``--redis`` starts a throwaway Redis on loopback for the shared cache (``REDIS_URL``)
instead of the file cache in the data folder. ``--forwarded-for`` sends that
X-Forwarded-For header with every guess (what a TLS proxy adds); ``--trusted-proxies``
sets ``DJANGO_TRUSTED_PROXIES`` for the server.

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .servers import ROOT, gunicorn, redis

# Behind a proxy, another phone's address (its proxy writes it into X-Forwarded-For).
ANOTHER_PHONE = "198.51.100.77"


def prepare() -> None:
    """Child process: migrate the scratch database and make one match with a table link;
    print the cache backend the server's settings (the same environment) give and the
    link's token, as JSON."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from tests.factories import make_entries, make_match, make_tournament

    call_command("migrate", verbosity=0, interactive=False)
    tournament = make_tournament()
    a, b = make_entries(tournament=tournament, count=2)
    match = make_match(tournament=tournament, a=a, b=b, table=1)
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(json.dumps({"cache": backend, "token": match.token}))


def status(
    opener: urllib.request.OpenerDirector, url: str, headers: dict[str, str] | None = None
) -> int:
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def guess(
    opener: urllib.request.OpenerDirector, base: str, headers: dict[str, str] | None = None
) -> int:
    """The status of one wrong table link (a token as long as a real one)."""
    return status(opener, f"{base}/table/{secrets.token_urlsafe(32)}/", headers)


def scratch_environment(scratch: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_TRUSTED_PROXIES")
    }
    env.update(
        DJANGO_DEBUG="1",  # base settings as in development; tools.load.settings: DEBUG off
        DJANGO_SETTINGS_MODULE="tools.load.settings",
        PYTHONPATH=str(ROOT),
        GINCLUB_DATA_DIR=str(scratch / "data"),
        SQLITE_PATH=str(scratch / "limiter.sqlite3"),
        **extra,
    )
    return env


def prepare_scratch(env: dict[str, str], module: str = "tools.load.limiter") -> dict[str, str]:
    """Run ``python -m MODULE --prepare`` (a migrated scratch database) in ``env``; its last
    line of output, as JSON."""
    done = subprocess.run(
        [sys.executable, "-m", module, "--prepare"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"preparing the scratch database failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(
    workers: int = 3,
    guesses: int = 200,
    *,
    threads: int = 1,
    forwarded_for: str | None = None,
    trusted_proxies: str | None = None,
    redis_url: str | None = None,
) -> dict[str, Any]:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    with tempfile.TemporaryDirectory(prefix="ginclub-limiter-") as folder:
        scratch = Path(folder)
        extra = {"DJANGO_TRUSTED_PROXIES": trusted_proxies} if trusted_proxies else {}
        if redis_url:
            extra["REDIS_URL"] = redis_url
        env = scratch_environment(scratch, **extra)
        prepared = prepare_scratch(env)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        log = scratch / "gunicorn.log"
        with gunicorn(env, workers=workers, threads=1, log=log) as base:
            if threads == 1:
                statuses = [guess(opener, base, headers) for _ in range(guesses)]
            else:
                with ThreadPoolExecutor(threads) as pool:
                    statuses = list(
                        pool.map(lambda _: guess(opener, base, headers), range(guesses))
                    )
            real_link = status(opener, f"{base}/table/{prepared['token']}/", headers)
            another = guess(opener, base, {"X-Forwarded-For": ANOTHER_PHONE})
    other = sorted(set(statuses) - {404, 429})
    return {
        "workers": workers,
        "threads": threads,
        "guesses": guesses,
        "got_through": statuses.count(404),
        "turned_away": statuses.count(429),
        **({"other_statuses": other} if other else {}),
        "real_link": real_link,
        "another_phone": another,
        "cache": prepared["cache"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="guessing threads at once")
    parser.add_argument("--forwarded-for", help="X-Forwarded-For header sent with each guess")
    parser.add_argument("--trusted-proxies", help="the server's DJANGO_TRUSTED_PROXIES")
    parser.add_argument("--redis", action="store_true", help="share a throwaway Redis")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        prepare()
        return 0
    options = {
        "threads": args.threads,
        "forwarded_for": args.forwarded_for,
        "trusted_proxies": args.trusted_proxies,
    }
    if args.redis:
        with redis() as url:
            result = measure(args.workers, args.guesses, redis_url=url, **options)
    else:
        result = measure(args.workers, args.guesses, **options)
    print(
        f"{result['workers']} workers · {result['threads']} guessing thread(s) · "
        f"{result['cache']} · {result['guesses']} wrong guesses:"
        f" {result['got_through']} got through (404), {result['turned_away']} turned away (429)"
        + (f", other statuses {result['other_statuses']}" if "other_statuses" in result else "")
        + f"; then the real link answered {result['real_link']}"
        + f", another phone's wrong link {result['another_phone']}"
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
