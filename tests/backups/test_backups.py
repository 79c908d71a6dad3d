"""Backups of the SQLite database: taken while it is written, rotated, checked, restored;
and the venue server's backup thread, which takes one after every confirmed match."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from django.db import connection

from backups.scheduler import BackupScheduler
from backups.sqlite import BackupError, backup, backups, inspect, restore
from scoring.services import record_hand
from tests.factories import finish_match, make_bracket
from tests.scoring.helpers import knock

# Backups copy a SQLite file; on PostgreSQL (CI's second run) the tests that back up the
# test database have nothing to copy.
sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="backups are of SQLite databases"
)


def live_database() -> Path:
    return Path(connection.settings_dict["NAME"])


def count(path: Path, table: str) -> int:
    reader = sqlite3.connect(path)
    try:
        return reader.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        reader.close()


@pytest.fixture
def site_database(transactional_db, tmp_path) -> Path:
    """A file copy of the test database: a real database of this site, with a tournament."""
    make_bracket(players=4)
    return backup(live_database(), tmp_path / "copy", keep=0)


def test_a_backup_taken_during_writes_is_whole_and_consistent(tmp_path):
    database = tmp_path / "live.sqlite3"
    writer = sqlite3.connect(database, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE hand (number INTEGER PRIMARY KEY, twin INTEGER NOT NULL)")
    stop = threading.Event()

    def write() -> None:
        number = 0
        while not stop.is_set():
            number += 1
            with writer:  # each hand and its twin in one transaction
                writer.execute("INSERT INTO hand VALUES (?, ?)", (number, number))
                writer.execute("UPDATE hand SET twin = ? WHERE number = ?", (-number, number))

    thread = threading.Thread(target=write)
    thread.start()
    try:
        taken = [backup(database, tmp_path / "backups", keep=3) for _ in range(5)]
    finally:
        stop.set()
        thread.join()
        writer.close()
    kept = backups(tmp_path / "backups")
    assert kept == sorted(taken[-3:], reverse=True)  # the newest three, newest first
    for path in kept:
        copy = sqlite3.connect(path)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        assert copy.execute("SELECT count(*) FROM hand WHERE twin != -number").fetchone() == (0,)
        copy.close()
    assert not list((tmp_path / "backups").glob(".*partial"))


@sqlite_only
def test_inspect_accepts_a_database_of_this_site(site_database):
    info = inspect(site_database)
    assert (info.tournaments, info.hands) == (1, 0)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda p: None, "There is no file", id="missing"),
        pytest.param(lambda p: p.write_text("hands,points\n1,25\n"), "not a SQLite", id="csv"),
        pytest.param(lambda p: p.write_bytes(b""), "not a SQLite", id="empty"),
    ],
)
def test_inspect_refuses_what_is_not_a_database(tmp_path, make, message):
    path = tmp_path / "backup.sqlite3"
    make(path)
    with pytest.raises(BackupError, match=message):
        inspect(path)


@sqlite_only
def test_inspect_refuses_a_truncated_backup(site_database, tmp_path):
    path = tmp_path / "truncated.sqlite3"
    path.write_bytes(site_database.read_bytes()[: 3 * 4096])
    with pytest.raises(BackupError, match="damaged"):
        inspect(path)


def test_inspect_refuses_another_programs_database(tmp_path):
    path = tmp_path / "recipes.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipe (name TEXT)")
    other.close()
    with pytest.raises(BackupError, match="not a backup of this site"):
        inspect(path)


@sqlite_only
def test_inspect_refuses_a_backup_from_a_newer_version(site_database):
    newer = sqlite3.connect(site_database)
    with newer:
        newer.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('scoring', '9999_from_the_future', '2030-01-01')"
        )
    newer.close()
    with pytest.raises(BackupError, match="newer version"):
        inspect(site_database)


@sqlite_only
def test_restore_replaces_the_database_and_keeps_what_it_replaced(site_database, tmp_path):
    live = tmp_path / "live.sqlite3"
    sqlite3.connect(live).execute("CREATE TABLE scratch (x)").connection.close()
    info, safety = restore(site_database, live, tmp_path / "backups")
    assert info.tournaments == 1 and count(live, "tournaments_tournament") == 1
    assert safety is not None and safety.name.startswith("before-restore-")
    assert count(safety, "scratch") == 0  # the old database, kept as it was


@sqlite_only
def test_a_refused_restore_changes_nothing(site_database, tmp_path):
    live = tmp_path / "live.sqlite3"
    live.write_bytes(site_database.read_bytes())
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(site_database.read_bytes()[:8192])
    with pytest.raises(BackupError):
        restore(bad, live, tmp_path / "backups")
    assert live.read_bytes() == site_database.read_bytes()
    assert not (tmp_path / "backups").exists()


@sqlite_only
def test_the_backup_thread_backs_up_after_each_confirmation(transactional_db, tmp_path):
    tournament = make_bracket(players=4)
    first, second = tournament.matches.filter(round=1).order_by("position")
    scheduler = BackupScheduler(database=live_database(), folder=tmp_path, keep=10, interval=3600)
    assert scheduler.tick() is not None  # one when the server starts
    assert scheduler.tick() is None  # nothing new

    finish_match(first)
    taken = scheduler.tick()
    assert taken is not None and count(taken, "tournaments_match WHERE status = 'complete'") == 1

    record_hand(match=second, number=1, data=knock(), user=None)
    assert scheduler.tick() is None  # a hand alone waits for the interval...
    scheduler.interval = 0
    taken = scheduler.tick()  # ...then it is backed up
    assert taken is not None and count(taken, "scoring_hand") == 1
    assert len(backups(tmp_path)) == 3
