"""Rounds and matches named once, as the pages name them (issue 41): Round control, the
match sheet and its table link, and the printed scoresheet say "Quarterfinals · Match 1"
and "Qualifying · Round 1 · Match 3", never "Knockout · Round 1" for a quarterfinal nor a
match's key ("S1.R1-3"); in English, Spanish and Afrikaans."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_bracket
from tests.printing.test_pdf import has, line
from tests.public import staged
from tournaments.match_names import RoundNames, in_order
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Łukasz Nowak", "Трофим Лысенко", "Nguyễn Văn Ễ", "Annelie Steyn")
NAMES += ("Zofia Wójcik", "Pieter Botha", "Dragan Petrović", "Ann Smith")
QUARTERFINAL = {
    "en": "Quarterfinals · Match 1",
    "es": "Cuartos de final · Encuentro 1",
    "af": "Kwarteindstryde · Wedstryd 1",
}
SEMIFINALS = {"en": "Semifinals", "es": "Semifinales", "af": "Halfeindstryde"}
ROUND_1_MATCH_3 = {
    "en": "Qualifying · Round 1 · Match 3",
    "es": "Qualifying · Ronda 1 · Encuentro 3",
    "af": "Qualifying · Rondte 1 · Wedstryd 3",
}


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def in_language(client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language


@pytest.fixture
def swiss(director) -> tuple[Tournament, Match]:
    """Eight players in a Swiss called Qualifying, its first round paired."""
    tournament, swiss_stage, _knockout = staged.swiss_into_top_four(director, NAMES)
    third = Match.objects.get(stage=swiss_stage, round=1, position=3)
    return tournament, third


def quarterfinal() -> Match:
    tournament = make_bracket(players=8, tables=4)
    return Match.objects.get(tournament=tournament, section="winners", round=1, position=1)


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_a_quarterfinals_table_link_names_its_round(client, language):
    match = quarterfinal()
    in_language(client, language)
    page = text(
        client.get(reverse("scoring:table-match-sheet", args=[match.token])).content.decode()
    )
    assert QUARTERFINAL[language] in page
    assert match.key not in page
    assert "Round 1 · Match 1" not in page


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_a_swiss_match_sheet_and_its_table_link_name_the_stage(client, swiss, language):
    tournament, match = swiss
    in_language(client, language)
    for url in (
        reverse("scoring:table-match-sheet", args=[match.token]),
        reverse("scoring:match-sheet", args=[tournament.slug, match.pk]),
    ):
        page = text(client.get(url).content.decode())
        assert ROUND_1_MATCH_3[language] in page, url
        assert match.key not in page, url


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_a_swiss_scoresheet_names_the_stage_round_and_match_not_its_key(client, swiss, language):
    tournament, match = swiss
    tournament.language = language
    tournament.save(update_fields=["language"])
    client.force_login(tournament.owner)
    url = reverse(
        "printing:match-scoresheet", kwargs={"slug": tournament.slug, "match_id": match.pk}
    )
    printed = line(client.get(url).content)
    stage_round, number = ROUND_1_MATCH_3[language].rsplit(" · ", 1)
    assert has(printed, f"{stage_round} · {number}"), printed[:300]
    assert match.key not in printed


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_round_control_names_the_knockout_rounds_as_the_pages_do(client, director, language):
    from tests.public.test_staged_players import NAMES as TWELVE

    tournament, swiss_stage, _knockout = staged.swiss_into_top_four(director, TWELVE)
    staged.play_swiss(tournament, swiss_stage, director)
    from tournaments.stages import services as stage_services

    stage_services.close_stage(stage=swiss_stage, user=director)
    client.force_login(tournament.owner)
    in_language(client, language)
    html = client.get(reverse("tournaments:round-control", args=[tournament.slug])).content
    headings = [text(h) for h in re.findall(r"<h2>\s*(.*?)\s*<small>", html.decode(), re.S)]
    final = {"en": "Final", "es": "Final", "af": "Eindstryd"}[language]
    assert headings[-2:] == [f"Knockout · {SEMIFINALS[language]}", f"Knockout · {final}"]
    # So are the link to the round in play and its scoresheets' button.
    assert text(html.decode()).count(f"Knockout · {SEMIFINALS[language]}") == 3
    assert "Knockout · Round" not in text(html.decode())
    assert "Knockout · Ronda" not in text(html.decode())


def test_names_within_each_stage_and_playing_order(director):
    tournament = make_bracket(players=8, bracket_kind="double_elimination")
    matches = list(Match.objects.filter(tournament=tournament))
    names = RoundNames(matches, double=True)
    by_key = {m.key: m for m in matches}
    assert names.full(by_key["W1-1"]) == "Winners' round 1 · Match 1"
    final = next(m for m in matches if m.section == "final")
    assert names.full(final) == "Grand final"
    ordered = [m.section for m in in_order(matches)]
    assert ordered[-1] in ("final", "reset") and ordered[0] == "winners"


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_a_closed_table_link_names_the_stage_round_and_match(client, swiss, language):
    _tournament, match = swiss
    Match.objects.filter(pk=match.pk).update(token_revoked=True)
    in_language(client, language)
    response = client.get(reverse("scoring:table-match-sheet", args=[match.token]))
    assert response.status_code == 410
    page = text(response.content.decode())
    assert ROUND_1_MATCH_3[language] in page
    assert match.key not in page


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_round_controls_walkover_question_names_the_match(client, language):
    match = quarterfinal()
    tournament = match.tournament
    client.force_login(tournament.owner)
    in_language(client, language)
    url = reverse("tournaments:match-walkover", args=[tournament.slug, match.pk])
    response = client.post(url, {"winner_side": "A", "version": match.version})
    page = text(response.content.decode())
    assert f"{QUARTERFINAL[language]} " in page  # "… ends without play: …"
    assert match.key not in page


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_the_stages_page_names_a_match_level_on_time_with_its_stage(client, director, language):
    from scoring import timing
    from scoring.loading import HandData
    from scoring.services import record_hand
    from tests.tournaments.test_stages import make_event
    from tournaments.stages import services as stage_services

    tournament = make_event(4)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", name="Qualifying", rounds=1
    )
    stage_services.start(tournament=tournament, user=director)
    level = Match.objects.get(stage=swiss, position=1)
    record_hand(match=level, number=1, data=HandData("knock", "A", 2, 12))
    record_hand(match=level, number=2, data=HandData("knock", "B", 2, 12))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    client.force_login(tournament.owner)
    in_language(client, language)
    page = text(client.get(reverse("tournaments:stages", args=[tournament.slug])).content.decode())
    named = ROUND_1_MATCH_3[language].replace("3", "1")
    assert f"{named}: {level.name_a}" in page
