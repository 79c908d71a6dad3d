"""``manage.py verify_tournament SLUG``: check the bracket's shape, recompute every match
from its hands and report any stored summary that disagrees (:mod:`archive.verify`). It
changes nothing.

Exit status 0 when everything agrees, 1 when anything differs or the slug is unknown.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from archive.verify import verify
from engine import ScoringError
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Check a tournament's bracket, recompute every match from its hands and report any "
        "difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament, as in /t/<slug>/")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            self._fail(f"there is no tournament with the slug {options['slug']!r}")
        try:
            count, found = verify(tournament)
        except ScoringError as error:
            self._fail(f"the tournament's rules are not valid: {error}")
        for difference in found:
            self.stdout.write(str(difference))
        if found:
            matches = len({d.match for d in found})
            self.stdout.write(
                f"{len(found)} difference{'s' if len(found) != 1 else ''} "
                f"in {matches} of {count} matches."
            )
            sys.exit(1)
        self.stdout.write(f"All {count} matches agree with their hands.")

    def _fail(self, message: str) -> None:
        self.stderr.write(f"error: {message}")
        sys.exit(1)
