"""Public pages speak the tournament's language unless the visitor chose one."""

from __future__ import annotations

import pytest
from django.conf import settings

from .helpers import ready_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def spanish_match():
    match = ready_match()
    match.tournament.language = "es"
    match.tournament.save(update_fields=["language"])
    return match


def test_match_sheet_and_table_link_use_the_tournament_language(client, spanish_match):
    for url in (
        f"/t/{spanish_match.tournament.slug}/matches/{spanish_match.pk}/",
        f"/table/{spanish_match.token}/",
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response["Content-Language"] == "es"
        assert '<html lang="es">' in response.content.decode()


def test_the_switcher_wins_over_the_tournament(client, spanish_match):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(f"/table/{spanish_match.token}/")
    assert response["Content-Language"] == "en"


def test_director_screens_keep_the_browser_language(client, spanish_match):
    client.force_login(spanish_match.tournament.owner)
    slug = spanish_match.tournament.slug
    response = client.get(f"/t/{slug}/manage/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "en"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Language"] == "es"


def test_language_switcher_sets_the_choice(client, spanish_match):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
