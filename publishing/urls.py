from django.urls import path

from . import views

app_name = "publishing"

urlpatterns = [
    path("publish/changes/", views.changes, name="changes"),
]
