"""``ginclub --data DIR`` (and ``--backups DIR``) before any command, and after ``venue``,
``backup`` and ``restore`` as before (issue 44: ``ginclub --data DIR manage …`` said
"unrecognized arguments")."""

from __future__ import annotations

from config.cli import with_command
from tests.test_deploy import run

SHOW = "from django.conf import settings; print(settings.DATA_DIR); print(settings.BACKUP_DIR)"


def test_data_and_backups_before_manage_reach_the_settings(tmp_path):
    data, backups = tmp_path / "data", tmp_path / "usb"
    done = run(
        [
            "-m",
            "config.cli",
            "--data",
            str(data),
            f"--backups={backups}",
            "manage",
            "shell",
            "-c",
            SHOW,
        ]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == [str(data), str(backups)]


def test_data_before_or_after_backup_backs_that_folder_up(tmp_path):
    data = tmp_path / "data"
    migrated = run(["-m", "config.cli", "--data", str(data), "manage", "migrate", "-v", "0"])
    assert migrated.returncode == 0, migrated.stderr
    after = run(
        ["-m", "config.cli", "backup", "--data", str(data), "--backups", str(tmp_path / "a")]
    )
    before = run(
        ["-m", "config.cli", "--data", str(data), "--backups", str(tmp_path / "b"), "backup"]
    )
    assert after.returncode == before.returncode == 0, after.stderr + before.stderr
    assert len(list((tmp_path / "a").iterdir())) == len(list((tmp_path / "b").iterdir())) == 1


def test_the_venue_is_still_the_command_when_none_is_named():
    assert with_command([]) == ["venue"]
    assert with_command(["--port", "8123"]) == ["venue", "--port", "8123"]
    assert with_command(["--data", "D"]) == ["--data", "D", "venue"]
    assert with_command(["--data=D", "--port", "1"]) == ["--data=D", "venue", "--port", "1"]
    assert with_command(["--data", "D", "manage", "check"]) == ["--data", "D", "manage", "check"]
    assert with_command(["--version"]) == ["--version"]
