"""Public tournament URLs. ``/t/<slug>/``, ``/t/<slug>/display/``,
``/t/<slug>/standings.json`` and ``/t/<slug>/tables.json`` (issue 33) are a stable
interface (SPEC 8): shared links, the projector and checks outside keep pointing at them.
``/t/<slug>/find/`` and ``/t/<slug>/players/<entry>/`` are the players' own pages (issue
15); a player's page is meant to be bookmarked."""

from django.urls import path

from public.views import checkin, display, find, tables, tournament

app_name = "public"

urlpatterns = [
    path("t/<slug:slug>/", tournament.tournament_page, name="tournament"),
    path("t/<slug:slug>/standings.json", tournament.standings_json, name="standings-json"),
    path("t/<slug:slug>/tables.json", tables.tables_json, name="tables-json"),
    path("t/<slug:slug>/display/", display.display, name="display"),
    path("t/<slug:slug>/find/", find.find, name="find"),
    path("t/<slug:slug>/players/<int:entry_id>/", find.player, name="player"),
    path("t/<slug:slug>/players/<int:entry_id>/check-in/", checkin.check_in, name="self-check-in"),
]
