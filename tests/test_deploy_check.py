"""``ginclub deploy-check`` (config/deploy_check.py, issue 44): "ready" on the documented
environment (deploy/club/ginclub.env.example, its secret key made), and one line naming
each thing wrong otherwise, with a non-zero exit."""

from __future__ import annotations

import secrets

from tests.test_deploy import run
from tools.load.cluster import documented_env


def documented(**changes: str) -> dict[str, str]:
    env = {**documented_env(), "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), **changes}
    return {key: value for key, value in env.items() if value != "-"}


def deploy_check(env: dict[str, str]) -> tuple[int, list[str]]:
    done = run(["-m", "config.cli", "deploy-check"], **env)
    assert not done.stderr, done.stderr
    return done.returncode, done.stdout.splitlines()


def test_the_documented_environment_is_ready():
    assert deploy_check(documented()) == (0, ["ready"])


def test_the_placeholder_secret_key_is_not():
    code, lines = deploy_check({**documented_env()})
    assert code == 1 and any("SECRET_KEY" in line for line in lines), lines


def test_debug_on_is_named_on_a_line_of_its_own():
    code, lines = deploy_check(documented(DJANGO_DEBUG="1"))
    assert code == 1
    assert any(line.startswith("DJANGO_DEBUG: DEBUG is on") for line in lines), lines
    assert "ready" not in lines


def test_each_missing_setting_is_one_line_naming_it():
    code, lines = deploy_check(
        documented(
            DJANGO_ALLOWED_HOSTS="*",
            DJANGO_CSRF_TRUSTED_ORIGINS="https://other.example.org",
            DJANGO_TRUSTED_PROXIES="-",
            DATABASE_URL="-",
            REDIS_URL="-",
            GINCLUB_BACKUP_DIR="-",
        )
    )
    assert code == 1
    named = sorted(line.split(":")[0] for line in lines)
    assert named == [
        "DATABASE_URL",
        "DJANGO_ALLOWED_HOSTS",
        "DJANGO_CSRF_TRUSTED_ORIGINS",
        "DJANGO_TRUSTED_PROXIES",
        "GINCLUB_BACKUP_DIR",
        "REDIS_URL",
    ], lines
    assert deploy_check(documented(SITE_URL="-"))[1] == [
        "SITE_URL: not set; the site's address, e.g. https://gin.example.org (QR codes, links)"
    ]
