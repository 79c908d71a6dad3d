"""The table links' own URLs: the director's table-link button on a match sheet, the
players calling the director from their table link, the director's answer. Their paths
sit beside scoring's match and table-link URLs (``/t/<slug>/matches/<id>/…`` and
``/table/<token>/…``, printed on scoresheets: SPEC 8) and must keep working."""

from django.urls import path

from .views import calls, table_link

app_name = "tables"

urlpatterns = [
    path(
        "t/<slug:slug>/matches/<int:match_id>/table-link/",
        table_link.table_link,
        name="table-link",
    ),
    # The players call the director (table link only); the director answers and closes.
    path("table/<str:token>/call/", calls.call_director, name="table-call-director"),
    path("t/<slug:slug>/manage/calls/<int:call_id>/answer/", calls.call_answer, name="call-answer"),
    path("t/<slug:slug>/manage/calls/<int:call_id>/close/", calls.call_close, name="call-close"),
]
