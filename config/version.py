"""Which build this is, so that a director and a bug report can say: ``ginclub --version``,
the site's footer and the ``ginclub_version`` of every ``export.json``.

One source: ``version`` in ``pyproject.toml``, as the installed distribution's metadata
has it (a wheel, or the checkout's editable install, which ``make`` reinstalls whenever
pyproject.toml changes)."""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest

VERSION = metadata.version("ginclub")


def context(request: HttpRequest) -> dict[str, str]:
    """Template context processor: ``ginclub_version`` on every page (the footer)."""
    return {"ginclub_version": VERSION}
