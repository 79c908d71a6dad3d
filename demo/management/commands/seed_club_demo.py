"""``manage.py seed_club_demo DIRECTOR``: the demo club's history (see :mod:`demo.club`);
``seed_demo`` calls it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from demo.club import seed_history


class Command(BaseCommand):
    help = "Give the demo club a history: three finished club nights in one season."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("director", help="The username of the demo director.")
        parser.add_argument("names", nargs="+", help="The demo club's players' names.")

    def handle(self, *args: Any, **options: Any) -> None:
        director = get_user_model().objects.get(username=options["director"])
        season = seed_history(director, options["names"])
        self.stdout.write(self.style.SUCCESS(f"Demo season: /seasons/{season.slug}/"))
