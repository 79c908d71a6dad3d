"""Two (or more) of the same thing at the same moment: each in a thread with its own
database connection, made ready first, then released together by one barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connection

T = TypeVar("T")


def at_once(ready: Callable[[int], T], go: Callable[[T], Any], count: int = 2) -> list[Any]:
    """``go(ready(i))`` in ``count`` threads, ``ready`` (a client logged in, say) before
    the barrier and ``go`` (the POST) after it; their answers in order. Any exception in
    a thread fails the caller."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            prepared = ready(index)
            barrier.wait(timeout=10)
            answers[index] = go(prepared)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return answers
