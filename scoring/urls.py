"""Match sheet and table-link URLs. ``/t/<slug>/matches/<id>/`` and ``/table/<token>/`` are
printed on scoresheets (QR codes) and must keep working (SPEC 8). The table link's own
URLs beside them (its button, calling the director) are :mod:`tables.urls`."""

from django.urls import path

from .views import clock, corrections, disputes, sheet, teams

app_name = "scoring"

MATCH = "t/<slug:slug>/matches/<int:match_id>/"
TABLE = "table/<str:token>/"

# (suffix, view, name): each is served under the match URL and under the table link.
SHARED = [
    ("", sheet.match_sheet, "match-sheet"),
    ("entry/", sheet.match_entry, "match-entry"),
    ("hands/", sheet.hand_create, "hand-create"),
    ("hands/preview/", sheet.hand_preview, "hand-preview"),
    ("hands/<int:number>/edit/", corrections.hand_edit, "hand-edit"),
    ("hands/<int:number>/delete/", corrections.hand_delete, "hand-delete"),
    ("confirm/", sheet.match_confirm, "match-confirm"),
    ("deals/", teams.deal_create, "deal-create"),
    ("deals/<int:number>/edit/", teams.deal_edit, "deal-edit"),
    ("deals/<int:number>/delete/", teams.deal_delete, "deal-delete"),
]

urlpatterns = [
    *(path(MATCH + suffix, view, name=name) for suffix, view, name in SHARED),
    *(path(TABLE + suffix, view, name=f"table-{name}") for suffix, view, name in SHARED),
    path("t/<slug:slug>/manage/dispute/", disputes.dispute, name="dispute"),
    path(
        "t/<slug:slug>/manage/stages/<int:stage_id>/time/",
        clock.stage_time,
        name="stage-time",
    ),
    path(
        "t/<slug:slug>/manage/matches/<int:match_id>/ruling/",
        clock.match_ruling,
        name="match-ruling",
    ),
]
