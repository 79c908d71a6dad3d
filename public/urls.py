"""Public tournament URLs. ``/t/<slug>/``, ``/t/<slug>/display/`` and
``/t/<slug>/standings.json`` are a stable interface (SPEC 8): shared links and the
projector keep pointing at them."""

from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("t/<slug:slug>/", views.tournament_page, name="tournament"),
    path("t/<slug:slug>/standings.json", views.standings_json, name="standings-json"),
    path("t/<slug:slug>/display/", views.display, name="display"),
]
