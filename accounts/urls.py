"""The accounts' URLs: the club's Directors page under /director/directors/, a
tournament's Roles page under /t/<slug>/manage/roles/."""

from django.urls import path

from .views import directors, roles

app_name = "accounts"

MANAGE = "t/<slug:slug>/manage/"

urlpatterns = [
    path("director/directors/", directors.directors, name="directors"),
    path("director/directors/new/", directors.director_create, name="director-create"),
    path("director/directors/add/", directors.director_add, name="director-add"),
    path("director/directors/link/", directors.director_link, name="director-link"),
    path(MANAGE + "roles/", roles.roles, name="roles"),
    path(MANAGE + "roles/add/", roles.role_add, name="role-add"),
    path(MANAGE + "roles/remove/", roles.role_remove, name="role-remove"),
    path(MANAGE + "roles/new/", roles.role_create, name="role-create"),
    path(MANAGE + "roles/link/", roles.role_link, name="role-link"),
]
