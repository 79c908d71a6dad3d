"""Match sheet and table-link URLs. ``/t/<slug>/matches/<id>/`` and ``/table/<token>/`` are
printed on scoresheets (QR codes) and must keep working (SPEC 8)."""

from django.urls import path

from . import corrections, disputes, team_views, time_views, views

app_name = "scoring"

MATCH = "t/<slug:slug>/matches/<int:match_id>/"
TABLE = "table/<str:token>/"

# (suffix, view, name): each is served under the match URL and under the table link.
SHARED = [
    ("", views.match_sheet, "match-sheet"),
    ("entry/", views.match_entry, "match-entry"),
    ("hands/", views.hand_create, "hand-create"),
    ("hands/preview/", views.hand_preview, "hand-preview"),
    ("hands/<int:number>/edit/", corrections.hand_edit, "hand-edit"),
    ("hands/<int:number>/delete/", corrections.hand_delete, "hand-delete"),
    ("confirm/", views.match_confirm, "match-confirm"),
    ("deals/", team_views.deal_create, "deal-create"),
    ("deals/<int:number>/edit/", team_views.deal_edit, "deal-edit"),
    ("deals/<int:number>/delete/", team_views.deal_delete, "deal-delete"),
]

urlpatterns = [
    *(path(MATCH + suffix, view, name=name) for suffix, view, name in SHARED),
    *(path(TABLE + suffix, view, name=f"table-{name}") for suffix, view, name in SHARED),
    path(MATCH + "table-link/", views.table_link, name="table-link"),
    path("t/<slug:slug>/manage/dispute/", disputes.dispute, name="dispute"),
    path(
        "t/<slug:slug>/manage/stages/<int:stage_id>/time/",
        time_views.stage_time,
        name="stage-time",
    ),
    path(
        "t/<slug:slug>/manage/matches/<int:match_id>/ruling/",
        time_views.match_ruling,
        name="match-ruling",
    ),
]
