"""The archive's URL. ``/t/<slug>/export.json`` is a stable interface (SPEC 8)."""

from django.urls import path

from . import views

app_name = "archive"

urlpatterns = [
    path("t/<slug:slug>/export.json", views.export_view, name="tournament-export"),
]
