"""Django admin for data fixes. Routine work goes through the director's screens and the
services (which keep the bracket consistent and write the audit log); the admin does not."""

from __future__ import annotations

from django.contrib import admin

from .models import AuditEntry, Entry, Match, Player, Tournament


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "club_id", "rating"]
    search_fields = ["name", "email", "club_id", "phone"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "status", "owner", "bracket_kind"]
    list_filter = ["status", "bracket_kind"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["co_directors", "scorekeepers"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "checked_in", "paid", "withdrawn"]
    list_filter = ["tournament", "withdrawn", "checked_in"]
    search_fields = ["player__name", "tournament__name"]
    autocomplete_fields = ["player", "tournament"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
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
