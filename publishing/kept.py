"""A value of the whole site kept in the shared cache with no expiry, worked out again
after it is forgotten (on a signal, when what it is made of changes): so a request that
asks pays no query. Publishing keeps two: the mirrored tournaments (:mod:`.mirrors`) and
whether this installation publishes (:mod:`.status`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")


class Kept(Generic[T]):
    def __init__(self, key: str, work: Callable[[], T]) -> None:
        self.key, self.work = key, work

    def __call__(self) -> T:
        found: T | None = cache.get(self.key)
        if found is None:
            found = self.work()
            cache.set(self.key, found, None)
        return found

    def forget(self) -> None:
        """Now, and again on commit (a process that looked in the meantime kept the value
        without the change)."""
        cache.delete(self.key)
        transaction.on_commit(lambda: cache.delete(self.key))
