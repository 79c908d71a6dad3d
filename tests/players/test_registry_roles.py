"""Who owns the club registry: directors add players and see the contact details of the
players they added; registrars see and edit everyone. Registry edits are audited in the
registry and in every tournament the player is entered in."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from players import registry
from tests.factories import (
    make_director,
    make_player,
    make_registrar,
    make_tournament,
    make_user,
)
from tournaments.models import AuditEntry, Entry, Player, Tournament

pytestmark = pytest.mark.django_db
Status = Tournament.Status


@pytest.fixture
def club():
    """Alice added Ann; Bob added Bea; Ann plays in Bob's running Rival Cup too."""
    alice = make_director(username="alice")
    bob = make_director(username="bob")
    ann = make_player(name="Ann Lee", email="ann@example.org", phone="600 111", created_by=alice)
    bea = make_player(name="Bea Cruz", email="bea@example.org", phone="600 222", created_by=bob)
    own = make_tournament(owner=alice, name="Alice Open")
    rival = make_tournament(owner=bob, name="Rival Cup", status=Status.RUNNING)
    Entry.objects.create(tournament=own, player=ann)
    Entry.objects.create(tournament=rival, player=ann)
    Entry.objects.create(tournament=rival, player=bea)
    return {"alice": alice, "bob": bob, "ann": ann, "bea": bea, "own": own, "rival": rival}


def edit_url(player):
    return reverse("players:player-edit", args=[player.pk])


def form_data(player, **changes):
    data = {
        "name": player.name,
        "email": player.email,
        "phone": player.phone,
        "club_id": player.club_id,
        "rating": "" if player.rating is None else player.rating,
        "notes": player.notes,
    }
    return {**data, **changes}


# -- reading ---------------------------------------------------------------------------------


def test_a_director_sees_contact_details_only_of_the_players_they_added(client, club):
    client.force_login(club["alice"])
    body = client.get(reverse("players:player-list")).content.decode()
    assert "Ann Lee" in body and "ann@example.org" in body and "600 111" in body
    assert "Bea Cruz" in body
    assert "bea@example.org" not in body and "600 222" not in body


def test_a_registrar_sees_everyones_contact_details(client, club):
    client.force_login(make_registrar())
    body = client.get(reverse("players:player-list")).content.decode()
    assert "ann@example.org" in body and "bea@example.org" in body and "600 222" in body


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_searching_by_email_finds_only_emails_you_may_see(client, club, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    client.force_login(club["alice"])
    url = reverse("players:player-list")
    assert "Bea Cruz" not in client.get(url, {"q": "bea@"}, **headers).content.decode()
    assert "Ann Lee" in client.get(url, {"q": "ann@"}, **headers).content.decode()
    client.force_login(make_registrar())
    assert "Bea Cruz" in client.get(url, {"q": "bea@"}, **headers).content.decode()


def test_registration_finds_registry_players_by_name_without_their_contact_details(client, club):
    # Passed before too: kept so the "add from the registry" search stays name-only.
    client.force_login(club["alice"])
    url = reverse("tournaments:entry-list", kwargs={"slug": club["own"].slug})
    found = client.get(url, {"q": "Bea", "target": "registry-results"}, HTTP_HX_REQUEST="true")
    body = found.content.decode()
    assert "Bea Cruz" in body and "bea@example.org" not in body and "600 222" not in body
    by_email = client.get(url, {"q": "bea@", "target": "registry-results"}, HTTP_HX_REQUEST="true")
    assert "Bea Cruz" not in by_email.content.decode()
    response = client.post(
        reverse("tournaments:entry-add", kwargs={"slug": club["own"].slug}),
        {"player": club["bea"].pk},
    )
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=club["own"], player=club["bea"]).exists()


