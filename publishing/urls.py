from django.urls import path

from .views import changes, tokens, venue

app_name = "publishing"

urlpatterns = [
    path("publish/changes/", changes.changes, name="changes"),
    path("publish/tokens/", tokens.tokens, name="tokens"),
    path("publish/tokens/<int:token_id>/revoke/", tokens.token_revoke, name="token-revoke"),
    path("publish/destination/", venue.destination, name="destination"),
    path("publish/destination/stop/", venue.destination_stop, name="destination-stop"),
    path("t/<slug:slug>/manage/publish-as/", venue.publish_as, name="publish-as"),
]
