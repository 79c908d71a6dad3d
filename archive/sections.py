"""The parts of the archive kept by apps above it: a tournament's money (``"money"``,
:mod:`money.copies`) and, in what a venue publishes, its seasons (``"seasons"``,
:mod:`club.copies`).

The archive stands below those apps and imports none of them; the settings name them
(``ARCHIVE_SECTIONS``: top-level key → module), as Django's own settings name the
middleware and backends it runs. Each module holds three functions, none importing the
archive:

- ``export(tournament, entry_index, *, published) -> value or None``: the part as JSON
  (None: not written). ``entry_index``: entry id → index in ``entries``; ``published``:
  the document goes to a club's server (:mod:`publishing`), which keeps nobody's payment.
- ``check(value, entries) -> checked``: the part read strictly (``entries``: how many
  entries the archive has); ``ValueError`` with one line saying what is wrong refuses it.
- ``write(checked or None, tournament, entries, *, copy_owner)``: the part written for a
  tournament whose entries are saved (``entries`` in archive order), what it held before
  replaced; None when the archive has no such part. ``copy_owner``: the owner of a copy
  (a mirror, :func:`archive.restore.write_copy`); None for an import.

A module may also name ``PRIVATE_ACTIONS``: audit actions whose rows, in a published
document, keep only their action (who paid, who bought in, and how much, stay at the
venue; the row stays, since the audit's rows are the publishing change numbers).

A document with a part is version 2 (:data:`archive.schema.VERSION`); one without is
version 1, as before them, so every older reader still reads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_module

from .schema import ArchiveError


@cache
def _modules() -> tuple[tuple[str, ModuleType], ...]:
    named = getattr(settings, "ARCHIVE_SECTIONS", {})
    return tuple((key, import_module(path)) for key, path in named.items())


def sections() -> Iterator[tuple[str, ModuleType]]:
    """Each part's top-level key and module, in the settings' order."""
    yield from _modules()


def keys() -> tuple[str, ...]:
    return tuple(key for key, _module in _modules())


def private_actions() -> frozenset[str]:
    return frozenset(
        action for _key, module in _modules() for action in getattr(module, "PRIVATE_ACTIONS", ())
    )


def export(tournament: Any, entry_index: dict[int, int], *, published: bool) -> dict[str, Any]:
    """The parts the tournament has, by key."""
    found = {}
    for key, module in sections():
        value = module.export(tournament, entry_index, published=published)
        if value is not None:
            found[key] = value
    return found


def check(data: dict[str, Any], entries: int) -> dict[str, Any]:
    """The parts of the document ``data``, each checked, by key."""
    checked = {}
    for key, module in sections():
        if key in data:
            try:
                checked[key] = module.check(data[key], entries)
            except ValueError as error:
                raise ArchiveError(f"archive.{key}: {error}") from None
    return checked


def write(checked: dict[str, Any], tournament: Any, entries: list[Any], *, copy_owner: Any) -> None:
    """Every part written (a part the document lacks: what the tournament held removed)."""
    for key, module in sections():
        module.write(checked.get(key), tournament, entries, copy_owner=copy_owner)
