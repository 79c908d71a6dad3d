"""``manage.py publish_token USERNAME [--label L]``: a publishing token for a director of
this (the club's) server. The token is printed alone on the last line; only its digest is
kept, so it cannot be shown again (make another, revoke the old)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from publishing.tokens import make_token
from tournaments.permissions import is_director


class Command(BaseCommand):
    help = "Make a publishing token for a director (printed alone on the last line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--label", default="", help="what the token is for, e.g. a laptop")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        user = User.objects.filter(**{User.USERNAME_FIELD: options["username"]}).first()
        if user is None or not user.is_active:
            raise CommandError(f"there is no active user {options['username']!r} here")
        if not is_director(user):
            raise CommandError(f"{options['username']!r} is not a director here")
        token, secret = make_token(user=user, label=options["label"])
        self.stdout.write(
            f"A publishing token for {user} ({token.prefix}…). Start the venue server with\n"
            "  GINCLUB_PUBLISH_TOKEN=<the token> ginclub venue --publish <this server's address>\n"
            "It is shown only now; keep it like a password."
        )
        self.stdout.write(secret)
