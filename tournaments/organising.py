"""Organising a tournament: creating it, its details, format, rules and status, and who
may run it (co-directors, scorekeepers).

Keyword-only service functions, each atomic and audited, like :mod:`tournaments.services`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pairing.brackets import new_draw_seed
from web.unique import save_with_free_slug

from . import audit, services
from .models import Tournament
from .models.tournaments import BRACKET_FIELDS, DETAIL_FIELDS, unique_slug
from .public_version import changing

SETTINGS_FIELDS = (*DETAIL_FIELDS, *BRACKET_FIELDS)
ROLES = ("co_director", "scorekeeper")


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    return {name: data[name] for name in SETTINGS_FIELDS if name in data}


def create_tournament(*, owner: Any, data: dict[str, Any]) -> Tournament:
    """A new tournament in draft, owned by ``owner``; ``data`` as from TournamentForm."""
    with transaction.atomic():
        tournament = Tournament(owner=owner, **_settings(data))
        if "rules" in data and data["rules"] is not None:
            tournament.rules = data["rules"]
        if tournament.random_draw and tournament.draw_seed is None:
            tournament.draw_seed = new_draw_seed()
        tournament.full_clean(exclude=["slug"])
        save_with_free_slug(tournament, lambda: unique_slug(tournament.name))
        audit.record(
            tournament=tournament,
            action="tournament created",
            obj=tournament,
            after={**audit.snapshot(tournament, SETTINGS_FIELDS), "rules": tournament.rules},
            user=owner,
        )
    return tournament


def update_tournament(*, tournament: Tournament, data: dict[str, Any], user: Any) -> Tournament:
    """Change details, format and rules. Rules are refused once locked, the format once
    the bracket exists."""
    with changing(tournament.pk):
        # The tournament lock of the lock order (tournaments.movement), as a row to edit.
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        before = {**audit.snapshot(tournament, SETTINGS_FIELDS), "rules": tournament.rules}
        generated = tournament.matches.exists()
        new_rules = data.get("rules")
        if new_rules is not None and new_rules != tournament.rules:
            if tournament.rules_locked_at is not None:
                raise services.rules_locked_error(tournament)
            if (
                new_rules.get("team_size", 1) != tournament.rules.get("team_size", 1)
                and tournament.entries.exists()
            ):
                raise ValidationError(
                    _("Players or teams are entered: remove them before changing the team size.")
                )
            tournament.rules = new_rules
        for name, value in _settings(data).items():
            if generated and name in BRACKET_FIELDS:
                if value != getattr(tournament, name):
                    raise ValidationError(
                        _("The bracket has been generated: clear it before changing the format.")
                    )
                continue
            setattr(tournament, name, value)
        if tournament.random_draw and tournament.draw_seed is None and not generated:
            tournament.draw_seed = new_draw_seed()
        tournament.full_clean(exclude=["slug"])
        tournament.save()
        old, new = audit.changes(
            before, {**audit.snapshot(tournament, SETTINGS_FIELDS), "rules": tournament.rules}
        )
        if new:
            audit.record(
                tournament=tournament,
                action="tournament edited",
                obj=tournament,
                before=old,
                after=new,
                user=user,
            )
        if generated and ("tables" in new or new.get("auto_call")):
            services.assign_tables(tournament=tournament, user=user)
    return tournament


def set_status(*, tournament: Tournament, status: str, user: Any) -> Tournament:
    """Draft ⇄ registration by hand; running and finished follow the bracket."""
    allowed = {Tournament.Status.DRAFT, Tournament.Status.REGISTRATION}
    with changing(tournament.pk):
        # The tournament lock of the lock order (tournaments.movement), as a row to edit.
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        if status not in allowed or tournament.status not in allowed:
            raise ValidationError(
                _("Only a tournament without a bracket can move between draft and registration.")
            )
        if tournament.status != status:
            before = tournament.status
            tournament.status = status
            tournament.save(update_fields=["status", "updated"])
            audit.record(
                tournament=tournament,
                action="status changed",
                obj=tournament,
                before={"status": before},
                after={"status": status},
                user=user,
            )
    return tournament


def add_role(*, tournament: Tournament, username: str, role: str, user: Any) -> Any:
    """Give an existing account a role in this tournament; returns that account."""
    if role not in ROLES:
        raise ValidationError(_("Unknown role."))
    User = get_user_model()
    with transaction.atomic():
        member = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
        if member is None:
            raise ValidationError(
                _("There is no active account with the username %(username)s.")
                % {"username": username.strip()}
            )
        if member.pk == tournament.owner_id:
            raise ValidationError(
                _("%(username)s is this tournament's director already.")
                % {"username": member.get_username()}
            )
        relation = tournament.co_directors if role == "co_director" else tournament.scorekeepers
        if relation.filter(pk=member.pk).exists():
            raise ValidationError(
                _("%(username)s already has this role.") % {"username": member.get_username()}
            )
        relation.add(member)
        audit.record(
            tournament=tournament,
            action="role added",
            obj=tournament,
            after={"role": role, "username": member.get_username()},
            user=user,
        )
    return member


def remove_role(*, tournament: Tournament, user_id: int, role: str, user: Any) -> None:
    if role not in ROLES:
        raise ValidationError(_("Unknown role."))
    with transaction.atomic():
        relation = tournament.co_directors if role == "co_director" else tournament.scorekeepers
        member = relation.filter(pk=user_id).first()
        if member is None:
            raise ValidationError(_("That account does not have this role."))
        relation.remove(member)
        audit.record(
            tournament=tournament,
            action="role removed",
            obj=tournament,
            before={"role": role, "username": member.get_username()},
            user=user,
        )
