"""A CSV file entered straight into a tournament (issue 41): the registry import's file,
preview and line-numbered problems; registry players matched as that import matches its
duplicates, new ones added to the registry, everyone entered, all or nothing, audited;
players entered already reported, not doubled; only while the field is open."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players import csv_entries
from tests.factories import make_bracket, make_director, make_player, make_tournament
from tournaments.models import AuditEntry, Entry, Player, Tournament
from tournaments.registration import add_entry

pytestmark = pytest.mark.django_db

IMPORT = "players:entry-import"


def url(tournament: Tournament) -> str:
    return reverse(IMPORT, kwargs={"slug": tournament.slug})


def upload(client, tournament: Tournament, content: bytes):
    file = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    return client.post(url(tournament), {"file": file})


def entered_names(tournament: Tournament) -> list[str]:
    return sorted(tournament.entries.values_list("player__name", flat=True))


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def tournament(director):
    return make_tournament(owner=director)


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


# -- the service -----------------------------------------------------------------------------


def test_registry_players_are_matched_new_ones_added_and_everyone_entered(director, tournament):
    ana = make_player(name="Ana Torres", club_id="C-104")
    ben = make_player(name="Ben Okafor", email="ben@example.com")
    text = (
        "name,email,club_id\n"
        "Ana Torres,,C-104\n"  # by club id
        "BEN OKAFOR,Ben@Example.com,\n"  # by name and email, ignoring case
        "Cy Nuevo,cy@example.com,C-200\n"  # new
    )
    result = csv_entries.import_entries_csv(text=text, tournament=tournament, user=director)
    assert result.ok, result.errors
    assert [row.status for row in result.rows] == ["registered", "registered", "new"]
    assert Player.objects.count() == 3  # Ana and Ben not registered twice
    cy = Player.objects.get(name="Cy Nuevo")
    assert cy.created_by == director and cy.club_id == "C-200"
    assert set(tournament.entries.values_list("player", flat=True)) == {ana.pk, ben.pk, cy.pk}
    added = AuditEntry.objects.filter(tournament=tournament, action="entry added")
    assert sorted(a.after["player"] for a in added) == ["Ana Torres", "Ben Okafor", "Cy Nuevo"]
    assert all(a.user == director and a.object_type == "entry" for a in added)
    assert AuditEntry.objects.get(tournament=None, action="players imported").after["count"] == 1


def test_players_entered_already_are_reported_not_doubled(director, tournament):
    ana = make_player(name="Ana Torres", club_id="C-104")
    add_entry(tournament=tournament, player=ana, user=director)
    text = "name,club_id\nAna Torres,C-104\nBea Ruiz,\n"
    preview = csv_entries.check_entries_csv(text=text, tournament=tournament)
    assert [row.status for row in preview.rows] == ["entered", "new"]
    assert (preview.to_enter, preview.already, preview.new) == (1, 1, 1)
    result = csv_entries.import_entries_csv(text=text, tournament=tournament, user=director)
    assert [p.name for p in result.entered.already] == ["Ana Torres"]
    assert entered_names(tournament) == ["Ana Torres", "Bea Ruiz"]
    assert tournament.entries.filter(player=ana).count() == 1


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("name,rating\nAna,1500\nBen,lots\n", 3, "Rating"),
        ("name,email\nAna,a@example.com\nAna,A@example.com\n", 3, "also on line 2"),
        ("name,club_id\nAna Torres,C-104\nAnita,C-104\n", 3, "club id C-104 is also on line 2"),
        ("name,email,club_id\nAna Torres,,C-104\nANA TORRES,,\n", 3, "registered, is also"),
        ("name,email,club_id\nBen Okafor,ben@example.com,C-104\n", 2, "which player is it?"),
        ('name,notes\nAna,"left-handed\nBen,x\n', 2, "lines 2 to 3"),
    ],
    ids=[
        "bad-rating",
        "twice-in-the-file",
        "club-id-twice",
        "one-registry-player-twice",
        "two-registry-players",
        "broken-quote",
    ],
)
def test_a_bad_line_is_reported_by_its_number_and_changes_nothing(
    director, tournament, text, line, fragment
):
    make_player(name="Ana Torres", club_id="C-104")
    make_player(name="Ben Okafor", email="ben@example.com")
    before = (Player.objects.count(), AuditEntry.objects.count())
    result = csv_entries.import_entries_csv(text=text, tournament=tournament, user=director)
    assert not result.ok
    assert [n for n, message in result.errors if fragment in message] == [line], result.errors
    assert (Player.objects.count(), AuditEntry.objects.count()) == before
    assert not tournament.entries.exists()


def test_a_club_id_of_another_name_enters_the_registry_player_with_a_warning(director, tournament):
    make_player(name="Ana Torres", club_id="C-104")
    result = csv_entries.check_entries_csv(
        text="name,club_id\nAnna Torres,C-104\n", tournament=tournament
    )
    assert result.ok
    assert result.rows[0].player.name == "Ana Torres"
    assert result.warnings and result.warnings[0][0] == 2
    assert "Ana Torres" in result.warnings[0][1] and "Anna Torres" in result.warnings[0][1]


def test_a_closed_field_refuses_the_import_and_changes_nothing(director):
    drawn = make_bracket(tournament=make_tournament(owner=director), players=4)
    with pytest.raises(Exception, match="bracket has been generated"):
        csv_entries.import_entries_csv(text="name\nLate Person\n", tournament=drawn, user=director)
    assert not Player.objects.filter(name="Late Person").exists()
    assert drawn.entries.count() == 4


def test_the_import_takes_the_same_queries_for_5_and_50_players(
    director, django_assert_max_num_queries
):
    counts = []
    for size in (5, 50):
        tournament = make_tournament(owner=director)
        registered = [
            make_player(name=f"Reg {size} {n}", club_id=f"R{size}-{n}") for n in range(size)
        ]
        rows = [f"{p.name},{p.club_id}" for p in registered[: size // 2]]
        rows += [f"New {size} {n}," for n in range(size - size // 2)]
        add_entry(tournament=tournament, player=registered[0], user=director)
        text = "name,club_id\n" + "\n".join(rows) + "\n"
        with django_assert_max_num_queries(40) as captured:
            result = csv_entries.import_entries_csv(text=text, tournament=tournament, user=director)
        assert result.ok, result.errors
        assert tournament.entries.count() == size
        counts.append(len(captured))
    assert counts[0] == counts[1]


# -- the pages -------------------------------------------------------------------------------


def test_the_preview_shows_each_row_then_the_confirmation_enters_them(signed_in, tournament):
    make_player(name="Ana Torres", club_id="C-104")
    preview = upload(signed_in, tournament, b"name,club_id\nAna Torres,C-104\nBea Ruiz,\n")
    assert preview.status_code == 200
    assert not tournament.entries.exists()
    html = preview.content.decode()
    assert "Check these 2 players before entering" in html
    assert "added to the registry and entered" in html and "in the registry: entered" in html
    assert "Enter these 2 players" in html
    done = signed_in.post(url(tournament), {"confirm": preview.context["confirm"]}, follow=True)
    assert entered_names(tournament) == ["Ana Torres", "Bea Ruiz"]
    page = done.content.decode()
    assert "2 players entered." in page and "1 new player added to the registry." in page


def test_a_problem_line_is_shown_with_its_number_and_no_confirmation(signed_in, tournament):
    response = upload(signed_in, tournament, b"name,rating\nAna,1500\nBen,lots\n")
    assert response.status_code == 200
    assert "confirm" not in response.context
    assert [line for line, _ in response.context["result"].errors] == [3]
    assert "1 problem found: nothing was imported." in response.content.decode()


def test_a_confirmation_for_another_tournament_or_the_registry_is_refused(
    signed_in, director, tournament
):
    other = make_tournament(owner=director)
    preview = upload(signed_in, other, b"name\nAna Torres\n")
    response = signed_in.post(url(tournament), {"confirm": preview.context["confirm"]})
    assert "upload the file again" in response.content.decode()
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_after_the_draw_the_page_says_the_field_is_closed(signed_in, director):
    drawn = make_bracket(tournament=make_tournament(owner=director), players=4)
    response = signed_in.get(url(drawn))
    assert "the field is closed" in response.content.decode()
    assert 'type="file"' not in response.content.decode()
    refused = upload(signed_in, drawn, b"name\nLate Person\n")
    assert "the field is closed" in refused.content.decode()
    assert not Player.objects.filter(name="Late Person").exists()


@pytest.mark.parametrize(
    ("language", "preview_text", "done_text"),
    [
        ("en", "Enter these 2 players", "2 players entered."),
        ("es", "Inscribir a estos 2 jugadores", "2 jugadores inscritos."),
        ("af", "Skryf hierdie 2 spelers in", "2 spelers ingeskryf."),
    ],
)
def test_the_import_speaks_every_language(signed_in, tournament, language, preview_text, done_text):
    signed_in.cookies["django_language"] = language
    preview = upload(signed_in, tournament, b"name\nAna Torres\nBea Ruiz\n")
    assert preview_text in preview.content.decode()
    done = signed_in.post(url(tournament), {"confirm": preview.context["confirm"]}, follow=True)
    assert done_text in done.content.decode()
