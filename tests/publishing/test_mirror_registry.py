"""The club's registry and a mirror (issue 43): the mirror's players are registry rows
here, linked to the venue's entries, but the mirror's rows are the venue's. A registry
edit never writes the mirror's log, a change to what the mirror shows or matches its
players by (name, club id, email) is refused with a clear message, and the venue's next
change still applies cleanly."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from players import registry
from tests.factories import make_registrar
from tests.players.test_registry_roles import form_data
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import AuditEntry, Player, Tournament

from .test_admin import admin_client, url  # noqa: F401  (admin_client: a fixture)
from .test_admin import form_data as admin_form
from .test_receiving import change, secret, send, standings, venue  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def copy(venue, secret):  # noqa: F811
    assert send(change(venue), secret).status_code == 200
    return Tournament.objects.get(slug="friday-club")


def log_of(tournament: Tournament) -> list[tuple[int, str]]:
    return list(
        AuditEntry.objects.filter(tournament=tournament).order_by("pk").values_list("pk", "action")
    )


def a_player_of(copy: Tournament) -> Player:
    return copy.entries.order_by("pk").first().player


@pytest.fixture
def registrar_client():
    client = Client()
    client.force_login(make_registrar())
    return client


@pytest.mark.parametrize(
    "field, value",
    [("name", "Renamed at the club"), ("club_id", "C-99"), ("email", "ann@example.com")],
)
def test_a_registry_edit_of_what_the_mirror_shows_is_refused(copy, registrar_client, field, value):
    player = a_player_of(copy)
    before = log_of(copy)
    url = reverse("players:player-edit", args=[player.pk])
    answer = registrar_client.post(url, form_data(player, **{field: value}))
    assert answer.status_code == 200
    said = html.unescape(answer.content.decode())
    assert f"{player.name} plays in “{copy.name}”, which the venue “Riverside laptop”" in said
    assert getattr(Player.objects.get(pk=player.pk), field) == getattr(player, field)
    assert log_of(copy) == before
    assert player.name in html.unescape(Client().get(f"/t/{copy.slug}/").content.decode())


def test_the_service_refuses_it_too(copy):
    player = a_player_of(copy)
    with pytest.raises(ValidationError, match="Riverside laptop"):
        registry.update_player(player=player, data={"name": "Other"}, user=make_registrar())


def test_a_private_edit_is_saved_but_the_mirrors_log_is_left_as_the_venue_sent_it(
    copy,
    venue,  # noqa: F811
    registrar_client,
):
    player = a_player_of(copy)
    before = log_of(copy)
    url = reverse("players:player-edit", args=[player.pk])
    answer = registrar_client.post(url, form_data(player, phone="600 123", notes="left-handed"))
    assert answer.status_code == 302
    assert Player.objects.get(pk=player.pk).phone == "600 123"
    assert log_of(copy) == before
    # The site's own tournament the player is in (the venue's, sharing this database) has it.
    assert log_of(venue)[-1][1] == "player edited"


def test_the_venues_next_change_applies_cleanly_after_registry_edits(
    copy,
    venue,  # noqa: F811
    secret,  # noqa: F811
    registrar_client,
):
    player = a_player_of(copy)
    url = reverse("players:player-edit", args=[player.pk])
    registrar_client.post(url, form_data(player, name="Renamed at the club"))
    registrar_client.post(url, form_data(player, phone="600 123"))
    play(seated(venue)[0], [knock("A", 2, 40)])
    answer = send(change(venue), secret)
    assert answer.status_code == 200
    assert answer.json()["applied_through"] == len(log_of(venue))
    # The mirror's log is the venue's, row for row (here the venue's tournament shares this
    # database's registry, so it has a row of the phone's edit, which it sends).
    assert [action for _pk, action in log_of(copy)] == [action for _pk, action in log_of(venue)]
    assert standings("friday-club") == standings("friday")


def test_the_admin_refuses_it_but_saves_what_the_mirror_does_not_hold(copy, admin_client):  # noqa: F811
    player = a_player_of(copy)
    data = admin_form(admin_client, url(player, "change"))
    answer = admin_client.post(url(player, "change"), {**data, "name": ["Renamed in the admin"]})
    assert answer.status_code == 200
    assert "which the venue “Riverside laptop” publishes here" in html.unescape(
        answer.content.decode()
    )
    assert Player.objects.get(pk=player.pk).name == player.name
    answer = admin_client.post(url(player, "change"), {**data, "phone": ["600 321"]})
    assert answer.status_code == 302
    assert Player.objects.get(pk=player.pk).phone == "600 321"


@pytest.mark.parametrize(
    "language, said",
    [
        ("en", "which the venue “Riverside laptop” publishes here"),
        ("es", "que el local «Riverside laptop» publica aquí"),
        ("af", "wat die saal “Riverside laptop” hier publiseer"),
    ],
)
def test_the_refusal_in_every_language(copy, language, said):
    from django.utils import translation

    with translation.override(language), pytest.raises(ValidationError) as refused:
        registry.update_player(player=a_player_of(copy), data={"name": "X"}, user=make_registrar())
    assert said in refused.value.messages[0]
