from django.urls import path

from . import views

app_name = "publishing"

urlpatterns = [
    path("publish/changes/", views.changes, name="changes"),
    path("t/<slug:slug>/manage/publish-as/", views.publish_as, name="publish-as"),
]
