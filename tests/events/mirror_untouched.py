"""A mirror is the venue's alone (issue 43), after every round: the club's copy of the
night, as its director sees it, shows no control that would write to it (Round control,
Registration, a match sheet) and the venue's banner; a registry edit of one of its players
leaves it as the venue sent it (a private detail is saved without a line in its log; a
rename is refused). Each check is undone afterwards (a savepoint), as :mod:`.mirror` does."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.urls import reverse

from archive.export import export_tournament
from archive.restore import write_copy
from players import registry
from publishing.mirrors import forget_mirrored
from publishing.models import Mirror
from tournaments.models import Tournament

from .driver import Event
from .mirror import comparable
from .problems import Problem

POST_FORM = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>", re.I)
THE_VISITORS_OWN = re.compile(r"action=\"/(accounts/logout|i18n/setlang)/\"")


class _Undo(Exception):
    pass


def nobody(_player: Any) -> bool:
    """Nobody sees a player's private details in the export compared: they are the
    registry's (the club's), which a registry edit may change."""
    return False


def mirror_untouched(event: Event) -> list[Problem]:
    venue = event.tournament
    if venue.status == Tournament.Status.DRAFT:
        return []
    problems: list[Problem] = []
    try:
        with transaction.atomic():
            problems = _check(venue)
            raise _Undo
    except _Undo:
        pass
    finally:
        forget_mirrored()
    return problems


def _check(venue: Tournament) -> list[Problem]:
    keeper, _made = get_user_model().objects.get_or_create(
        username="club-keeper", defaults={"is_superuser": True, "is_staff": True}
    )
    copy = write_copy(export_tournament(venue), slug=f"{venue.slug}-kept", owned_by=keeper)
    Mirror.objects.create(tournament=copy, owner=keeper, venue="The venue")
    forget_mirrored()
    return _pages(copy, keeper) + _registry(copy, keeper)


def _pages(copy: Tournament, keeper: Any) -> list[Problem]:
    client = Client()
    client.force_login(keeper)
    paths = [
        reverse("tournaments:round-control", args=[copy.slug]),
        reverse("tournaments:entry-list", args=[copy.slug]),
    ]
    played = copy.matches.filter(hands__isnull=False).order_by("pk").first()
    if played is not None:
        paths.append(reverse("scoring:match-sheet", args=[copy.slug, played.pk]))
    problems = []
    for path in paths:
        body = client.get(path).content.decode()
        writes = [tag for tag in POST_FORM.findall(body) if not THE_VISITORS_OWN.search(tag)]
        problems += [Problem("mirror's page", path, f"a write control: {tag}") for tag in writes]
        if 'class="read-only-banner"' not in body:
            problems.append(Problem("mirror's page", path, "no banner of the venue"))
    return problems


def _registry(copy: Tournament, keeper: Any) -> list[Problem]:
    entry = copy.entries.order_by("pk").select_related("player").first()
    if entry is None:
        return []
    before = comparable(export_tournament(copy, shows_private=nobody))
    registry.update_player(player=entry.player, data={"notes": "kept at the club"}, user=keeper)
    problems = []
    try:
        registry.update_player(player=entry.player, data={"name": "Renamed"}, user=keeper)
        problems.append(Problem("registry", entry.player.name, "renamed a mirror's player"))
    except ValidationError:
        pass
    if comparable(export_tournament(copy, shows_private=nobody)) != before:
        problems.append(Problem("registry", entry.player.name, "an edit changed the mirror"))
    return problems
