"""Who may do what. Every write view checks one of these on the server.

A *director* is a user allowed to create tournaments (the ``add_tournament`` permission,
granted in the admin or by ``seed_demo``); superusers count. Within a tournament the owner
and co-directors direct it, and its scorekeepers may enter and correct hands.
"""

from __future__ import annotations

from typing import Any

from .models import Tournament


def is_director(user: Any) -> bool:
    """May create tournaments and edit the club's player registry."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and (user.is_superuser or user.has_perm("tournaments.add_tournament"))
    )


def can_direct(user: Any, tournament: Tournament) -> bool:
    """Owner or co-director of ``tournament`` (or a superuser fixing data)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return tournament.co_directors.filter(pk=user.pk).exists()


def can_score(user: Any, tournament: Tournament) -> bool:
    """May enter and correct hands: a director of it or one of its scorekeepers."""
    if can_direct(user, tournament):
        return True
    return tournament.scorekeepers.filter(pk=user.pk).exists()
