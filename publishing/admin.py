"""The Django admin cannot change a mirror: a mirrored tournament's row, entries,
matches, hands and audit rows are shown there but neither changed nor deleted (every
write is its venue's), and no row is added to a mirror or moved into one.

The read-only middleware (:mod:`.mirrors`) covers the site's own URLs; this covers
/admin/. The lower apps register their admins knowing nothing of publishing (it stands
above them): here each of their admins is registered again as a subclass that refuses
a mirror's rows, through the documented ``has_change_permission`` and
``has_delete_permission`` (which Django's delete-selected action asks per row too) and
the form's ``clean``. Imported by the admin's autodiscovery after theirs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

import scoring.admin  # noqa: F401  (their admins registered first, to be wrapped here)
import tournaments.admin  # noqa: F401
from scoring.models import Hand
from tournaments.kept_elsewhere import refuse_in_mirrors, tournaments_of
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament

from .mirrors import refusal
from .models import Mirror

GUARDED = (Tournament, Entry, Match, Hand, AuditEntry)
"""The admin's models that belong to one tournament (the player registry is the club's,
but a mirror's players keep what the venue knows them by: :class:`MirrorPlayer`)."""


def tournament_of(obj: Any) -> int | None:
    """The id of the tournament ``obj`` (one of :data:`GUARDED`) belongs to, if any."""
    if isinstance(obj, Tournament):
        return obj.pk
    if isinstance(obj, Hand):
        return obj.match.tournament_id if obj.match_id else None
    return getattr(obj, "tournament_id", None)


def mirror_of(obj: Any) -> Mirror | None:
    tournament = tournament_of(obj)
    if tournament is None:
        return None
    return Mirror.objects.filter(tournament_id=tournament).first()


class MirrorForm(forms.ModelForm):
    """Refuses to save a row into a mirror (a new one, or one moved into it)."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        # What the row would belong to: the tournament or match chosen, else its own.
        target: Any = self.instance
        for name in ("tournament", "match"):
            if cleaned.get(name) is not None and not isinstance(target, Tournament):
                target = type(self.instance)(**{name: cleaned[name]})
        mirror = mirror_of(target)
        if mirror is not None:
            raise ValidationError(refusal(mirror.venue))
        return cleaned


class MirrorReadOnly(admin.ModelAdmin):
    """Mixed in before a model's own admin: a mirror's rows are view-only."""

    form = MirrorForm

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        if obj is not None and mirror_of(obj) is not None:
            return False
        return bool(super().has_change_permission(request, obj))

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        if obj is not None and mirror_of(obj) is not None:
            return False
        return bool(super().has_delete_permission(request, obj))


class MirrorPlayerForm(forms.ModelForm):
    """Refuses to change what a mirror shows of one of its players, or finds them by
    (:func:`tournaments.kept_elsewhere.refuse_in_mirrors`, as the registry's page does)."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.instance.pk is not None:
            saved = Player.objects.get(pk=self.instance.pk)
            refuse_in_mirrors(saved.name, tournaments_of(saved), changed=self.changed_data)
        return cleaned


class MirrorPlayer(admin.ModelAdmin):
    """Mixed in before the registry player's own admin."""

    form = MirrorPlayerForm


def guard(site: admin.AdminSite = admin.site) -> None:
    """Register each of :data:`GUARDED`'s admins again with :class:`MirrorReadOnly`
    first in its bases, and the player's with :class:`MirrorPlayer` (once)."""
    for model, mixin in [*((model, MirrorReadOnly) for model in GUARDED), (Player, MirrorPlayer)]:
        current = type(site.get_model_admin(model))
        if issubclass(current, mixin):
            continue
        site.unregister(model)
        site.register(model, type(current.__name__, (mixin, current), {}))


guard()
