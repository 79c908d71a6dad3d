"""``ginclub``: the one command a director runs, on Windows, macOS or Linux.

    ginclub venue [--port 8000] [--data DIR] [--backups DIR] [--no-demo] [--processes N]
                                the venue server (the default; ``make run``)
    ginclub dev [--port 8000]   Django's development server on 127.0.0.1 (``make dev``)
    ginclub backup              one backup of the database now
    ginclub restore FILE        put a backup back (stop the venue server first)
    ginclub manage ARGS…        any ``manage.py`` command
    ginclub deploy-check        what is wrong with this club server's settings, or "ready"
    ginclub --version           which build this is

``--data DIR`` and ``--backups DIR`` go before any command (``ginclub --data DIR manage
import_tournament …``), and after ``venue``, ``backup`` and ``restore`` as well.

The options become the environment that :mod:`config.settings` reads, before Django is
set up. Nothing here needs make, a shell or fork.
"""

from __future__ import annotations

import argparse
import errno
import locale
import os
import sys
from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    from config.paths import data_folder
    from config.version import VERSION

    parser = argparse.ArgumentParser(prog="ginclub", description="Gin rummy club tournaments.")
    parser.add_argument("--version", action="version", version=f"ginclub {VERSION}")
    data_help = f"the data folder (database, secret key); default {data_folder()}"
    backups_help = "where backups go, e.g. a USB stick"
    parser.add_argument("--data", help=data_help)
    parser.add_argument("--backups", help=backups_help)
    # After a command too, where they always were; not given there, they leave the
    # global ones alone (SUPPRESS: no default of None over a value given before).
    here = {"default": argparse.SUPPRESS}
    commands = parser.add_subparsers(dest="command")
    venue = commands.add_parser("venue", help="serve the tournament to the room (default)")
    dev = commands.add_parser("dev", help="development server on 127.0.0.1, DEBUG on")
    for sub in (venue, dev):
        sub.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    for sub in (venue, commands.add_parser("backup", help="back the database up now")):
        sub.add_argument("--data", help=data_help, **here)
        sub.add_argument("--backups", help=backups_help, **here)
    venue.add_argument("--no-demo", action="store_true", help="no demo tournament on first start")
    venue.add_argument(
        "--publish",
        metavar="URL",
        help="publish every tournament that is not a draft to the club's server at URL "
        "(its token in GINCLUB_PUBLISH_TOKEN)",
    )
    venue.add_argument(
        "--processes",
        type=int,
        help="serving processes (macOS, Linux); default one per CPU core, at most 4",
    )
    restore = commands.add_parser("restore", help="restore a backup (stop the server first)")
    restore.add_argument("file")
    restore.add_argument("--data", help=data_help, **here)
    restore.add_argument("--backups", help="where the replaced database is kept", **here)
    manage = commands.add_parser("manage", help="run a manage.py command")
    manage.add_argument("arguments", nargs=argparse.REMAINDER)
    commands.add_parser(
        "deploy-check", help="what is wrong with this club server's settings for the internet"
    )
    return parser


def _environment(options: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if getattr(options, "data", None):
        # A new folder is made, whichever command comes first (a venue's first start made
        # it by itself; `ginclub --data NEW manage migrate` could not open its database).
        os.environ["GINCLUB_DATA_DIR"] = os.path.abspath(options.data)
        os.makedirs(os.environ["GINCLUB_DATA_DIR"], exist_ok=True)
    if getattr(options, "backups", None):
        os.environ["GINCLUB_BACKUP_DIR"] = os.path.abspath(options.backups)
    if options.command == "venue":
        os.environ["GINCLUB_VENUE"] = "1"
        os.environ["GINCLUB_PORT"] = str(options.port)
        if options.publish:
            os.environ["GINCLUB_PUBLISH_URL"] = options.publish


def _speak_the_director_language() -> None:
    """Terminal messages in the laptop's language when the site speaks it."""
    from django.conf import settings
    from django.utils import translation

    name = os.environ.get("LANG") or (locale.getlocale()[0] or "")
    code = name.split(".")[0].replace("_", "-").lower()
    try:
        language = translation.get_supported_language_variant(code or settings.LANGUAGE_CODE)
    except LookupError:
        language = settings.LANGUAGE_CODE
    translation.activate(language)


COMMANDS = ("venue", "dev", "backup", "restore", "manage", "deploy-check")
GLOBAL_OPTIONS = ("--data", "--backups")


def with_command(arguments: list[str]) -> list[str]:
    """``arguments`` with ``venue`` put in where no command is named (``ginclub`` alone,
    ``ginclub --port 8123``, ``ginclub --data DIR``): after the global options."""
    at = 0
    while at < len(arguments):
        argument = arguments[at]
        if argument in GLOBAL_OPTIONS:
            at += 2
        elif argument.startswith(tuple(f"{name}=" for name in GLOBAL_OPTIONS)):
            at += 1
        else:
            break
    if at >= len(arguments) or arguments[at] not in (*COMMANDS, "-h", "--help", "--version"):
        return [*arguments[:at], "venue", *arguments[at:]]
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    arguments = with_command(list(sys.argv[1:] if argv is None else argv))
    options = _parser().parse_args(arguments)
    _environment(options)
    if options.command == "manage":
        from django.core.management import execute_from_command_line

        execute_from_command_line(["ginclub manage", *options.arguments])
        return 0
    if options.command == "deploy-check":
        from config.deploy_check import main as deploy_check

        return deploy_check()

    import django
    from django.core.management import call_command
    from django.core.management.base import CommandError

    django.setup()
    _speak_the_director_language()
    try:
        if options.command == "venue":
            return _venue(options.port, demo=not options.no_demo, processes=options.processes)
        if options.command == "dev":
            call_command("migrate", verbosity=0, interactive=False)
            call_command("seed_demo", if_empty=True)
            call_command("runserver", f"127.0.0.1:{options.port}")
        elif options.command == "backup":
            call_command("backup_database")
        elif options.command == "restore":
            call_command("restore_backup", options.file)
    except CommandError as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    return 0


def _venue(port: int, *, demo: bool, processes: int | None = None) -> int:
    from django.utils.translation import gettext as _

    from config.venue import serve

    try:
        serve(port=port, demo=demo, processes=processes)
    except KeyboardInterrupt:
        pass
    except OSError as error:
        if error.errno not in (errno.EADDRINUSE, errno.EACCES):
            raise
        sys.stderr.write(
            _(
                "error: cannot listen on port %(port)d (%(error)s). Is the server already "
                "running? Stop it, or choose another port: ginclub venue --port 8123"
            )
            % {"port": port, "error": error.strerror or error}
            + "\n"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
