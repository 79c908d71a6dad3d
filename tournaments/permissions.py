"""Who may do what. Every write view checks one of these on the server.

A *director* is a user allowed to create tournaments (the ``add_tournament`` permission,
granted in the admin or by ``seed_demo``); superusers count. Within a tournament the owner
and co-directors direct it, and its scorekeepers may enter and correct hands. The club's
administrator (:func:`is_club_admin`) makes further directors.

The player registry belongs to the club, and the club's *registrar* role (the
``manage_registry`` permission, ``manage.py registrar USERNAME``) looks after it: see
:mod:`players.registry` for who may read and change which player.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404

from .models import Player, Tournament

REGISTRAR_PERMISSION = "tournaments.manage_registry"


def _active(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def is_director(user: Any) -> bool:
    """May create tournaments, and add players to the registry and enter them."""
    return _active(user) and bool(user.is_superuser or user.has_perm("tournaments.add_tournament"))


def is_registrar(user: Any) -> bool:
    """May edit every player of the registry and see their contact details."""
    return _active(user) and bool(user.is_superuser or user.has_perm(REGISTRAR_PERMISSION))


def is_club_admin(user: Any) -> bool:
    """May make further directors (the Directors page, ``manage.py add_director``): a
    superuser, or a director who keeps the club's registry as well, which the first account
    of a venue laptop is (``seed_demo``'s ``ensure_director``)."""
    return _active(user) and bool(user.is_superuser or (is_director(user) and is_registrar(user)))


def may_use_registry(user: Any) -> bool:
    """May open the registry: a director or a registrar."""
    return is_director(user) or is_registrar(user)


def owns_player(user: Any, player: Player) -> bool:
    """May see ``player``'s email, phone and notes, and edit them: a registrar, or the
    director who added the player."""
    if is_registrar(user):
        return True
    return (
        player.created_by_id is not None
        and player.created_by_id == getattr(user, "pk", None)
        and is_director(user)
    )


def can_direct(user: Any, tournament: Tournament) -> bool:
    """Owner or co-director of ``tournament`` (or a superuser fixing data)."""
    if not _active(user):
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return tournament.co_directors.filter(pk=user.pk).exists()


def shown_to(user: Any, tournament: Tournament) -> Tournament:
    """``tournament``, unless it is a draft that ``user`` does not direct: a draft is not
    public yet, on any page, PDF, CSV or JSON of it (404, as if it did not exist)."""
    if tournament.status == Tournament.Status.DRAFT and not can_direct(user, tournament):
        raise Http404
    return tournament


def can_score(user: Any, tournament: Tournament) -> bool:
    """May enter and correct hands: a director of it or one of its scorekeepers."""
    if can_direct(user, tournament):
        return True
    return tournament.scorekeepers.filter(pk=user.pk).exists()
