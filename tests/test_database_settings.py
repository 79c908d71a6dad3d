"""The database settings: an SQLite database named by ``SQLITE_PATH`` or by
``DATABASE_URL=sqlite:///…`` gets the same connection options (WAL, immediate
transactions, busy timeout), and a PostgreSQL URL is left as dj-database-url reads it.
Each test runs a fresh Python, since settings are read once per process."""

from __future__ import annotations

import json

import pytest

from tests.test_deploy import run, settings_under

SQLITE = "django.db.backends.sqlite3"


def database_under(tmp_path, **environment: str) -> dict[str, object]:
    names = ["DATABASES"]
    return settings_under(names, GINCLUB_DATA_DIR=str(tmp_path), **environment)["DATABASES"][
        "default"
    ]


@pytest.fixture
def database_file(tmp_path):
    return tmp_path / "a.sqlite3"


def test_a_sqlite_url_gets_the_same_settings_as_sqlite_path(tmp_path, database_file):
    by_path = database_under(tmp_path, SQLITE_PATH=str(database_file))
    by_url = database_under(tmp_path, DATABASE_URL=f"sqlite:///{database_file}")
    assert by_path["ENGINE"] == by_url["ENGINE"] == SQLITE
    assert by_path["NAME"] == by_url["NAME"] == str(database_file)
    assert by_url["OPTIONS"] == by_path["OPTIONS"]
    assert by_url["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "PRAGMA journal_mode=WAL" in by_url["OPTIONS"]["init_command"]
    # The test database is a file of its own (one per process), never the real one.
    assert by_url["TEST"]["NAME"].endswith(".sqlite3")
    assert by_url["TEST"]["NAME"] != str(database_file)
    # Connections kept between requests (opening one costs about a live poll), checked
    # before reuse, the same either way.
    assert by_url["CONN_MAX_AGE"] == by_path["CONN_MAX_AGE"] == 600
    assert by_url["CONN_HEALTH_CHECKS"] and by_path["CONN_HEALTH_CHECKS"]


def test_a_sqlite_url_connection_is_in_wal_mode_with_immediate_transactions(
    tmp_path, database_file
):
    script = (
        "import django, json; django.setup(); from django.db import connection; "
        "cursor = connection.cursor(); "
        "journal = cursor.execute('PRAGMA journal_mode').fetchone()[0]; "
        "timeout = cursor.execute('PRAGMA busy_timeout').fetchone()[0]; "
        "keys = cursor.execute('PRAGMA foreign_keys').fetchone()[0]; "
        "print(json.dumps([journal, timeout, keys, connection.transaction_mode, "
        "connection.settings_dict['OPTIONS']['transaction_mode']]))"
    )
    result = run(
        ["-c", script], GINCLUB_DATA_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{database_file}"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["wal", 20000, 1, "IMMEDIATE", "IMMEDIATE"]
    assert database_file.exists()


def test_a_postgresql_url_is_read_as_before(tmp_path):
    database = database_under(tmp_path, DATABASE_URL="postgres://gin:secret@127.0.0.1:5432/gin")
    expected = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "gin",
        "USER": "gin",
        "PASSWORD": "secret",
        "HOST": "127.0.0.1",
        "PORT": 5432,
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": False,
        "DISABLE_SERVER_SIDE_CURSORS": False,
    }
    assert {key: database.get(key) for key in expected} == expected
    # None of the SQLite options, and Django's own test database name.
    assert database["OPTIONS"] == {}
    assert not database["TEST"].get("NAME")
