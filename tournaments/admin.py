"""Django admin for data fixes. Routine work goes through the director's screens and the
services (which keep the bracket consistent and write the audit log); the admin does not."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin
from django.db import transaction

from .models import AuditEntry, Entry, Match, Player, Tournament
from .public_version import changed


class PublicChangeAdmin(admin.ModelAdmin):
    """A fix made here shows on the public pages at once: every save and delete adds one
    to the public version of the tournaments it touches (:mod:`tournaments.public_version`)."""

    def tournament_ids(self, objects: Iterable[Any]) -> set[int]:
        """The tournaments whose public pages show ``objects``; override per model."""
        return {obj.tournament_id for obj in objects}

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            before = self.tournament_ids([type(obj).objects.get(pk=obj.pk)]) if change else set()
            super().save_model(request, obj, form, change)
            changed(*before, *self.tournament_ids([obj]))

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            changed(*self.tournament_ids([form.instance]))

    def delete_model(self, request: Any, obj: Any) -> None:
        with transaction.atomic():
            ids = self.tournament_ids([obj])
            super().delete_model(request, obj)
            changed(*ids)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        with transaction.atomic():
            ids = self.tournament_ids(queryset)
            super().delete_queryset(request, queryset)
            changed(*ids)


@admin.register(Player)
class PlayerAdmin(PublicChangeAdmin):
    list_display = ["name", "email", "club_id", "rating"]
    search_fields = ["name", "email", "club_id", "phone"]

    def tournament_ids(self, objects: Iterable[Any]) -> set[int]:
        players = [obj.pk for obj in objects if obj.pk is not None]
        return set(
            Entry.objects.filter(player_id__in=players).values_list("tournament_id", flat=True)
        )


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(PublicChangeAdmin):
    list_display = ["name", "date", "status", "owner", "bracket_kind"]
    list_filter = ["status", "bracket_kind"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["co_directors", "scorekeepers"]
    inlines = [EntryInline]

    def tournament_ids(self, objects: Iterable[Any]) -> set[int]:
        return {obj.pk for obj in objects if obj.pk is not None}


@admin.register(Entry)
class EntryAdmin(PublicChangeAdmin):
    list_display = ["player", "tournament", "seed", "checked_in", "paid", "withdrawn"]
    list_filter = ["tournament", "withdrawn", "checked_in"]
    search_fields = ["player__name", "tournament__name"]
    autocomplete_fields = ["player", "tournament"]


@admin.register(Match)
class MatchAdmin(PublicChangeAdmin):
    list_display = ["key", "tournament", "status", "table", "side_a", "side_b", "winner_side"]
    list_filter = ["status", "section", "tournament"]
    search_fields = ["key", "tournament__name"]
    raw_id_fields = ["side_a", "side_b", "next_match", "loser_next_match"]
    readonly_fields = ["token"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "tournament", "user", "via", "action", "object_type", "object_id"]
    list_filter = ["action", "tournament"]
    search_fields = ["action", "via", "object_id"]
    date_hierarchy = "at"

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False
