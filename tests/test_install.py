"""Installing anywhere (issue 30): the build's version where a director and a bug report
see it, the site's files read through the installed package, the per-user data folder,
and the Python versions the package says it runs on.

The wheel itself, installed into a fresh virtualenv and serving from an empty folder, is
checked by ``.ci/wheel_check`` (``make wheel-check``, part of ``make test``)."""

from __future__ import annotations

import io
import json
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from config import cli, paths
from tests import test_deploy as deploy

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_version_is_the_distributions():
    from config.version import VERSION

    assert VERSION == metadata.version("ginclub") == PYPROJECT["project"]["version"]


def test_a_checkout_never_installed_reads_pyproject(monkeypatch):
    from config import version

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert version.installed_version() == PYPROJECT["project"]["version"]


def test_ginclub_version_prints_it_and_stops(capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == f"ginclub {metadata.version('ginclub')}"


@pytest.mark.django_db
def test_the_footer_says_which_build_it_is(client):
    page = client.get("/").content.decode()
    footer = page[page.index('<footer class="site-footer">') :]
    assert f"ginclub version {metadata.version('ginclub')}" in footer
    spanish = client.get("/", headers={"accept-language": "es"}).content.decode()
    assert f"ginclub versión {metadata.version('ginclub')}" in spanish


def test_python_311_to_313_are_supported():
    project = PYPROJECT["project"]
    assert project["requires-python"] == ">=3.11"
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in project["classifiers"]
    assert PYPROJECT["tool"]["ruff"]["target-version"] == "py311"  # the oldest one


# -- the site's files: through the installed package ------------------------------------------


def test_an_installed_package_reads_its_own_copy_of_the_site_files(tmp_path):
    package = tmp_path / "site-packages" / "config"
    for name in ("templates", "static", "locale"):
        (package / "site" / name).mkdir(parents=True)
    checkout = tmp_path / "checkout"
    assert paths.site_folder(package, checkout) == package / "site"


def test_the_checkout_reads_its_folders_beside_the_packages(tmp_path):
    package = tmp_path / "checkout" / "config"
    package.mkdir(parents=True)
    assert paths.site_folder(package, tmp_path / "checkout") == tmp_path / "checkout"


def test_settings_read_templates_static_files_and_translations_from_that_folder():
    from django.conf import settings

    folder = paths.SITE_FOLDER
    configured = (settings.TEMPLATES[0]["DIRS"], settings.STATICFILES_DIRS, settings.LOCALE_PATHS)
    assert configured == ([folder / "templates"], [folder / "static"], [folder / "locale"])
    assert (folder / "templates" / "base.html").is_file()
    assert (folder / "static" / "css" / "site.css").is_file()
    assert (folder / "locale" / "es" / "LC_MESSAGES" / "django.mo").is_file()


def test_the_build_copies_the_site_files_into_the_package():
    """setup.py's build step: templates, static files and compiled catalogues only."""
    sys.path.insert(0, str(ROOT))
    try:
        import setup
    finally:
        sys.path.remove(str(ROOT))
    copied = {str(source.relative_to(ROOT)): target for source, target in setup.site_files(ROOT)}
    assert copied["templates/base.html"] == Path("config/site/templates/base.html")
    assert copied["static/css/site.css"] == Path("config/site/static/css/site.css")
    mo = "locale/af/LC_MESSAGES/django.mo"
    assert copied[mo] == Path("config/site", mo)
    assert not any(name.endswith(".po") for name in copied)


# -- the data folder ---------------------------------------------------------------------------


def test_an_installed_package_keeps_its_data_in_the_users_own_folder(tmp_path, monkeypatch):
    import platformdirs

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    package = tmp_path / "site-packages" / "config"
    (package / "site").mkdir(parents=True)
    users_own = Path(platformdirs.user_data_dir("ginclub", appauthor=False))
    assert paths.data_folder(package, tmp_path) == users_own
    if sys.platform == "linux":  # where the environment names it
        assert users_own == tmp_path / "xdg" / "ginclub"


def data_dir(**environment: str) -> tuple[str, str]:
    """settings.DATA_DIR and the database's file in a fresh process with ``environment``."""
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATA_DIR); print(settings.DATABASES['default']['NAME'])"
    )
    result = deploy.run(["-c", script], **environment)
    assert result.returncode == 0, result.stderr
    folder, database = result.stdout.split()
    return folder, database


def test_the_checkout_keeps_its_data_folder(tmp_path):
    (tmp_path / "config").mkdir()
    assert paths.data_folder(tmp_path / "config", tmp_path) == tmp_path / "data"
    # make run, manage.py, gunicorn from a checkout: as before
    assert data_dir(XDG_DATA_HOME=str(tmp_path)) == (
        str(ROOT / "data"),
        str(ROOT / "data" / "db.sqlite3"),
    )


def test_data_overrides_the_folder(tmp_path):
    usb = tmp_path / "usb"
    assert data_dir(GINCLUB_DATA_DIR=str(usb)) == (str(usb), str(usb / "db.sqlite3"))


def test_the_banner_says_where_the_data_folder_is(settings, tmp_path):
    from config.venue import banner

    settings.VENUE_ADDRESSES = ["127.0.0.2"]
    settings.SITE_URL = ""
    settings.DATA_DIR = tmp_path / "ginclub"
    out = io.StringIO()
    banner(port=8123, password=None, out=out)
    assert f"Data folder: {tmp_path / 'ginclub'}" in out.getvalue()


def test_make_builds_the_distribution_and_make_test_checks_it():
    makefile = (ROOT / "Makefile").read_text()
    assert "\ndist:" in makefile and "-m build" in makefile
    assert "wheel-check" in makefile.split("\ntest:")[1].split("\n")[0]


# -- export.json ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_json_says_which_build_wrote_it():
    from archive.api import export_tournament
    from tests.factories import make_tournament

    document = export_tournament(make_tournament())
    assert document["ginclub_version"] == metadata.version("ginclub")
    json.dumps(document)


# -- the README and docs/ ---------------------------------------------------------------------


def test_the_readme_is_short_and_links_the_rest():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 120
    assert "Python 3.11, 3.12 or 3.13" in readme
    for step in ("py -m venv", "pipx install", "python3 -m venv", "make run", "make test"):
        assert step in readme, step
    linked = re.findall(r"\]\((docs/[^)]+)\)", readme)
    assert set(linked) >= {
        "docs/director.md",
        "docs/club-server.md",
        "docs/code.md",
        "docs/performance.md",
        "docs/rules.md",
    }
    for target in linked:
        assert (ROOT / target).is_file(), target


def test_the_docs_hold_what_left_the_readme():
    docs = ROOT / "docs"
    for name, heading in (
        ("director.md", "### Stages: a qualifying round and a cut"),
        ("director.md", "## Rule presets"),
        ("club-server.md", "# Running it for a club"),
        ("code.md", "## Dependencies and why"),
        ("code.md", "## The distribution"),
        ("performance.md", "**Followers.**"),
    ):
        assert heading in (docs / name).read_text(), (name, heading)
