"""Public tournament URLs. ``/t/<slug>/``, ``/t/<slug>/display/`` and
``/t/<slug>/standings.json`` are a stable interface (SPEC 8): shared links and the
projector keep pointing at them."""

from django.urls import path

from . import pdf_views, public

app_name = "public"

urlpatterns = [
    path("t/<slug:slug>/", public.tournament_page, name="tournament"),
    path("t/<slug:slug>/standings.json", public.standings_json, name="standings-json"),
    path("t/<slug:slug>/display/", public.display, name="display"),
    path("t/<slug:slug>/bracket.pdf", pdf_views.bracket_pdf, name="bracket-pdf"),
    path("t/<slug:slug>/standings.pdf", pdf_views.standings_pdf, name="standings-pdf"),
]
