"""How many password guesses a minute get through the log-in page of gunicorn's workers.

Run ``python -m tools.load.logins [--workers 3] [--seconds 60] [--threads 2]
[--path /admin/login/]``. In a scratch folder it migrates a SQLite database and makes the
director's account (in a child process, with the site's real password hashers, not the
fast ones the other load tests use), starts gunicorn on 127.0.0.1 with ``--workers`` × 1
thread, then for ``--seconds`` (or until ``--attempts``) posts wrong passwords for the
director from 127.0.0.1, from ``--threads`` threads at once. A 200 (the form again, "enter
a correct username and password") means the password was checked: the guess got through.
A 429 means the log-in limiter paused the pair: the guess that reached the limit was
checked too (its wrong password is what paused it), those after it were not. So "got
through" counts the 200s and that one guess; with several threads, guesses in flight when
the pause began were checked as well and answered 429, so it is a lower bound there.

Prints one line and, with ``--out``, writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .limiter import prepare_scratch, scratch_environment
from .servers import gunicorn

USERNAME = "director"
PASSWORD = "the-real-password-42"


def prepare() -> None:
    """Child process: migrate the scratch database and make the director's account."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USERNAME, "", PASSWORD)
    print(json.dumps({"ok": True}))


def opener_with_cookies() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({}),
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
    )


def csrf_token(opener: urllib.request.OpenerDirector, url: str) -> str:
    with opener.open(url, timeout=60) as reply:
        page = reply.read().decode()
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if not found:
        raise RuntimeError(f"no CSRF token on {url}")
    return found.group(1)


def attempt(opener: urllib.request.OpenerDirector, url: str, token: str, n: int) -> int:
    body = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": USERNAME,
            "password": f"wrong-guess-{n}",
            "next": "/",
        }
    ).encode()
    try:
        with opener.open(urllib.request.Request(url, data=body), timeout=120) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def measure(
    workers: int = 3,
    seconds: float = 60.0,
    *,
    threads: int = 2,
    attempts: int | None = None,
    path: str = "/accounts/login/",
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ginclub-logins-") as folder:
        scratch = Path(folder)
        env = scratch_environment(scratch, GINCLUB_LOAD_REAL_PASSWORDS="1")
        prepare_scratch(env, module="tools.load.logins")
        log = scratch / "gunicorn.log"
        with gunicorn(env, workers=workers, threads=1, log=log, timeout=120) as base:
            url = base + path
            opener = opener_with_cookies()
            token = csrf_token(opener, url)
            statuses: list[int] = []
            lock = threading.Lock()
            numbers = iter(range(10**9))
            start = time.monotonic()
            deadline = start + seconds

            def run() -> None:
                while time.monotonic() < deadline:
                    with lock:
                        if attempts is not None and len(statuses) >= attempts:
                            return
                        n = next(numbers)
                    code = attempt(opener, url, token, n)
                    with lock:
                        statuses.append(code)

            with ThreadPoolExecutor(threads) as pool:
                for future in [pool.submit(run) for _ in range(threads)]:
                    future.result()
            elapsed = time.monotonic() - start
    through = statuses.count(200) + min(1, statuses.count(429))
    other = sorted(set(statuses) - {200, 429})
    return {
        "path": path,
        "workers": workers,
        "threads": threads,
        "seconds": round(elapsed, 1),
        "attempts": len(statuses),
        "got_through": through,
        "turned_away": statuses.count(429),
        "through_per_minute": round(through * 60 / elapsed, 1),
        **({"other_statuses": other} if other else {}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--attempts", type=int)
    parser.add_argument("--path", default="/accounts/login/")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        prepare()
        return 0
    result = measure(
        args.workers, args.seconds, threads=args.threads, attempts=args.attempts, path=args.path
    )
    print(
        f"{result['path']} · {result['workers']} workers · {result['threads']} thread(s) · "
        f"{result['seconds']} s: {result['attempts']} wrong passwords, "
        f"{result['got_through']} checked, {result['turned_away']} answered 429: "
        f"{result['through_per_minute']} guesses a minute got through"
        + (f", other statuses {result['other_statuses']}" if "other_statuses" in result else "")
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
