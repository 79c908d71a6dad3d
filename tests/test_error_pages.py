"""The error pages with DEBUG off: the site's look, what happened and what to do next,
never a traceback. Django's default handlers pick up templates/404.html and the rest."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from tables.table_links import set_table_link
from tests.scoring.helpers import ready_match

# What Django's debug pages and bare fallbacks say; none of it may reach a visitor.
TECHNICAL = (
    "Traceback",
    "Using the URLconf",
    "DEBUG = True",
    "Request Method",
    "<h1>Not Found</h1>",
)


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def page(response) -> str:
    html = response.content.decode()
    for text in TECHNICAL:
        assert text not in html
    assert 'class="site-header"' in html and "css/site.css" in html
    return html


@pytest.mark.django_db
def test_unknown_address_is_the_sites_404(client):
    response = client.get("/no/such/page/")
    html = page(response)
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in html
    assert "ask the director for a new sheet" in html
    assert 'href="/"' in html and f'href="{reverse("login")}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["x" * 30, "short", "a-stale-token-from-an-old-sheet-42"])
def test_bad_table_link_tells_the_player_to_ask_for_a_new_sheet(client, token):
    response = client.get(f"/table/{token}/")
    html = page(response)
    assert response.status_code == 404
    assert "This table link does not work" in html
    assert "Ask the director for a new sheet" in html
    # A player's page: nothing to log in to.
    assert reverse("login") not in html and "log in" not in html.lower()


@pytest.mark.django_db
def test_bad_table_link_in_spanish(client):
    client.cookies["django_language"] = "es"
    html = page(client.get(f"/table/{'y' * 30}/"))
    assert "Pide a la dirección una planilla nueva" in html
    assert "Ask the director" not in html


@pytest.mark.django_db
def test_the_old_link_of_a_renewed_sheet_gets_the_same_advice(client):
    match = ready_match()
    old = match.token
    set_table_link(match=match, action="renew", user=match.tournament.owner)
    response = client.get(f"/table/{old}/")
    assert response.status_code == 404 and "Ask the director for a new sheet" in page(response)


@pytest.mark.django_db
def test_forbidden_says_why_and_who_may(client):
    match = ready_match()
    url = reverse(
        "scoring:hand-edit",
        kwargs={"slug": match.tournament.slug, "match_id": match.pk, "number": 1},
    )
    response = client.get(url)
    html = page(response)
    assert response.status_code == 403
    assert "You may not do that here" in html
    assert "You may not enter hands in this match." in html  # the view's own reason
    assert f"{reverse('login')}?next=" in html


@pytest.mark.django_db
def test_bad_request_page(client):
    response = client.get("/", HTTP_HOST="not-our-host.example")
    html = page(response)
    assert response.status_code == 400
    assert "The site could not understand that request" in html


@pytest.mark.django_db
def test_expired_form_page():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("set_language"), {"language": "es"})
    html = page(response)
    assert response.status_code == 403
    assert "The form has expired" in html and "Nothing was saved" in html


def test_server_error_renders_without_database_or_request_context():
    # No django_db mark: any query would fail the test.
    response = server_error(RequestFactory().get("/t/some-event/"))
    html = page(response)
    assert response.status_code == 500
    assert "Something went wrong on our side" in html
    assert "reload the page and check the hand list" in html
