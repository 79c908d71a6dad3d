"""Small ``make_*`` helpers shared by every test package. Keyword-only, sensible defaults,
each returns saved objects. Pass only what the test is about."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from tournaments.models import Entry, Match, Player, Tournament

PASSWORD = "correct horse battery staple"
_counter = itertools.count(1)


def _n() -> int:
    return next(_counter)


def make_user(*, username: str | None = None, password: str = PASSWORD, **extra: Any):
    """A plain account (a scorekeeper, say). Its password is ``PASSWORD``."""
    User = get_user_model()
    return User.objects.create_user(username=username or f"user{_n()}", password=password, **extra)


def make_director(*, username: str | None = None, password: str = PASSWORD, **extra: Any):
    """A user allowed to create tournaments and edit the player registry."""
    user = make_user(username=username or f"director{_n()}", password=password, **extra)
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    return user


def make_registrar(*, director: bool = True, **extra: Any):
    """A user with the club's registrar role (and, unless told, a director too)."""
    user = make_director(**extra) if director else make_user(**extra)
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="manage_registry")
    )
    return user


def make_player(
    *,
    name: str | None = None,
    email: str = "",
    club_id: str = "",
    rating: int | None = None,
    **extra: Any,
) -> Player:
    return Player.objects.create(
        name=name or f"Player {_n()}", email=email, club_id=club_id, rating=rating, **extra
    )


def make_tournament(
    *,
    owner: Any = None,
    name: str | None = None,
    preset: str = "tournament",
    rules: dict[str, Any] | None = None,
    co_directors: tuple = (),
    scorekeepers: tuple = (),
    **extra: Any,
) -> Tournament:
    """A tournament (status "registration" unless told). ``rules`` are knob overrides on
    top of ``preset``."""
    from engine import resolve_rules

    extra.setdefault("status", Tournament.Status.REGISTRATION)
    tournament = Tournament.objects.create(
        owner=owner or make_director(),
        name=name or f"Club night {_n()}",
        rules=resolve_rules({"preset": preset, **(rules or {})}).to_dict(),
        **extra,
    )
    if co_directors:
        tournament.co_directors.add(*co_directors)
    if scorekeepers:
        tournament.scorekeepers.add(*scorekeepers)
    return tournament


def make_entries(
    *, tournament: Tournament, count: int, seeded: bool = True, **extra: Any
) -> list[Entry]:
    """``count`` new players entered in ``tournament``, seeded after the existing seeds
    (1..count in a new tournament) unless told not to."""
    from django.db.models import Max

    top = tournament.entries.aggregate(top=Max("seed"))["top"] or 0
    return [
        Entry.objects.create(
            tournament=tournament,
            player=make_player(),
            seed=top + i if seeded else None,
            **extra,
        )
        for i in range(1, count + 1)
    ]


def make_match(
    *,
    tournament: Tournament,
    key: str | None = None,
    a: Entry | None = None,
    b: Entry | None = None,
    **extra: Any,
) -> Match:
    """One stored match, for tests that want a hand-made bracket fragment."""
    n = _n()
    extra.setdefault("section", Match.Section.WINNERS)
    extra.setdefault("round", 1)
    extra.setdefault("position", n)
    if a is not None and b is not None:
        extra.setdefault("status", Match.Status.READY)
    return Match.objects.create(
        tournament=tournament, key=key or f"X{n}", side_a=a, side_b=b, **extra
    )


def make_bracket(
    *,
    tournament: Tournament | None = None,
    players: int = 8,
    user: Any = None,
    **tournament_fields: Any,
) -> Tournament:
    """A tournament with ``players`` seeded entries and its bracket generated."""
    from tournaments.draw import generate_bracket

    if tournament is None:
        tournament = make_tournament(**tournament_fields)
    make_entries(tournament=tournament, count=players)
    generate_bracket(tournament=tournament, user=user or tournament.owner)
    tournament.refresh_from_db()
    return tournament


def finish_match(match: Match, *, winner: str = "A", user: Any = None) -> Match:
    """Record a decided result and confirm it (as scoring would after the last hand)."""
    from tournaments.services import confirm_match, set_match_progress

    match.refresh_from_db()
    games = {"A": (3, 1), "B": (1, 3)}[winner]
    set_match_progress(
        match=match,
        score_a=games[0],
        score_b=games[1],
        total_a=900 if winner == "A" else 400,
        total_b=400 if winner == "A" else 900,
        decided_winner=winner,
        has_hands=True,
    )
    return confirm_match(match=match, user=user)


def tournament_url(name: str, tournament: Tournament, **kwargs: Any) -> str:
    """The director's page ``tournaments:<name>`` of ``tournament`` (or ``app:<name>``,
    another app's page of it: ``accounts:roles``)."""
    qualified = name if ":" in name else f"tournaments:{name}"
    return reverse(qualified, kwargs={"slug": tournament.slug, **kwargs})
