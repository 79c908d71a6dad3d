"""The Python interpreters on this machine that the package supports (3.11 and newer).

Looked up as ``python3.N`` on the PATH and, where pyenv keeps more versions than its
shims answer for, in ``$PYENV_ROOT/versions``; each one found is asked its version (a
pyenv shim for a version that is not selected fails, and is left out). Standard library
only: ``.ci/wheel_check`` and ``.ci/python_versions`` use it before anything is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SUPPORTED = ((3, 11), (3, 12), (3, 13), (3, 14))


def dotted(version: tuple[int, int]) -> str:
    """``(3, 13)`` as ``3.13``."""
    return f"{version[0]}.{version[1]}"


def _answers(executable: str, version: tuple[int, int]) -> bool:
    try:
        done = subprocess.run(
            [executable, "-c", "import sys; print(*sys.version_info[:2], sep='.')"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == dotted(version)


def _candidates(version: tuple[int, int]) -> list[str]:
    name = f"python{dotted(version)}"
    found = [shutil.which(name) or ""]
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    prefix = f"{dotted(version)}."
    if root.is_dir():
        found += [
            str(folder / "bin" / name)
            for folder in sorted(root.iterdir(), reverse=True)
            if folder.name.startswith(prefix) and (folder / "bin" / name).exists()
        ]
    return [candidate for candidate in found if candidate]


def find(version: tuple[int, int]) -> str | None:
    """An interpreter of ``version`` (major, minor) that runs, or None."""
    return next((path for path in _candidates(version) if _answers(path, version)), None)


def installed() -> dict[tuple[int, int], str]:
    """Every supported version found, oldest first, with its interpreter."""
    found = {version: find(version) for version in SUPPORTED}
    return {version: path for version, path in found.items() if path}
