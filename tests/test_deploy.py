"""Production settings (SPEC 5): with the documented environment ``check --deploy`` finds
nothing to warn about, and development keeps its defaults. Each test runs a fresh Python,
since settings are read once per process."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(48),  # 64 characters
    "DJANGO_ALLOWED_HOSTS": "gin.example.org",
}
SETTINGS_NAMES = ["DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE"]


def run(args: list[str], **environment: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a fresh process, with none of this machine's settings variables."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GINCLUB_"))
        and k not in ("SITE_URL", "REDIS_URL", "DATABASE_URL", "SQLITE_PATH")
    }
    env.update(environment, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def settings_under(names: list[str] = SETTINGS_NAMES, **environment: str) -> dict[str, object]:
    """The values of the settings ``names`` in a fresh process with ``environment``."""
    script = (
        "import django, json; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {names!r}}}))"
    )
    result = run(["-c", script], **environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_reports_no_issues_with_the_production_environment():
    assert len(PRODUCTION["DJANGO_SECRET_KEY"]) >= 50
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNINGS" not in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    environment = {**PRODUCTION, "DJANGO_SECRET_KEY": ""}
    result = run(["manage.py", "check", "--deploy"], **environment)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_development_defaults_are_unchanged():
    development = settings_under()
    assert development["DEBUG"] is True
    assert development["SECURE_SSL_REDIRECT"] is False
    assert development["SESSION_COOKIE_SECURE"] is False
    assert "localhost" in development["ALLOWED_HOSTS"]


def test_server_side_cursors_can_be_switched_off_for_a_connection_pooler():
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default'].get('DISABLE_SERVER_SIDE_CURSORS', False))"
    )
    url = "postgres://gin@127.0.0.1:5432/gin"
    plain = run(["-c", script], DATABASE_URL=url)
    pooled = run(["-c", script], DATABASE_URL=url, DATABASE_DISABLE_SERVER_SIDE_CURSORS="1")
    assert (plain.stdout.strip(), pooled.stdout.strip()) == ("False", "True"), plain.stderr
