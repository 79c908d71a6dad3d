"""docs/club-server.md and the files it links (deploy/club/, issue 44): every linked file
exists, the systemd units parse and name the documented commands and environment file,
and the environment file lists every setting the app reads on a club's server. The
files themselves run in tests/load/test_club_server.py."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.load.cluster import exec_start

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "club-server.md"
DEPLOY = ROOT / "deploy" / "club"
ENV_FILE = "/etc/ginclub/ginclub.env"
# Read by the settings for the venue's laptop only, or by development.
VENUE_ONLY = {
    "GINCLUB_VENUE",
    "GINCLUB_PORT",
    "GINCLUB_ADDRESS",
    "GINCLUB_BACKUP_INTERVAL",
    "SQLITE_PATH",
}


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / name).read_text())
    return parser


def test_every_file_the_docs_link_exists():
    text = DOCS.read_text()
    links = re.findall(r"\]\((?!https?://|#)([^)\s]+)\)", text)
    assert len(links) >= 8, links
    missing = [link for link in links if not (DOCS.parent / link).resolve().exists()]
    assert missing == [], missing
    for path in DEPLOY.iterdir():
        assert f"deploy/club/{path.name}" in text, f"the docs never show {path.name}"


def test_the_node_unit_runs_the_documented_gunicorn_with_its_own_control_socket():
    service = unit("ginclub-node@.service")["Service"]
    assert service["EnvironmentFile"] == ENV_FILE
    command = exec_start(service["ExecStart"])
    assert command[:2] == ["/srv/ginclub/venv/bin/gunicorn", "config.wsgi:application"]
    assert command[command.index("--bind") + 1] == "127.0.0.1:%i"
    assert command[command.index("--control-socket") + 1] == "/run/ginclub-node-%i/gunicorn.ctl"
    assert service["RuntimeDirectory"] == "ginclub-node-%i"
    assert service["User"] == "ginclub"
    assert unit("ginclub-node@.service")["Install"]["WantedBy"] == "multi-user.target"
    docs = DOCS.read_text()
    assert "/srv/ginclub/venv/bin/gunicorn config.wsgi:application" in docs
    assert "systemctl enable --now ginclub-node@8001 ginclub-node@8002" in docs


def test_the_backup_units_run_the_documented_dump_every_night():
    service = unit("ginclub-backup.service")["Service"]
    assert service["EnvironmentFile"] == ENV_FILE
    assert service["ExecStart"] == "/usr/local/bin/ginclub-pg-backup"
    assert service["Type"] == "oneshot"
    timer = unit("ginclub-backup.timer")
    assert timer["Timer"]["OnCalendar"] and timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"
    docs = DOCS.read_text()
    assert "systemctl enable --now ginclub-backup.timer" in docs
    assert "install -m 755 deploy/club/ginclub-pg-backup /usr/local/bin/" in docs
    assert "pg_dump --format=custom" in (DEPLOY / "ginclub-pg-backup").read_text()


def test_the_environment_file_lists_every_setting_the_app_reads_and_the_docs_name_them():
    text = (DEPLOY / "ginclub.env.example").read_text()
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))
    settings = (ROOT / "config" / "settings.py").read_text()
    read = set(
        re.findall(
            r"""(?:environ(?:\.get)?[\[(]|env_bool\(|env_list\(|trusted_proxies\()"([A-Z_]+)\"""",
            settings,
        )
    )
    assert {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_TRUSTED_PROXIES"} <= read
    assert read - VENUE_ONLY - listed == set()
    assert "DJANGO_SECURE_SSL_REDIRECT" not in read | listed  # no setting only the tests used
    docs = DOCS.read_text()
    unnamed = [name for name in listed if f"`{name}" not in docs]
    assert unnamed == [], unnamed


def test_systemd_finds_nothing_wrong_with_the_units_but_the_programs_not_installed_here():
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze here")
    names = ["ginclub-node@.service", "ginclub-backup.service", "ginclub-backup.timer"]
    done = subprocess.run(
        ["systemd-analyze", "verify", *(f"./{name}" for name in names)],
        cwd=DEPLOY,
        capture_output=True,
        text=True,
        timeout=60,
    )
    complaints = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if line.strip() and "is not executable: No such file or directory" not in line
    ]
    assert complaints == [], complaints
