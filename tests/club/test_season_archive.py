"""A season moves to another installation: its tournaments' archives, then its file."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from archive.api import import_archive, parse
from archive.export import dumps as dump_tournament
from archive.export import export_tournament
from club import ratings, services
from club.models import RatingChange, Season
from club.season_archive import SeasonArchiveError, dumps, export_season, import_season
from club.season_data import season_table
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def table_of(season: Season) -> list[tuple]:
    return [(r.name, r.place, r.points, r.events) for r in season_table(season).rows]


@pytest.fixture
def season():
    director = make_director(username="league-director")
    players = [make_player(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    nights = [
        run_tournament(
            players,
            owner=director,
            date=datetime.date(2026, 3, 2 + 7 * week),
            winner=by_rank(players[week:] + players[:week]),
            name=f"Night {week + 1}",
        )
        for week in range(3)
    ]
    league = Season(name="Spring league", owner=director, placing_points=[5, 3, 1], best_of=2)
    return services.save_season(season=league, tournaments=nights, user=director)


def test_a_season_survives_the_move(season):
    before = table_of(season)
    ratings.ensure_current()
    rated = sorted(RatingChange.objects.values_list("player__name", "sequence", "mu_after"))
    archives = [dump_tournament(export_tournament(t)) for t in season.tournaments.all()]
    season_file = dumps(export_season(season))
    # The other installation: the same accounts, none of the data.
    Season.objects.all().delete()
    Match.objects.all().delete()  # entries are protected while matches name them
    Tournament.objects.all().delete()
    for text in archives:
        import_archive(parse(text))
    moved = import_season(season_file)
    assert table_of(moved) == before
    assert moved.best_of == 2 and moved.placing_points == [5, 3, 1]
    ratings.ensure_current()
    again = sorted(RatingChange.objects.values_list("player__name", "sequence", "mu_after"))
    assert again == rated  # derived from the results: the same on arrival


def test_a_tournament_imported_under_another_slug(season, tmp_path, capsys):
    first = season.tournaments.order_by("date").first()
    archive = dump_tournament(export_tournament(first))
    season_file = tmp_path / "season.json"
    season_file.write_text(dumps(export_season(season)))
    Season.objects.all().delete()
    import_archive(parse(archive), slug="night-one-again")
    call_command("import_season", str(season_file), "--slug", f"{first.slug}=night-one-again")
    moved = Season.objects.get()
    assert moved.tournaments.count() == 3
    assert "Imported season 'Spring league'" in capsys.readouterr().out


def test_a_missing_tournament_imports_nothing(season):
    text = dumps(export_season(season))
    Season.objects.all().delete()
    Match.objects.filter(tournament__slug="night-3").delete()
    Tournament.objects.get(slug="night-3").delete()
    with pytest.raises(SeasonArchiveError, match="not on this installation: night-3"):
        import_season(text)
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something"}, "not a season file"),
        ({"season": {"name": "x"}}, "season.slug"),
        ({"season": {"scoring": "goals"}}, "season.scoring"),
        ({"season": {"placing_points": ["ten"]}}, "placing_points"),
        ({"season": {"best_of": "two"}}, "best_of"),
    ],
)
def test_bad_files_are_refused_in_one_line(season, change, message):
    document = export_season(season)
    Season.objects.all().delete()
    for key, value in change.items():
        if isinstance(value, dict) and key == "season":
            if value.get("name") == "x":
                document["season"] = value
            else:
                document["season"].update(value)
        else:
            document[key] = value
    with pytest.raises(SeasonArchiveError, match=message):
        import_season(json.dumps(document))
    assert not Season.objects.exists()


def test_the_export_is_for_the_seasons_director(client, season):
    url = reverse("club:season-export", args=[season.slug])
    client.force_login(make_director())
    assert client.get(url).status_code == 403
    client.force_login(season.owner)
    response = client.get(url)
    assert response.json()["season"]["tournaments"] == ["night-1", "night-2", "night-3"]


def test_a_hidden_player_stays_hidden_in_the_archive(season):
    from tournaments.models import Player

    tournament = season.tournaments.order_by("date").first()
    Player.objects.filter(name="Cat").update(hidden=True)
    document = json.loads(dump_tournament(export_tournament(tournament)))
    rows = {p["name"]: p for p in document["players"]}
    assert rows["Cat"]["hidden"] is True and "hidden" not in rows["Ann"]
    Season.objects.all().delete()
    Match.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    import_archive(document)
    assert Player.objects.get(name="Cat").hidden
    assert not Player.objects.get(name="Ann").hidden