def test_the_archive_leaves_out_contact_details_its_director_may_not_see(client, club):
    url = reverse("archive:tournament-export", kwargs={"slug": club["rival"].slug})
    client.force_login(club["bob"])
    players = {p["name"]: p for p in json.loads(client.get(url).content)["players"]}
    assert players["Bea Cruz"]["email"] == "bea@example.org"  # Bob added her
    assert (players["Ann Lee"]["email"], players["Ann Lee"]["phone"]) == ("", "")
    registrar = make_registrar()
    club["rival"].co_directors.add(registrar)
    client.force_login(registrar)
    players = {p["name"]: p for p in json.loads(client.get(url).content)["players"]}
    assert players["Ann Lee"]["email"] == "ann@example.org"


# -- writing ---------------------------------------------------------------------------------


def test_a_director_may_not_open_or_edit_a_player_someone_else_added(client, club):
    client.force_login(club["alice"])
    assert client.get(edit_url(club["bea"])).status_code == 403
    response = client.post(edit_url(club["bea"]), form_data(club["bea"], name="Hijacked"))
    assert response.status_code == 403
    club["bea"].refresh_from_db()
    assert club["bea"].name == "Bea Cruz"
    assert not AuditEntry.objects.exists()


def test_players_remember_who_added_them(director_client):
    director = director_client.director
    director_client.post(reverse("players:player-create"), {"name": "One"})
    registry.import_players_csv(text="name\nTwo\n", user=director)
    t = make_tournament(owner=director)
    director_client.post(
        reverse("tournaments:entry-new", kwargs={"slug": t.slug}), {"new-name": "Three"}
    )
    assert dict(Player.objects.values_list("name", "created_by")) == {
        "One": director.pk,
        "Two": director.pk,
        "Three": director.pk,
    }


@pytest.mark.parametrize(
    "change", [{"name": "Ann Lee-Smith"}, {"rating": "1700"}, {"club_id": "C-9"}]
)
def test_renaming_a_player_in_another_directors_tournament_is_refused_naming_it(
    client, club, change
):
    client.force_login(club["alice"])
    response = client.post(edit_url(club["ann"]), form_data(club["ann"], **change))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Only a registrar" in body and "Rival Cup" in body and "Alice Open" not in body
    club["ann"].refresh_from_db()
    assert (club["ann"].name, club["ann"].rating, club["ann"].club_id) == ("Ann Lee", None, "")
    assert not AuditEntry.objects.exists()


def test_a_director_may_fix_their_players_details_that_nobody_else_sees(client, club):
    client.force_login(club["alice"])
    response = client.post(edit_url(club["ann"]), form_data(club["ann"], phone="600 999"))
    assert response.status_code == 302
    club["ann"].refresh_from_db()
    assert club["ann"].phone == "600 999"
    # Bob's log says that Ann's contact details changed, not what they are now.
    row = AuditEntry.objects.get(tournament=club["rival"], action="player edited")
    assert "600" not in json.dumps([row.before, row.after])


def test_a_director_may_rename_a_player_only_in_their_own_tournaments(client, club):
    Entry.objects.filter(tournament=club["rival"], player=club["ann"]).delete()
    club["rival"].co_directors.add(club["alice"])
    client.force_login(club["alice"])
    response = client.post(edit_url(club["bea"]), form_data(club["bea"], name="Bea C."))
    assert response.status_code == 403  # co-directing is no licence for Bob's players
    response = client.post(edit_url(club["ann"]), form_data(club["ann"], name="Ann Lee-Smith"))
    assert response.status_code == 302


