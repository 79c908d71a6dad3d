"""Tournament setup: the form (preset + knob overrides), the rules summary, the lock,
statuses and roles."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine import PRESETS
from tests.factories import make_bracket, make_tournament, make_user
from tournaments import organising, services
from tournaments.forms import TournamentForm
from tournaments.models import AuditEntry, Tournament
from tournaments.rules_text import rules_summary

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Spring Open",
    "date": "2030-04-01",
    "venue": "Club room",
    "tables": "6",
    "page_size": "A4",
    "language": "en",
    "bracket_kind": "single_elimination",
    "preset": "tournament",
}


S = " · "


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "tournament",
            S.join(
                [
                    "Games to 250",
                    "best of 5",
                    "gin 25",
                    "big gin 31",
                    "undercut 25",
                    "box 25",
                    "game 100",
                    "shutout doubles",
                ]
            ),
        ),
        (
            "classic",
            S.join(
                [
                    "Games to 100",
                    "one game",
                    "gin 20",
                    "no big gin",
                    "undercut 10",
                    "box 20",
                    "game 100",
                    "shutout 100",
                    "the winner of a hand deals the next",
                ]
            ),
        ),
        (
            "straight",
            S.join(
                [
                    "Games to 100",
                    "one game",
                    "straight gin (no knocking)",
                    "gin 25",
                    "big gin 31",
                    "box 25",
                    "game 100",
                    "shutout doubles",
                ]
            ),
        ),
        (
            "hollywood",
            S.join(
                [
                    "Hollywood, 3 columns to 100",
                    "gin 25",
                    "big gin 31",
                    "undercut 25",
                    "box 25",
                    "game 100",
                    "shutout doubles",
                ]
            ),
        ),
    ],
)
def test_rules_summary(preset, expected):
    assert rules_summary(PRESETS[preset]) == expected


def test_rules_summary_mentions_departures():
    text = rules_summary(
        PRESETS["oklahoma"].replace(
            tie="no_score", gin_extra_boxes=1, spade_double_boxes=True, deal="loser", knock_limit=7
        )
    )
    assert "Oklahoma" in text and "a tie scores nothing" in text and "+1 box for gin" in text
    assert "spades double, boxes too" in text and "the loser of a hand deals" in text
    assert "knock with 7" not in text  # Oklahoma: the card decides
    assert "knock with 7 or less" in rules_summary(PRESETS["modern"].replace(knock_limit=7))


def test_form_builds_rules_from_preset_and_overrides():
    form = TournamentForm(data={**BASE, "gin_bonus": "20", "oklahoma": "yes", "tie": "no_score"})
    assert form.is_valid(), form.errors
    rules = form.cleaned_data["rules"]
    assert rules["preset"] == "tournament"
    assert (rules["gin_bonus"], rules["oklahoma"], rules["tie"], rules["game_target"]) == (
        20,
        True,
        "no_score",
        250,
    )


def test_blank_knobs_follow_the_preset():
    form = TournamentForm(data={**BASE, "preset": "classic"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == PRESETS["classic"].to_dict()


@pytest.mark.parametrize(
    ("knob", "value", "message"),
    [
        ("knock_limit", "11", "between 0 and 10"),
        ("game_target", "0", "between 1 and 5000"),
        ("games_to_win", "abc", "whole number"),
        ("big_gin_bonus", "lots", "whole number"),
        ("tie", "sometimes", "Select a valid choice"),
    ],
)
def test_bad_knob_values_are_reported_next_to_the_field(knob, value, message):
    form = TournamentForm(data={**BASE, knob: value})
    assert not form.is_valid()
    assert message in " ".join(form.errors[knob])


def test_big_gin_none_refuses_big_gin():
    form = TournamentForm(data={**BASE, "big_gin_bonus": "none"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"]["big_gin_bonus"] is None


def test_edit_form_shows_only_overrides():
    t = make_tournament(preset="tournament", rules={"gin_bonus": 20})
    form = TournamentForm(instance=t)
    assert form.initial["preset"] == "tournament"
    assert form.initial["gin_bonus"] == 20
    assert "undercut_bonus" not in form.initial


def test_create_tournament_through_the_page(director_client):
    response = director_client.post(
        reverse("tournaments:tournament-create"), {**BASE, "random_draw": "on"}
    )
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.owner == director_client.user
    assert t.slug == "spring-open" and t.status == Tournament.Status.DRAFT
    assert t.ruleset.games_to_win == 3
    assert t.draw_seed is not None  # recorded so the draw can be repeated
    assert AuditEntry.objects.filter(tournament=t, action="tournament created").exists()


def test_create_with_bad_input_changes_nothing(director_client):
    response = director_client.post(
        reverse("tournaments:tournament-create"), {**BASE, "tables": "0", "date": "someday"}
    )
    assert response.status_code == 200
    assert Tournament.objects.count() == 0
    body = response.content.decode()
    assert "Enter a valid date" in body


def test_setup_page_edits_and_records_the_change(director_client):
    t = make_tournament(owner=director_client.user, name="Old name", preset="modern")
    url = reverse("tournaments:tournament-setup", args=[t.slug])
    page = director_client.get(url)
    assert "Games to 100 · one game" in page.content.decode()
    response = director_client.post(url, {**BASE, "name": "New name", "preset": "classic"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "New name" and t.slug == "old-name"  # the public URL never moves
    assert t.ruleset.preset == "classic"
    change = AuditEntry.objects.get(tournament=t, action="tournament edited")
    assert change.before["name"] == "Old name" and change.after["rules"]["preset"] == "classic"


def test_locked_rules_cannot_change(director_client):
    t = make_tournament(owner=director_client.user, preset="tournament")
    services.lock_rules(tournament=t)
    url = reverse("tournaments:tournament-setup", args=[t.slug])
    page = director_client.get(url).content.decode()
    assert "The rules are locked" in page
    response = director_client.post(url, {**BASE, "preset": "modern"})
    assert response.status_code == 200
    assert "The rules are locked" in response.content.decode()
    t.refresh_from_db()
    assert t.ruleset.preset == "tournament"
    # Disabled inputs are not sent: other details can still be saved.
    data = {k: v for k, v in BASE.items() if k != "preset"}
    response = director_client.post(url, {**data, "venue": "Back room"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.venue == "Back room" and t.ruleset.preset == "tournament"


def test_a_refused_change_to_locked_rules_shows_the_stored_rules(director_client):
    """The page comes back with the rules as stored (summary, preset and knobs), not as
    submitted, and says plainly that they are locked and were not changed."""
    t = make_tournament(owner=director_client.user, preset="tournament")
    services.lock_rules(tournament=t)
    url = reverse("tournaments:tournament-setup", args=[t.slug])
    stored = rules_summary(t.ruleset)
    submitted = {**BASE, "name": "Renamed", "preset": "modern", "game_target": "300"}

    response = director_client.post(url, submitted)

    assert response.status_code == 200
    body = response.content.decode()
    assert escape(stored) in body
    assert escape(rules_summary(PRESETS["modern"].replace(game_target=300))) not in body
    assert "The rules are locked" in body and "The rules were not changed." in body
    form = response.context["form"]
    assert form["preset"].value() == "tournament" and form["game_target"].value() is None
    assert '<option value="tournament" selected>' in body and 'value="300"' not in body
    t.refresh_from_db()
    assert (t.name, t.ruleset.preset, t.ruleset.game_target) != ("Renamed", "modern", 300)
    assert t.ruleset == PRESETS["tournament"]


def test_update_service_refuses_locked_rules():
    t = make_tournament(preset="tournament")
    services.lock_rules(tournament=t)
    with pytest.raises(Exception, match="locked"):
        organising.update_tournament(
            tournament=t, data={"rules": PRESETS["modern"].to_dict()}, user=t.owner
        )
    t.refresh_from_db()
    assert t.ruleset.preset == "tournament"


def test_format_is_fixed_once_the_bracket_exists(director_client):
    t = make_bracket(players=4, owner=director_client.user)
    url = reverse("tournaments:tournament-setup", args=[t.slug])
    response = director_client.post(url, {**BASE, "bracket_kind": "round_robin"})
    assert response.status_code == 200
    assert "clear it before changing the format" in response.content.decode()
    t.refresh_from_db()
    assert t.bracket_kind == "single_elimination"


def test_more_tables_are_handed_out_at_once(director_client):
    t = make_bracket(players=8, owner=director_client.user, tables=2)
    assert t.matches.filter(table__isnull=False).count() == 2
    data = {**BASE, "tables": "4"}
    response = director_client.post(reverse("tournaments:tournament-setup", args=[t.slug]), data)
    assert response.status_code == 302
    assert t.matches.filter(table__isnull=False).count() == 4


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_rules_summary_view(director_client, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = director_client.get(
        reverse("tournaments:rules-summary"), {"preset": "classic", "gin_bonus": "30"}, **headers
    )
    body = response.content.decode()
    assert "gin 30" in body and "no big gin" in body
    assert body.lstrip().startswith('<section id="rules-summary"') is htmx
    assert "HX-Request" in response["Vary"]
    bad = director_client.get(
        reverse("tournaments:rules-summary"), {"knock_limit": "99"}, **headers
    )
    assert bad.status_code == 200 and "not valid yet" in bad.content.decode()


def test_status_moves_between_draft_and_registration(director_client):
    t = make_tournament(owner=director_client.user, status=Tournament.Status.DRAFT)
    url = reverse("tournaments:tournament-status", args=[t.slug])
    director_client.post(url, {"status": "registration"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    response = director_client.post(url, {"status": "finished"}, follow=True)
    assert "Only a tournament without a bracket" in response.content.decode()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


# -- roles -----------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_roles_page_adds_and_removes(director_client, htmx):
    t = make_tournament(owner=director_client.user)
    keeper = make_user(username="Keeper")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    page = director_client.get(reverse("accounts:roles", args=[t.slug]), **headers)
    assert page.status_code == 200
    assert page.content.decode().lstrip().startswith('<section id="role-list"') is htmx
    response = director_client.post(
        reverse("accounts:role-add", args=[t.slug]),
        {"username": "keeper", "role": "scorekeeper"},
        **headers,
    )
    assert response.status_code == (200 if htmx else 302)
    assert list(t.scorekeepers.all()) == [keeper]
    response = director_client.post(
        reverse("accounts:role-add", args=[t.slug]),
        {"username": "nobody", "role": "co_director"},
        **headers,
    )
    if htmx:
        assert "no active account" in response.content.decode()
    assert t.co_directors.count() == 0
    director_client.post(
        reverse("accounts:role-remove", args=[t.slug]),
        {"user": keeper.pk, "role": "scorekeeper"},
        **headers,
    )
    assert t.scorekeepers.count() == 0
    actions = list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert sorted(actions) == ["role added", "role removed"]


def test_role_errors():
    t = make_tournament()
    with pytest.raises(Exception, match="director already"):
        organising.add_role(
            tournament=t, username=t.owner.username, role="co_director", user=t.owner
        )
    with pytest.raises(Exception, match="Unknown role"):
        organising.add_role(tournament=t, username=t.owner.username, role="king", user=t.owner)
    with pytest.raises(Exception, match="does not have"):
        organising.remove_role(tournament=t, user_id=t.owner.pk, role="scorekeeper", user=t.owner)
