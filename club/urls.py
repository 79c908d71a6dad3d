"""The club's URLs. ``/players/<id>/`` (a club player's page) and the CSV exports are a
stable interface: other sites link to them."""

from django.urls import path

from club.views import exports, ratings, seasons

app_name = "club"

urlpatterns = [
    path("players/<int:player_id>/", ratings.player_page, name="player"),
    path("t/<slug:slug>/ratings/", ratings.tournament_ratings, name="tournament-ratings"),
    path(
        "t/<slug:slug>/manage/entries/seed-by-club-rating/",
        ratings.seed_by_club_rating,
        name="seed-by-club-rating",
    ),
    path("t/<slug:slug>/standings.csv", exports.standings_csv, name="standings-csv"),
    path("t/<slug:slug>/matches.csv", exports.matches_csv, name="matches-csv"),
    path("seasons/", seasons.season_list, name="season-list"),
    path("seasons/new/", seasons.season_create, name="season-create"),
    path("seasons/<slug:slug>/", seasons.season_page, name="season"),
    path("seasons/<slug:slug>/edit/", seasons.season_edit, name="season-edit"),
    path("seasons/<slug:slug>/standings.csv", exports.season_csv, name="season-csv"),
    path("seasons/<slug:slug>/export.json", seasons.season_export, name="season-export"),
]
