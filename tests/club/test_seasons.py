"""Seasons: three tournaments played through the services, the table checked by hand."""

from __future__ import annotations

import datetime
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club import services
from club.models import Season
from club.season_data import season_table
from club.seasons import Event, EventResult, Rules, parse_points, table
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player

JAN = datetime.date(2026, 1, 5)


@pytest.fixture
def season_of_three(db):
    """Ann, Ben, Cat, Dan; seeded in that order in all three single-elimination events.

    Week 1 (Ann > Ben > Cat > Dan): Ann 1st, Ben 2nd, Cat and Dan 3–4.
    Week 2 (Dan > Cat > Ben > Ann): Dan 1st, Cat 2nd, Ann and Ben 3–4.
    Week 3 (Ben > Ann > Cat > Dan): Ben 1st, Ann 2nd, Cat and Dan 3–4.
    """
    director = make_director()
    ann, ben, cat, dan = (make_player(name=n) for n in ("Ann", "Ben", "Cat", "Dan"))
    field = [ann, ben, cat, dan]
    orders = [[ann, ben, cat, dan], [dan, cat, ben, ann], [ben, ann, cat, dan]]
    events = [
        run_tournament(
            field,
            owner=director,
            date=JAN + datetime.timedelta(days=7 * week),
            winner=by_rank(order),
            name=f"Week {week + 1}",
        )
        for week, order in enumerate(orders)
    ]
    return director, field, events


def make_season(director, events, **fields) -> Season:
    season = Season(name="Winter league", owner=director, **fields)
    return services.save_season(season=season, tournaments=events, user=director)


def test_points_per_placing_best_two_of_three(season_of_three):
    """Points 10, 6, 4 (3–4 share 3rd place's 4). By hand:

    =====  ======  ======  ======  ===  ==========
    who    week 1  week 2  week 3  all  best 2
    =====  ======  ======  ======  ===  ==========
    Ann    10      4       6       20   16 (10+6)
    Ben    6       4       10      20   16 (6+10)
    Cat    4       6       4       14   10 (4+6: the earlier 4)
    Dan    4       10      4       18   14 (10+4)
    =====  ======  ======  ======  ===  ==========

    Ann and Ben tie on every count: both first, by name; Dan third, Cat fourth.
    """
    director, (_ann, _ben, _cat, _dan), events = season_of_three
    season = make_season(director, events, placing_points=[10, 6, 4], best_of=2)
    found = season_table(season)
    got = [(r.name, r.place, r.points, r.all_points, r.events) for r in found.rows]
    assert got == [
        ("Ann", 1, 16, 20, 3),
        ("Ben", 1, 16, 20, 3),
        ("Dan", 3, 14, 18, 3),
        ("Cat", 4, 10, 14, 3),
    ]
    week1, week2, week3 = (t.pk for t in events)
    rows = {r.name: r for r in found.rows}
    assert rows["Ann"].by_event == {week1: 10, week2: 4, week3: 6}
    assert rows["Ann"].counted == {week1, week3}
    assert rows["Cat"].counted == {week1, week2}
    assert rows["Dan"].counted == {week2, week1}


def test_points_per_match_won_all_events(season_of_three):
    """2 points a match won. Matches won: Ann 2+0+1, Ben 1+0+2, Cat 0+1+0, Dan 0+2+0."""
    director, _field, events = season_of_three
    season = make_season(director, events, scoring="match_wins", points_per_win=2)
    got = [(r.name, r.place, r.points) for r in season_table(season).rows]
    assert got == [("Ann", 1, 6), ("Ben", 1, 6), ("Dan", 3, 4), ("Cat", 4, 2)]


def test_the_season_page_csv_and_pdf(client, season_of_three):
    director, _field, events = season_of_three
    season = make_season(director, events, placing_points=[10, 6, 4], best_of=2)
    html = client.get(reverse("club:season", args=[season.slug])).content.decode()
    assert "Winter league" in html and "(4)" in html  # Ann's week 2 does not count
    text = client.get(reverse("club:season-csv", args=[season.slug])).content.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0] == "Place,Player,Points,Events played,Week 1,Week 2,Week 3"
    assert lines[1:] == [
        "1,Ann,16,3,10,4,6",
        "1,Ben,16,3,6,4,10",
        "3,Dan,14,3,4,10,4",
        "4,Cat,10,3,4,6,4",
    ]
    pdf = client.get(reverse("printing:season-pdf", args=[season.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    content = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "Winter league" in content and "Dan" in content and "(4)" in content


def test_a_director_creates_a_season_from_the_form(client, season_of_three):
    director, _field, events = season_of_three
    client.force_login(director)
    response = client.post(
        reverse("club:season-create"),
        {
            "name": "Spring league",
            "scoring": "placing",
            "placing_points_text": "25; 18 15",
            "points_per_win": 1,
            "best_of": 2,
            "tournaments": [t.pk for t in events],
        },
    )
    season = Season.objects.get(name="Spring league")
    assert response.status_code == 302
    assert season.placing_points == [25, 18, 15]
    assert season.tournaments.count() == 3
    assert season.slug == "spring-league"


def test_bad_points_change_nothing(client, season_of_three):
    director, _field, _events = season_of_three
    client.force_login(director)
    response = client.post(
        reverse("club:season-create"),
        {
            "name": "Bad",
            "scoring": "placing",
            "placing_points_text": "10, lots",
            "points_per_win": 1,
        },
    )
    assert response.status_code == 200
    assert "whole numbers" in response.content.decode()
    assert not Season.objects.filter(name="Bad").exists()


def test_only_its_director_edits_a_season(client, season_of_three):
    director, _field, events = season_of_three
    season = make_season(director, events, placing_points=[3, 2, 1])
    client.force_login(make_director())
    response = client.post(reverse("club:season-edit", args=[season.slug]), {"name": "Taken"})
    assert response.status_code == 403
    season.refresh_from_db()
    assert season.name == "Winter league"


@pytest.mark.parametrize(
    ("text", "points"),
    [("25, 18, 15", (25, 18, 15)), ("3;2;1", (3, 2, 1)), ("", ()), (" 7 ", (7,))],
)
def test_parse_points(text, points):
    assert parse_points(text) == points


@pytest.mark.parametrize("text", ["a, b", "-1", "1001", "1.5"])
def test_parse_points_refuses(text):
    with pytest.raises(ValueError):
        parse_points(text)


def test_an_undecided_place_and_a_place_past_the_table_earn_nothing():
    events = [Event(1, "One", (EventResult(1, "A", None, 2), EventResult(2, "B", 9, 0)))]
    rows = table(events, Rules(placing_points=(5, 3)))
    assert [(r.name, r.points) for r in rows] == [("A", 0), ("B", 0)]


def test_a_season_offers_no_team_events(client, season_of_three):
    from tests.teams import team_tournament

    director, _field, events = season_of_three
    team_event = team_tournament(owner=director, name="Pairs Night")
    client.force_login(director)
    form = client.get(reverse("club:season-create")).content.decode()
    assert events[0].name in form and "Pairs Night" not in form
    response = client.post(
        reverse("club:season-create"),
        {
            "name": "Mixed",
            "scoring": "placing",
            "placing_points_text": "3 2 1",
            "points_per_win": 1,
            "tournaments": [team_event.pk],
        },
    )
    assert response.status_code == 200
    assert not Season.objects.filter(name="Mixed").exists()
