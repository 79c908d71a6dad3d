"""``import_season`` checks what the season form checks, and refuses in one line whatever
it cannot store (issue 29): no traceback, nothing written, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command

from club import services
from club.models import Season
from club.season_archive import export_season
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from tests.teams import team_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def document():
    director = make_director(username="league-director")
    players = [make_player(name=n) for n in ("Ann", "Ben")]
    night = run_tournament(
        players,
        owner=director,
        date=datetime.date(2026, 3, 2),
        winner=by_rank(players),
        name="Night 1",
    )
    league = Season(name="Spring league", owner=director, placing_points=[5, 3, 1])
    season = services.save_season(season=league, tournaments=[night], user=director)
    exported = export_season(season)
    Season.objects.all().delete()
    return exported


def refused(tmp_path, text: str) -> str:
    path = tmp_path / "season.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_season", str(path), stdout=io.StringIO(), stderr=err)
    assert exit_info.value.code == 1
    message = err.getvalue()
    assert message.startswith("error: ") and message.count("\n") == 1, message
    assert not Season.objects.exists()
    return message


def test_a_lone_surrogate_in_the_name_is_refused(document, tmp_path):
    text = json.dumps(document).replace("Spring league", "Spring \\ud800 league")
    assert "season.name" in refused(tmp_path, text)


def test_a_nul_character_in_the_name_is_refused(document, tmp_path):
    document["season"]["name"] = "Spring\x00league"
    assert "season.name" in refused(tmp_path, json.dumps(document))


def test_a_deeply_nested_file_is_refused(document, tmp_path):
    document["season"]["placing_points"] = "DEEP"
    text = json.dumps(document).replace('"DEEP"', "[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in refused(tmp_path, text)


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e400", "99999999999999999999999999"])
def test_a_number_out_of_range_is_refused(document, tmp_path, value):
    text = json.dumps(document).replace('"points_per_win": 1', f'"points_per_win": {value}')
    message = refused(tmp_path, text)
    assert "points_per_win" in message or f"{value} is not a number" in message


def test_a_team_event_is_refused_as_the_form_refuses_it(document, tmp_path):
    team_tournament(owner=make_director(), name="Pairs night", slug="pairs-night")
    document["season"]["tournaments"].append("pairs-night")
    assert "pairs-night" in refused(tmp_path, json.dumps(document))
