"""The club's player registry, under /director/players/ (the paths it always had; its URL
names moved from the ``tournaments:`` namespace to ``players:``)."""

from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("director/players/", views.player_list, name="player-list"),
    path("director/players/new/", views.player_create, name="player-create"),
    path("director/players/<int:player_id>/edit/", views.player_edit, name="player-edit"),
    path("director/players/import/", views.player_import, name="player-import"),
    path("t/<slug:slug>/manage/entries/import/", views.entry_import, name="entry-import"),
]
