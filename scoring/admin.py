from django.contrib import admin

from .models import Hand


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "kind", "by", "deadwood", "defender_deadwood", "knock_card")
    list_filter = ("kind",)
    raw_id_fields = ("match", "entered_by")
    search_fields = ("match__tournament__name", "match__key")
