"""``matches.csv`` and ``standings.json`` of a staged event (issue 41): every match row
carries its stage, rows come stage by stage, round by round, match by match, rounds are
named as the pages name them, and each finished match says how it was decided, a match
decided on time with the points its sheet shows."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from club.csv_text import BOM
from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from standings.data import load
from tests.public import staged
from tests.tournaments.test_stages import play_open
from tournaments import services
from tournaments.models import Match, Stage, Tournament
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

NAMES = ("Łukasz Nowak", "Трофим Лысенко", "Nguyễn Văn Ễ", "Annelie Steyn")
NAMES += ("Zofia Wójcik", "Pieter Botha", "Dragan Petrović", "Ann Smith")
SMALL_KNOCK = HandData("knock", "A", 2, 30)  # 28 to A: decides nothing in a game to 100


@pytest.fixture
def night(director) -> tuple[Tournament, dict[str, Match]]:
    """Eight players, a two-round Swiss into a top-four knockout, played to the end: in
    round 1 a match decided on time and a walkover, in round 2 a withdrawal."""
    tournament, swiss, knockout = staged.swiss_into_top_four(director, NAMES, rounds=2)
    on_time, walkover, *_rest = Match.objects.filter(stage=swiss).order_by("position")
    record_hand(match=on_time, number=1, data=SMALL_KNOCK)
    services.forfeit(match=walkover, winner_side="B", user=director)
    play_open(tournament, swiss)
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    stage_services.pair_next_round(stage=swiss, user=director)
    withdrawn = Match.objects.filter(stage=swiss, round=2).order_by("position").first()
    services.withdraw(entry=withdrawn.side_a, user=director)
    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    play_open(tournament, Stage.objects.get(pk=knockout.pk))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    found = {"on time": on_time, "walkover": walkover, "withdrawal": withdrawn}
    for match in found.values():
        match.refresh_from_db()
    return tournament, found


def table(client, tournament: Tournament, language: str = "en") -> list[list[str]]:
    url = reverse("club:matches-csv", args=[tournament.slug])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode().removeprefix(BOM)
    delimiter = "," if language == "en" else ";"
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def by_match(rows: list[list[str]], match: Match) -> list[str]:
    found = [row for row in rows[1:] if {row[2], row[3]} == {match.name_a, match.name_b}]
    found = [row for row in found if row[10] == "Qualifying"]
    assert len(found) == 1, found
    return found[0]


def test_each_row_names_its_stage_and_round_as_the_pages_do_in_playing_order(client, night):
    tournament, _found = night
    rows = table(client, tournament)
    assert rows[0] == [
        "Match",
        "Table",
        "Player A",
        "Player B",
        "Games A",
        "Games B",
        "Points A",
        "Points B",
        "Winner",
        "Status",
        "Stage",
        "Decided",
    ]
    named = [(row[10], row[0]) for row in rows[1:]]
    assert named == [
        ("Qualifying", "Round 1 · Match 1"),
        ("Qualifying", "Round 1 · Match 2"),
        ("Qualifying", "Round 1 · Match 3"),
        ("Qualifying", "Round 1 · Match 4"),
        ("Qualifying", "Round 2 · Match 1"),
        ("Qualifying", "Round 2 · Match 2"),
        ("Qualifying", "Round 2 · Match 3"),
        ("Qualifying", "Round 2 · Match 4"),
        ("Knockout", "Semifinals · Match 1"),
        ("Knockout", "Semifinals · Match 2"),
        ("Knockout", "Final"),
    ]
    # The stored order interleaves the stages: round 1 of each before round 2 of either.
    stored = [m.stage.name for m in load(tournament).matches if not m.is_skipped]
    assert stored != [stage for stage, _match in named]


def test_how_each_match_was_decided(client, night):
    tournament, found = night
    rows = table(client, tournament)
    assert by_match(rows, found["on time"])[11] == "on time"
    assert by_match(rows, found["walkover"])[11] == "walkover"
    assert by_match(rows, found["withdrawal"])[11] == "withdrawal"
    decided = [row[11] for row in rows[1:]]
    assert decided.count("played") == len(decided) - 3
    assert all(row[9] == "Complete" for row in rows[1:])


def test_a_match_decided_on_time_shows_its_points_as_its_sheet_does(client, night):
    tournament, found = night
    on_time = found["on time"]
    sheet = load(tournament).sheets[on_time.pk]
    # The sheet: no game played out (a match total of 0–0), the first game 28–0 at the call.
    assert (sheet.match.total.a, sheet.match.total.b) == (0, 0)
    assert (sheet.games[0].points.a, sheet.games[0].points.b) == (28, 0)
    row = by_match(table(client, tournament), on_time)
    points = {row[2]: row[6], row[3]: row[7]}
    assert points == {on_time.name_a: "28", on_time.name_b: "0"}
    assert (row[4], row[5]) == ("0", "0")  # games won: none played out
    assert row[8] == on_time.name_a  # the leader at the call wins


@pytest.mark.parametrize(
    ("language", "header", "words"),
    [
        ("es", ["Fase", "Decidido"], {"por tiempo", "W.O.", "retirada", "jugado"}),
        ("af", ["Fase", "Beslis"], {"op tyd", "sonder spel", "onttrekking", "gespeel"}),
    ],
)
def test_the_stage_and_decided_columns_in_spanish_and_afrikaans(
    client, night, language, header, words
):
    tournament, _found = night
    rows = table(client, tournament, language)
    assert rows[0][-2:] == header
    assert {row[11] for row in rows[1:]} == words
    semifinal = {"es": "Semifinales · Encuentro 1", "af": "Halfeindstryde · Wedstryd 1"}
    assert semifinal[language] in [row[0] for row in rows]


def test_standings_json_rounds_carry_stage_round_and_decision(client, night):
    tournament, found = night
    url = reverse("public:standings-json", args=[tournament.slug])
    stages = client.get(url).json()["stages"]
    assert [stage["name"] for stage in stages] == ["Qualifying", "Knockout"]
    knockout = [row for rounds in stages[1]["rounds"] for row in rounds]
    assert [(row["stage"], row["round"], row["match"]) for row in knockout] == [
        ("Knockout", "Semifinals", "Semifinals · Match 1"),
        ("Knockout", "Semifinals", "Semifinals · Match 2"),
        ("Knockout", "Final", "Final"),
    ]
    swiss = [row for rounds in stages[0]["rounds"] for row in rounds]
    assert {row["stage"] for row in swiss} == {"Qualifying"}
    on_time = found["on time"]
    row = next(r for r in swiss if {r["a"], r["b"]} == {on_time.name_a, on_time.name_b})
    assert row["decided"] == "on time"
    assert row["points"] == {"a": 28, "b": 0} if row["a"] == on_time.name_a else {"a": 0, "b": 28}
    assert {r["decided"] for r in swiss} == {"played", "on time", "walkover", "withdrawal"}
