"""Where the site finds its own files and keeps its data, installed or in a checkout.

The templates, static files and compiled translations sit beside the packages in the
checkout (``templates/``, ``static/``, ``locale/``). Building the distribution copies them
into the package, as ``config/site/`` (``setup.py``: the wheel holds them there), so an
installed site reads its own copy through the installed package and nothing relative to
the folder it was started from. A checkout (an editable install: ``make run``, ``make
test``, ``manage.py``) has no ``config/site/`` and reads the folders beside the packages.

The data (the SQLite database, the secret key, the shared cache, the backups) goes to the
user's own data folder when installed, the operating system's usual place for it
(platformdirs: ``%LOCALAPPDATA%\\ginclub`` on Windows, ``~/Library/Application
Support/ginclub`` on macOS, ``~/.local/share/ginclub`` on Linux), and to ``data/`` in a
checkout, as before. ``ginclub venue --data DIR`` (``GINCLUB_DATA_DIR``) overrides both.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
# The folder the build copies the site's files into, inside this package.
PACKAGED = "site"


def installed(package: Path = PACKAGE) -> bool:
    """Whether this package was installed from a built distribution (wheel or sdist)."""
    return (package / PACKAGED).is_dir()


def site_folder(package: Path = PACKAGE, checkout: Path = CHECKOUT) -> Path:
    """The folder holding ``templates/``, ``static/`` and ``locale/``."""
    return package / PACKAGED if installed(package) else checkout


def data_folder(package: Path = PACKAGE, checkout: Path = CHECKOUT) -> Path:
    """The data folder when none is given."""
    if not installed(package):
        return checkout / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir("ginclub", appauthor=False))


SITE_FOLDER = site_folder()
