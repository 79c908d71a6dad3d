from collections.abc import Iterable
from typing import Any

from django.contrib import admin

from tournaments.admin import PublicChangeAdmin

from .models import Hand


@admin.register(Hand)
class HandAdmin(PublicChangeAdmin):
    list_display = ("match", "number", "kind", "by", "deadwood", "defender_deadwood", "knock_card")
    list_filter = ("kind",)
    raw_id_fields = ("match", "entered_by")
    search_fields = ("match__tournament__name", "match__key")

    def tournament_ids(self, objects: Iterable[Any]) -> set[int]:
        return {hand.match.tournament_id for hand in objects}
