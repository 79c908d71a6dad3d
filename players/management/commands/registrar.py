"""``manage.py registrar``: the club's registrar role (see :mod:`players.registry`).

    manage.py registrar USERNAME            give the account the role
    manage.py registrar USERNAME --remove   take it away
    manage.py registrar --list              who has it (superusers always do)

A registrar edits every player of the registry and sees their contact details. Each change
is recorded in the registry's audit log.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import accounts_holding
from players.registry import REGISTRAR_CODENAME, set_registrar


class Command(BaseCommand):
    help = (
        "Give an account the club's registrar role (edit every player, see contact "
        "details), take it away, or list who has it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", nargs="?", help="the account")
        parser.add_argument("--remove", action="store_true", help="take the role away")
        parser.add_argument("--list", action="store_true", help="list the registrars")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if options["list"]:
            permission = Permission.objects.get(
                content_type__app_label="tournaments", codename=REGISTRAR_CODENAME
            )
            for account in accounts_holding(permission):
                self.stdout.write(account.get_username())
            return
        username = options["username"]
        if not username:
            raise CommandError("name the account, or use --list")
        account = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        if account is None:
            raise CommandError(f"there is no account {username!r}")
        granted = not options["remove"]
        changed = set_registrar(account=account, registrar=granted, via="manage.py registrar")
        if granted:
            done = "is now a registrar" if changed else "was a registrar already"
        else:
            done = "is no longer a registrar" if changed else "was no registrar"
            if account.is_superuser:
                done += " (but a superuser can do everything a registrar can)"
        self.stdout.write(f"{username} {done}.")
