"""``manage.py seed_demo``: a demo director and a living 16-player tournament.

Some first-round matches are finished and confirmed with realistic hands, one awaits
confirmation, others are in play, so a newcomer sees every state. ``--if-empty`` does
nothing when a tournament already exists (``make run`` uses it on every start).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from demo.hands import match_hands
from demo.stages import seed_stages_demo
from demo.teams import seed_team_event
from players.registry import set_registrar
from scoring.services import confirm_result, record_hand
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Player, Tournament

USERNAME = "director"
PASSWORD = "gin-rummy-demo"
NAMES = [
    "Ada Lovelace", "Bruno Díaz", "Carmen Ruiz", "Dmitri Volkov", "Elena Sánchez",
    "Farid Haddad", "Grace Hopper", "Héctor Gómez", "Ingrid Berg", "Jorge Peña",
    "Keiko Tanaka", "Lucía Fernández", "Marta Vidal", "Nicolás Ortega", "Olga Ivanova",
    "Pablo Herrera",
]  # fmt: skip


def ensure_director(username: str, password: str) -> tuple[Any, bool]:
    """The account ``username``, made with ``password`` if it is new, allowed to create
    tournaments; and whether it is new. A new one is the club's registrar too (the first
    account of a venue laptop keeps the player registry)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.save()
        set_registrar(account=user, registrar=True, via="first start")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    return user, created


class Command(BaseCommand):
    help = "Create a demo director account and a demo tournament with some matches played."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing if any tournament exists."
        )
        parser.add_argument(
            "--password",
            default=PASSWORD,
            help="The demo director's password when the account is new (the venue server "
            "gives a random one).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and Tournament.objects.exists():
            self.stdout.write("Demo data not loaded: there are tournaments already.")
            return
        with transaction.atomic():
            director, created = ensure_director(USERNAME, options["password"])
            call_command("seed_club_demo", USERNAME, *NAMES, stdout=self.stdout)  # club history
            tournament = self._tournament(director)
            self._play(tournament, director)
            seed_team_event(director)
            seed_stages_demo(director)
        self.stdout.write(self.style.SUCCESS(f"Demo tournament: /t/{tournament.slug}/"))
        if created:
            self.stdout.write(
                f"Director log in: username {USERNAME!r}, password {options['password']!r}"
            )

    def _tournament(self, director: Any) -> Tournament:
        from engine import PRESETS

        tournament = Tournament.objects.create(
            name="Club Championship (demo)",
            date=datetime.date.today(),
            venue="Club room",
            owner=director,
            tables=6,
            rules=PRESETS["tournament"].to_dict(),
            status=Tournament.Status.REGISTRATION,
        )
        for seed, name in enumerate(NAMES, start=1):
            player, _ = Player.objects.get_or_create(
                name=name, defaults={"rating": 2000 - seed * 25}
            )
            Entry.objects.create(
                tournament=tournament, player=player, seed=seed, checked_in=True, paid=True
            )
        generate_bracket(tournament=tournament, user=director)
        return tournament

    def _play(self, tournament: Tournament, director: Any) -> None:
        rules = tournament.ruleset
        first_round = list(
            Match.objects.filter(tournament=tournament, section="winners", round=1).order_by(
                "position"
            )
        )
        for index, match in enumerate(first_round):
            if index < 5:  # finished and confirmed
                self._enter(match, match_hands(rules, seed=100 + index), director)
                confirm_result(match=match, user=director)
            elif index == 5:  # decided, waiting for the loser to sign
                self._enter(match, match_hands(rules, seed=200), director)
            else:  # in play
                self._enter(match, match_hands(rules, seed=300 + index, limit=6), director)
        for match in Match.objects.filter(tournament=tournament, section="winners", round=2):
            if match.has_both_sides and match.status == Match.Status.READY:
                self._enter(match, match_hands(rules, seed=400 + match.pk, limit=4), director)
                break

    def _enter(self, match: Match, hands: Any, director: Any) -> None:
        match.refresh_from_db()
        for number, hand in enumerate(hands, start=1):
            record_hand(match=match, number=number, data=hand, user=director)