def test_a_registrar_edit_is_audited_in_the_registry_and_every_tournament_of_the_player(
    client, club
):
    finished = make_tournament(owner=club["bob"], name="Autumn Final", status=Status.FINISHED)
    Entry.objects.create(tournament=finished, player=club["ann"])
    registrar = make_registrar(director=False, username="rita")
    client.force_login(registrar)
    response = client.post(
        edit_url(club["ann"]),
        form_data(club["ann"], name="Ann Lee-Smith", email="ann@new.example.org"),
    )
    assert response.status_code == 302
    registry_row = AuditEntry.objects.get(tournament=None, action="player edited")
    assert registry_row.after == {"name": "Ann Lee-Smith", "email": "ann@new.example.org"}
    assert registry_row.user == registrar
    rows = AuditEntry.objects.filter(action="player edited").exclude(tournament=None)
    names = sorted(row.tournament.name for row in rows)
    assert names == ["Alice Open", "Autumn Final", "Rival Cup"]
    for row in rows:
        assert row.before["name"] == "Ann Lee" and row.after["name"] == "Ann Lee-Smith"
        assert "ann@" not in json.dumps([row.before, row.after])
        assert (row.object_type, row.object_id) == ("player", str(club["ann"].pk))
        assert row.user == registrar
    client.force_login(club["bob"])
    audit = client.get(reverse("tournaments:audit-log", kwargs={"slug": club["rival"].slug}))
    body = audit.content.decode()
    assert "player edited" in body and "Ann Lee-Smith" in body and "rita" in body
    assert "ann@new.example.org" not in body


def test_the_edit_page_shows_the_players_registry_history(client, club):
    client.force_login(club["alice"])
    client.post(edit_url(club["ann"]), form_data(club["ann"], notes="left-handed"))
    body = client.get(edit_url(club["ann"])).content.decode()
    assert "History" in body and "left-handed" in body and "alice" in body


def test_an_unchanged_save_writes_no_audit_rows(client, club):
    client.force_login(club["alice"])
    assert client.post(edit_url(club["ann"]), form_data(club["ann"])).status_code == 302
    assert not AuditEntry.objects.exists()


# -- the registrar role ----------------------------------------------------------------------


def test_a_registrar_who_directs_nothing_keeps_the_registry_but_not_tournaments(client, club):
    client.force_login(make_registrar(director=False))
    assert client.get(reverse("players:player-list")).status_code == 200
    assert client.get(edit_url(club["bea"])).status_code == 200
    assert client.get(reverse("tournaments:tournament-create")).status_code == 403


def test_a_plain_account_is_no_registrar(client, club):
    client.force_login(make_user())
    assert client.get(reverse("players:player-list")).status_code == 403


def test_the_registrar_command_grants_lists_and_removes_the_role(client, club):
    out = io.StringIO()
    call_command("registrar", "alice", stdout=out)
    assert "alice" in out.getvalue()
    client.force_login(club["alice"])
    assert "bea@example.org" in client.get(reverse("players:player-list")).content.decode()
    out = io.StringIO()
    call_command("registrar", "--list", stdout=out)
    assert out.getvalue().split() == ["alice"]
    call_command("registrar", "alice", "--remove", stdout=io.StringIO())
    assert [r.action for r in AuditEntry.objects.order_by("pk")] == [
        "registrar added",
        "registrar removed",
    ]
    client.force_login(club["alice"])  # a fresh user object: permissions are cached
    assert "bea@example.org" not in client.get(reverse("players:player-list")).content.decode()


def test_the_registrar_command_refuses_an_unknown_account(club):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="nobody"):
        call_command("registrar", "nobody", stdout=io.StringIO())


def test_a_new_venue_director_account_is_the_clubs_registrar():
    from demo.management.commands.seed_demo import ensure_director
    from tournaments.permissions import is_director, is_registrar

    user, created = ensure_director("venue-director", "pw")
    assert created and is_director(user) and is_registrar(user)
    assert AuditEntry.objects.get().action == "registrar added"


def test_a_tournament_log_with_a_registry_edit_travels_in_the_archive(club, tmp_path):
    from archive import api as archive
    from tests.archive.test_archive import run_import, write

    registry.update_player(
        player=club["bea"], data={"name": "Bea Cruz-Díaz"}, user=make_registrar()
    )
    document = archive.export_tournament(club["rival"])
    assert [row["action"] for row in document["audit"]] == ["player edited"]
    run_import(write(tmp_path, archive.dumps(document)), "--slug", "rival-again")
    restored = Tournament.objects.get(slug="rival-again")
    row = AuditEntry.objects.get(tournament=restored, action="player edited")
    assert row.after == {"name": "Bea Cruz-Díaz"}
