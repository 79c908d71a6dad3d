"""``manage.py score_sheet FILE|-``: score a whole match from JSON (SPEC 3).

JSON in, JSON out. On bad input: nothing on stdout, one line on stderr, exit status 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from engine import ScoringError, score_request


class Command(BaseCommand):
    help = "Score a gin rummy match from a JSON file (or - for standard input) and print JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="JSON input file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            sheet = score_request(self._load(options["file"]))
        except ScoringError as error:
            self._fail(str(error))
        self.stdout.write(json.dumps(sheet.to_dict(), indent=1))

    def _load(self, name: str) -> object:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            self._fail(f"cannot read {name}: {getattr(error, 'strerror', None) or error}")
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            self._fail(f"invalid JSON: {error.msg} at line {error.lineno} column {error.colno}")
        except RecursionError:
            self._fail("invalid JSON: nested too deeply")

    def _fail(self, message: str) -> None:
        sys.stderr.write(f"error: {message}\n")
        sys.exit(1)
