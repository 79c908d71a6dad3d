"""The build step that puts the site's own files into the distribution.

Everything else about the package is in pyproject.toml. The templates, static files and
compiled translations (``templates/``, ``static/``, ``locale/*/LC_MESSAGES/*.mo``) sit
beside the packages in the checkout, where developers edit them; building a wheel copies
them into the ``config`` package as ``config/site/`` (setuptools' documented way of
extending a command: a ``build_py`` subclass in ``cmdclass``), and the installed site
reads them from there (:mod:`config.paths`). An editable install (``make``) copies
nothing: the checkout reads its own folders. The sdist carries the folders (MANIFEST.in),
so a wheel built from it is the same.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGED = Path("config", "site")
# The folders copied, and which of their files: the .po catalogues stay behind (the
# site reads the compiled .mo files).
FOLDERS = {"templates": "**/*", "static": "**/*", "locale": "*/LC_MESSAGES/*.mo"}


def site_files(root: Path = ROOT) -> Iterator[tuple[Path, Path]]:
    """Each file to copy (in ``root``) and where it goes, relative to the build folder."""
    for folder, pattern in FOLDERS.items():
        for source in sorted((root / folder).glob(pattern)):
            if source.is_file() and "__pycache__" not in source.parts:
                yield source, PACKAGED / source.relative_to(root)


class BuildWithSiteFiles(build_py):
    """``build_py``, then the site's files copied into the package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source, target in site_files():
            destination = Path(self.build_lib) / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithSiteFiles})
