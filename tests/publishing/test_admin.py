"""The Django admin cannot change a mirror (issue 34): for each model the admin shows
that belongs to a tournament, a superuser's POST that changes a local row changes the
mirror's row not at all (refused), nor deletes it (one by one or with the
delete-selected action), nor adds a row into it."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import reverse

from archive.export import export_tournament
from publishing import protocol
from publishing.models import Mirror
from publishing.receiving import receive
from publishing.tokens import make_token
from scoring.models import Hand
from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import AuditEntry, Entry, Match, Tournament

pytestmark = pytest.mark.django_db


class FormFields(HTMLParser):
    """What a browser would send from the admin's change form: its fields' values."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self.in_form = False
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attributes}
        if tag == "form" and found.get("id", "").endswith("_form"):
            self.in_form = True
        if not self.in_form or "disabled" in found:
            return
        name = found.get("name", "")
        if tag == "input" and name:
            if found.get("type") in ("checkbox", "radio") and "checked" not in found:
                return
            if found.get("type") in ("submit", "button"):
                return
            self.data.setdefault(name, []).append(found.get("value", ""))
        elif tag == "select":
            self.select = name
        elif tag == "option" and self.select and "selected" in found:
            self.data.setdefault(self.select, []).append(found.get("value", ""))
        elif tag == "textarea":
            self.textarea = name
            self.data[name] = [""]

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.data[self.textarea][-1] += data.lstrip("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def form_data(client: Client, url: str) -> dict[str, list[str]]:
    page = client.get(url)
    assert page.status_code == 200
    fields = FormFields()
    fields.feed(page.content.decode())
    assert fields.data, "no form on the change page"
    return fields.data


@pytest.fixture
def two():
    """A local tournament ("friday") and the mirror of the same night ("friday-club")."""
    local = make_bracket(players=4, tables=2, slug="friday")
    play(seated(local)[0], [knock("A", 5, 30), knock("B", 3, 25)])
    token, _secret = make_token(user=make_director(username="clubdora"))
    answer = receive(
        token,
        {
            "format": protocol.FORMAT,
            "version": protocol.VERSION,
            "venue": "Riverside laptop",
            "slug": "friday-club",
            "through": AuditEntry.objects.filter(tournament=local).count(),
            "archive": export_tournament(local),
        },
    )
    assert answer.status == 200, answer.body
    return local, Tournament.objects.get(slug="friday-club")


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "", "pw-12345-long"))
    return client


def rows(local: Tournament, mirror: Tournament, model: type) -> tuple[Any, Any]:
    """The same row of the local tournament and of its mirror."""
    if model is Tournament:
        return local, mirror
    if model is Hand:
        pick = Hand.objects.order_by("match__key", "number")
        return pick.filter(match__tournament=local)[0], pick.filter(match__tournament=mirror)[0]
    pick = model.objects.order_by("pk")
    if model is Entry:
        pick = model.objects.order_by("seed")
    return pick.filter(tournament=local)[0], pick.filter(tournament=mirror)[0]


# A field each POST changes, and the value it puts there.
CHANGES: list[tuple[type, str, str]] = [
    (Tournament, "name", "Renamed in the admin"),
    (Entry, "seed", "99"),
    (Match, "table", "7"),
    (Hand, "deadwood", "9"),
]


def url(obj: Any, view: str) -> str:
    meta = obj._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=[obj.pk])


def of_mirror(data: dict[str, list[str]], local_row: Any, mirror_row: Any) -> dict[str, list[str]]:
    """The local row's form data pointing at the mirror's tournament or match instead."""
    data = dict(data)
    if "tournament" in data:
        data["tournament"] = [str(mirror_row.tournament_id)]
    if "match" in data:
        data["match"] = [str(mirror_row.match_id)]
    return data


@pytest.mark.parametrize(
    ("model", "field", "value"), CHANGES, ids=lambda x: getattr(x, "__name__", x)
)
def test_a_superusers_post_changes_a_local_row_but_not_the_mirrors(
    two, admin_client, model, field, value
):
    local, mirror = two
    local_row, mirror_row = rows(local, mirror, model)
    before = model_to_dict(mirror_row)
    data = form_data(admin_client, url(local_row, "change"))
    data[field] = [value]

    answer = admin_client.post(url(mirror_row, "change"), of_mirror(data, local_row, mirror_row))
    assert answer.status_code == 403
    mirror_row.refresh_from_db()
    assert model_to_dict(mirror_row) == before

    # The same POST is a real change: on the local row it is made.
    answer = admin_client.post(url(local_row, "change"), data)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    local_row.refresh_from_db()
    assert str(getattr(local_row, field)) == value


@pytest.mark.parametrize("model", [Tournament, Entry, Match, Hand, AuditEntry])
def test_a_superuser_cannot_delete_a_mirrors_row(two, admin_client, model):
    local, mirror = two
    _local_row, mirror_row = rows(local, mirror, model)
    assert admin_client.post(url(mirror_row, "delete"), {"post": "yes"}).status_code == 403
    meta = model._meta
    changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    admin_client.post(
        changelist,
        {"action": "delete_selected", "_selected_action": [mirror_row.pk], "post": "yes"},
    )
    assert model.objects.filter(pk=mirror_row.pk).exists()
    assert Mirror.objects.filter(tournament=mirror).exists()


def test_the_change_page_of_a_mirrors_row_shows_it_read_only(two, admin_client):
    _local, mirror = two
    page = admin_client.get(url(mirror, "change"))
    assert page.status_code == 200
    assert b'name="name"' not in page.content


def test_a_superuser_cannot_add_a_hand_to_a_mirrors_match(two, admin_client):
    local, mirror = two
    local_hand, mirror_hand = rows(local, mirror, Hand)
    data = form_data(admin_client, url(local_hand, "change"))
    data["number"] = [str(Hand.objects.filter(match=local_hand.match).count() + 1)]
    count = Hand.objects.filter(match=mirror_hand.match).count()
    answer = admin_client.post(
        reverse("admin:scoring_hand_add"), of_mirror(data, local_hand, mirror_hand)
    )
    assert answer.status_code == 200
    assert "published from the venue" in answer.content.decode()
    assert Hand.objects.filter(match=mirror_hand.match).count() == count
