"""The director's URLs: club-wide screens under /director/, one tournament's under
/t/<slug>/manage/. (/t/<slug>/ itself and the match and table URLs belong to scoring; the
player registry's, /director/players/, to players; the Directors and Roles pages to accounts.)"""

from django.urls import path

from . import views

app_name = "tournaments"

MANAGE = "t/<slug:slug>/manage/"

urlpatterns = [
    path("director/", views.dashboard, name="dashboard"),
    path("director/tournaments/new/", views.tournament_create, name="tournament-create"),
    path("director/rules-summary/", views.rules_summary_view, name="rules-summary"),
    path(MANAGE, views.tournament_setup, name="tournament-setup"),
    path(MANAGE + "status/", views.tournament_status, name="tournament-status"),
    path(MANAGE + "entries/", views.entry_list, name="entry-list"),
    path(MANAGE + "entries/add/", views.entry_add, name="entry-add"),
    path(MANAGE + "entries/add-many/", views.entry_add_many, name="entry-add-many"),
    path(MANAGE + "entries/add-team/", views.team_add, name="team-add"),
    path(MANAGE + "entries/new/", views.entry_new, name="entry-new"),
    path(
        MANAGE + "entries/seed-by-rating/", views.entry_seed_by_rating, name="entry-seed-by-rating"
    ),
    path(MANAGE + "entries/<int:entry_id>/seed/", views.entry_seed, name="entry-seed"),
    path(MANAGE + "entries/<int:entry_id>/flag/<str:field>/", views.entry_flag, name="entry-flag"),
    path(MANAGE + "entries/self-check-in/", views.entry_self_checkin, name="entry-self-checkin"),
    path(MANAGE + "entries/<int:entry_id>/withdraw/", views.entry_withdraw, name="entry-withdraw"),
    path(
        MANAGE + "entries/<int:entry_id>/reinstate/", views.entry_reinstate, name="entry-reinstate"
    ),
    path(MANAGE + "entries/<int:entry_id>/remove/", views.entry_remove, name="entry-remove"),
    path(MANAGE + "bracket/", views.bracket, name="bracket"),
    path(MANAGE + "bracket/generate/", views.bracket_generate, name="bracket-generate"),
    path(MANAGE + "bracket/clear/", views.bracket_clear, name="bracket-clear"),
    path(MANAGE + "rounds/", views.round_control, name="round-control"),
    path(MANAGE + "rounds/assign-tables/", views.tables_assign, name="tables-assign"),
    path(MANAGE + "matches/<int:match_id>/confirm/", views.match_confirm, name="match-confirm"),
    path(MANAGE + "matches/<int:match_id>/walkover/", views.match_walkover, name="match-walkover"),
    path(MANAGE + "matches/<int:match_id>/send/", views.match_send, name="match-send"),
    path(MANAGE + "stages/", views.stages_page, name="stages"),
    path(MANAGE + "stages/add/", views.stage_add, name="stage-add"),
    path(MANAGE + "stages/start/", views.stages_start, name="stages-start"),
    path(MANAGE + "stages/<int:stage_id>/remove/", views.stage_remove, name="stage-remove"),
    path(MANAGE + "stages/<int:stage_id>/pair/", views.stage_pair, name="stage-pair"),
    path(MANAGE + "stages/<int:stage_id>/close/", views.stage_close, name="stage-close"),
    path(MANAGE + "stages/<int:stage_id>/clock/", views.stage_clock, name="stage-clock"),
    path(
        MANAGE + "stages/<int:stage_id>/late-entry/",
        views.stage_late_entry,
        name="stage-late-entry",
    ),
    path(
        MANAGE + "matches/<int:match_id>/lucky-loser/",
        views.match_lucky_loser,
        name="match-lucky-loser",
    ),
    path(MANAGE + "audit/", views.audit_log, name="audit-log"),
]
