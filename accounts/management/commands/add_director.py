"""``manage.py add_director NAME EMAIL`` (``ginclub manage add_director …``): another
account that may create tournaments, for a club with more than one director.

    ginclub manage add_director "Ola Nordmann" ola@example.com [--site http://ADDRESS:8000]
    ginclub manage add_director "Ada Lovelace" ada@example.com --administrator

``--administrator`` makes the club's first account on its server (docs/club-server.md):
a superuser too, who makes further directors and opens the admin. No password is ever
typed on the command line (it would stay in the shell's history).

The account has no password yet: the command prints its one-time set-password link (the
one the Roles and Directors pages show), to hand over. The link is absolute with
``SITE_URL`` or ``--site`` (the address phones use, as the venue server prints it);
otherwise it is the path to open on the server's address.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from accounts import services as accounts


class Command(BaseCommand):
    help = (
        "Make another account that may create tournaments and print its one-time set-password link."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the person's name")
        parser.add_argument("email", help="their email (it names the account)")
        parser.add_argument(
            "--site", default="", help="the site's address for the link, e.g. http://10.0.0.5:8000"
        )
        parser.add_argument(
            "--administrator",
            action="store_true",
            help="the club's administrator: also makes directors and opens the admin",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            director = accounts.create_director(
                name=options["name"],
                email=options["email"],
                via="manage.py add_director",
                administrator=options["administrator"],
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        link = accounts.set_password_url(director)
        site = options["site"].rstrip("/")
        if site and not settings.SITE_URL:
            link = site + link
        self.stdout.write(
            _(
                "Account %(username)s made: it may create tournaments once its password is "
                "chosen. One-time set-password link (works once, for a day):"
            )
            % {"username": director.get_username()}
        )
        if options["administrator"]:
            self.stdout.write(
                _("It is the club's administrator: it also makes directors and opens /admin/.")
            )
        self.stdout.write(f"    {link}")
        if not link.startswith("http"):
            self.stdout.write(
                _(
                    "Open it after the server's address (as the venue server prints it), or "
                    "run this again with --site http://ADDRESS:PORT."
                )
            )
