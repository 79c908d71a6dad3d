"""The PDFs' URLs. The scoresheet and round pack paths are printed and shared (SPEC 8)."""

from django.urls import path

from . import views

app_name = "printing"

urlpatterns = [
    path(
        "t/<slug:slug>/matches/<int:match_id>/scoresheet.pdf",
        views.match_scoresheet,
        name="match-scoresheet",
    ),
    path(
        "t/<slug:slug>/rounds/<int:number>/scoresheets.pdf",
        views.round_scoresheets,
        name="round-scoresheets",
    ),
    path("t/<slug:slug>/bracket.pdf", views.bracket_pdf, name="bracket-pdf"),
    path("t/<slug:slug>/standings.pdf", views.standings_pdf, name="standings-pdf"),
    path(
        "t/<slug:slug>/stages/<int:stage>/rounds/<int:round>/pairings.pdf",
        views.pairings_pdf,
        name="pairings-pdf",
    ),
    path(
        "t/<slug:slug>/stages/<int:stage>/standings.pdf",
        views.stage_standings_pdf,
        name="stage-standings-pdf",
    ),
    path("t/<slug:slug>/prizes.pdf", views.prizes_pdf, name="prizes-pdf"),
    path("seasons/<slug:slug>/standings.pdf", views.season_pdf, name="season-pdf"),
]
