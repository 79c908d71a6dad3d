"""Which build this is, so that a director and a bug report can say: ``ginclub --version``,
the site's footer and the ``ginclub_version`` of every ``export.json``.

One source: ``version`` in ``pyproject.toml``, as the installed distribution's metadata
has it (a wheel, or the checkout's editable install, which ``make`` reinstalls whenever
pyproject.toml changes); a checkout run without being installed reads pyproject.toml."""

from __future__ import annotations

import tomllib
from importlib import metadata
from typing import TYPE_CHECKING

from config import paths

if TYPE_CHECKING:
    from django.http import HttpRequest


def installed_version() -> str:
    try:
        return metadata.version("ginclub")
    except metadata.PackageNotFoundError:  # a checkout, never installed
        pyproject = tomllib.loads((paths.CHECKOUT / "pyproject.toml").read_text())
        return str(pyproject["project"]["version"])


VERSION = installed_version()


def context(request: HttpRequest) -> dict[str, str]:
    """Template context processor: ``ginclub_version`` on every page (the footer)."""
    return {"ginclub_version": VERSION}
