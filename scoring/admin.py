from collections.abc import Iterable
from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import F

from tournaments.admin import PublicChangeAdmin
from tournaments.models import Match

from .models import Hand


@admin.register(Hand)
class HandAdmin(PublicChangeAdmin):
    list_display = ("match", "number", "kind", "by", "deadwood", "defender_deadwood", "knock_card")
    list_filter = ("kind",)
    raw_id_fields = ("match", "entered_by")
    search_fields = ("match__tournament__name", "match__key")

    def tournament_ids(self, objects: Iterable[Any]) -> set[int]:
        return {hand.match.tournament_id for hand in objects}

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            # The match's version moves with its hands (pages keep sheets by it).
            Match.objects.filter(pk=obj.match_id).update(version=F("version") + 1)
            super().save_model(request, obj, form, change)

    def delete_model(self, request: Any, obj: Any) -> None:
        with transaction.atomic():
            Match.objects.filter(pk=obj.match_id).update(version=F("version") + 1)
            super().delete_model(request, obj)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        with transaction.atomic():
            matches = set(queryset.values_list("match_id", flat=True))
            Match.objects.filter(pk__in=matches).update(version=F("version") + 1)
            super().delete_queryset(request, queryset)
