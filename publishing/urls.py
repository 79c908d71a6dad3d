from django.urls import path

from . import pages, views

app_name = "publishing"

urlpatterns = [
    path("publish/changes/", views.changes, name="changes"),
    path("publish/tokens/", pages.tokens, name="tokens"),
    path("publish/tokens/<int:token_id>/revoke/", pages.token_revoke, name="token-revoke"),
    path("publish/destination/", pages.destination, name="destination"),
    path("publish/destination/stop/", pages.destination_stop, name="destination-stop"),
    path("t/<slug:slug>/manage/publish-as/", views.publish_as, name="publish-as"),
]
