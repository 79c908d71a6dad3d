"""A club has more than one director (issue 28 item 10): the club's administrator (a
superuser, or the first director of a venue laptop, who keeps the registry: a director
and registrar) makes another account that may create tournaments, from the Directors page
or with ``ginclub manage add_director``; the new director chooses a password with the
one-time link the Roles page uses."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_director, make_registrar, make_user
from tournaments.models import AuditEntry
from tournaments.permissions import is_club_admin, is_director

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PASSWORD = "correct-horse-battery-9"
PAGE = "accounts:directors"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def shown_link(html: str) -> str:
    found = re.search(r'<a href="(http://testserver/accounts/set-password/[^"]+)"', html)
    assert found, "the link is shown"
    return found.group(1)


def make_one(client: Client, *, htmx: bool = False, email: str = "ola.nordmann@example.com"):
    data = {"name": "Ola Nordmann", "email": email}
    return client.post(reverse("accounts:director-create"), data, **(HTMX if htmx else {}))


def test_who_is_the_clubs_administrator():
    User = get_user_model()
    assert is_club_admin(make_registrar())  # the venue's first account: director + registrar
    assert is_club_admin(User.objects.create_superuser("root", "r@example.com", PASSWORD))
    assert not is_club_admin(make_director())
    assert not is_club_admin(make_registrar(director=False))
    assert not is_club_admin(make_user())
    retired = make_registrar()
    retired.is_active = False
    assert not is_club_admin(retired)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_administrator_makes_a_director_who_sets_a_password_and_creates(htmx):
    admin = make_registrar()
    page = signed_in(admin).get(reverse(PAGE)).content.decode()
    assert admin.get_username() in page and 'name="email"' in page
    response = make_one(signed_in(admin), htmx=htmx)
    assert response.status_code == 200
    html = response.content.decode()
    new = get_user_model().objects.get(email="ola.nordmann@example.com")
    assert new.username == "ola.nordmann" and not new.has_usable_password()
    assert is_director(new) and not is_club_admin(new)
    entry = AuditEntry.objects.get(action="director added")
    assert entry.tournament is None and entry.user == admin
    assert entry.after == {"username": "ola.nordmann", "new_account": True}
    # The link, as the Roles page shows it: it sets the password once and logs in.
    url = shown_link(html)
    client = Client()
    page = client.get(url, follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else url
    client.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    new.refresh_from_db()
    assert new.check_password(PASSWORD)
    assert client.get(reverse("tournaments:tournament-create")).status_code == 200


def test_a_fresh_link_for_a_director_still_without_a_password():
    admin = make_registrar()
    make_one(signed_in(admin))
    new = get_user_model().objects.get(email="ola.nordmann@example.com")
    listed = signed_in(admin).get(reverse(PAGE)).content.decode()
    assert "has not chosen a password yet" in listed
    response = signed_in(admin).post(reverse("accounts:director-link"), {"user": new.pk})
    assert shown_link(response.content.decode())
    new.set_password(PASSWORD)
    new.save()
    refused = signed_in(admin).post(reverse("accounts:director-link"), {"user": new.pk})
    assert "/accounts/set-password/" not in refused.content.decode()


def test_an_account_with_that_email_is_refused_and_an_existing_account_is_made_director():
    admin = make_registrar()
    keeper = make_user(username="keeper", email="keeper@example.com")
    html = make_one(signed_in(admin), email="KEEPER@example.com").content.decode()
    assert "exists already" in html and "/accounts/set-password/" not in html
    response = signed_in(admin).post(reverse("accounts:director-add"), {"username": "keeper"})
    assert response.status_code == 302
    keeper = get_user_model().objects.get(pk=keeper.pk)
    assert is_director(keeper)
    assert AuditEntry.objects.get(action="director added").after == {"username": "keeper"}
    missing = signed_in(admin).post(
        reverse("accounts:director-add"), {"username": "nobody"}, follow=True
    )
    assert "There is no account nobody" in missing.content.decode()


@pytest.mark.parametrize(
    "who", ["anonymous", "plain", "director", "registrar only"], ids=lambda who: who
)
def test_only_the_administrator_may(who):
    client = Client()
    if who != "anonymous":
        client.force_login(
            {
                "plain": make_user,
                "director": make_director,
                "registrar only": lambda: make_registrar(director=False),
            }[who]()
        )
    before = get_user_model().objects.count()
    expected = 302 if who == "anonymous" else 403
    assert client.get(reverse(PAGE)).status_code == expected
    assert make_one(client).status_code == expected
    target = make_director(username="target")
    assert (
        client.post(reverse("accounts:director-add"), {"username": "keeper"}).status_code
        == expected
    )
    assert (
        client.post(reverse("accounts:director-link"), {"user": target.pk}).status_code == expected
    )
    assert get_user_model().objects.count() == before + 1
    assert not AuditEntry.objects.exists()


def test_the_dashboard_links_the_directors_page_for_the_administrator_only():
    link = f'href="{reverse(PAGE)}"'
    assert (
        link in signed_in(make_registrar()).get(reverse("tournaments:dashboard")).content.decode()
    )
    assert (
        link
        not in signed_in(make_director()).get(reverse("tournaments:dashboard")).content.decode()
    )


def test_the_command_makes_a_director_and_prints_the_link(settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    out = io.StringIO()
    call_command("add_director", "Ola Nordmann", "ola.nordmann@example.com", stdout=out)
    new = get_user_model().objects.get(email="ola.nordmann@example.com")
    assert is_director(new) and not new.has_usable_password()
    text = out.getvalue()
    assert "ola.nordmann" in text
    link = re.search(r"http://192\.168\.1\.20:8000/accounts/set-password/\S+/", text)
    assert link, text
    assert AuditEntry.objects.get(action="director added").via == "manage.py add_director"
    with pytest.raises(CommandError, match="exists already"):
        call_command("add_director", "Ola", "OLA.nordmann@example.com", stdout=io.StringIO())


def test_the_command_prints_the_path_and_asks_for_the_address_without_a_site_url(settings):
    settings.SITE_URL = ""
    out = io.StringIO()
    call_command("add_director", "Ola Nordmann", "ola@example.com", stdout=out)
    assert re.search(r"^\s*/accounts/set-password/\S+/$", out.getvalue(), re.M)
    out = io.StringIO()
    call_command(
        "add_director", "Kari", "kari@example.com", site="http://10.0.0.5:8000/", stdout=out
    )
    assert "http://10.0.0.5:8000/accounts/set-password/" in out.getvalue()


def test_the_club_servers_first_account_is_its_administrator_by_a_one_time_link(settings):
    """docs/club-server.md: the first account, with no password on the command line; the
    link sets it once, and the account makes directors and opens the admin."""
    settings.SITE_URL = "https://gin.example.org"
    out = io.StringIO()
    call_command("add_director", "Ada Lovelace", "ada@example.com", administrator=True, stdout=out)
    first = get_user_model().objects.get(email="ada@example.com")
    assert first.is_superuser and first.is_staff and not first.has_usable_password()
    assert is_club_admin(first) and is_director(first)
    assert "club's administrator" in out.getvalue()
    entry = AuditEntry.objects.get(action="director added")
    assert entry.after == {"username": "ada", "new_account": True, "administrator": True}
    link = re.search(r"https://gin\.example\.org(/accounts/set-password/\S+/)", out.getvalue())
    assert link, out.getvalue()
    client = Client()
    page = client.get(link[1], follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link[1]
    client.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    first.refresh_from_db()
    assert first.check_password(PASSWORD)
    assert client.get(reverse(PAGE)).status_code == 200
    assert client.get("/admin/").status_code == 200
    # The link works once.
    assert 'name="new_password1"' not in Client().get(link[1], follow=True).content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "club's administrator"),
        ("es", "administración del club"),
        ("af", "klub se administrateur"),
    ],
)
def test_the_administrator_line_in_each_language(language, words):
    out = io.StringIO()
    with translation.override(language):
        call_command(
            "add_director", "Ada", f"ada-{language}@example.com", administrator=True, stdout=out
        )
    assert words in out.getvalue()
