"""The final standings of a staged event rank every entrant (issue 28): the last stage's
places first, then those out in earlier stages by their place there, ties as ties; the
same rows on every surface (the page, the projector, ``standings.json``,
``standings.csv``, the standings PDF, the prizes, the club player page)."""

from __future__ import annotations

import csv
import io
import itertools
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club import services as club_services
from money import services as money_services
from tests.factories import make_player, make_tournament
from tests.public import staged
from tests.tournaments.test_stages import ONE_GAME_TO_100, play, play_open
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.stages import services as stage_services
from tournaments.stages.results import stage_results

pytestmark = pytest.mark.django_db

NAMES = (
    "Łukasz Śliwiński",
    "王小明",
    "Дмитрий Шостакович",
    "Annelie Steyn",
    "Zofia Wójcik",
    "欧阳娜娜",
    "Анна Ахматова",
    "Pieter van der Merwe",
    "Grzegorz Brzęczyszczykiewicz",
    "李华",
    "Ольга Соколова",
    "Marthinus Botha",
)


def swiss_into_top_four(director, names=NAMES) -> tuple[Tournament, Stage, Stage]:
    return staged.swiss_into_top_four(director, names)


play_swiss = staged.play_swiss
make_named_event = staged.make_named_event


def get_json(client, tournament) -> dict:
    response = client.get(reverse("public:standings-json", args=[tournament.slug]))
    assert response.status_code == 200
    return response.json()


def pdf_lines(client, tournament) -> list[str]:
    response = client.get(reverse("printing:standings-pdf", args=[tournament.slug]))
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages).splitlines()


def csv_rows(client, tournament) -> list[list[str]]:
    response = client.get(reverse("club:standings-csv", args=[tournament.slug]))
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def expected_out_places(swiss: Stage, qualified: set[int]) -> dict[int, tuple[int, str]]:
    """Each non-qualifier's final place and label: after the qualifiers, in the Swiss
    order, those level in the Swiss level here too."""
    matches = list(Match.objects.filter(stage=swiss))
    (table,) = stage_results(swiss, matches).tables
    out = [row for row in table if row.player not in qualified]
    found = {}
    for row in out:
        first = len(qualified) + 1 + sum(1 for r in out if r.place < row.place)
        last = first + sum(1 for r in out if r.place == row.place) - 1
        found[row.player] = (first, str(first) if first == last else f"{first}–{last}")
    return found


def test_every_entrant_of_a_swiss_into_a_knockout_has_a_final_place_everywhere(client, director):
    tournament, swiss, knockout = swiss_into_top_four(director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    qualified = {int(pk) for pk in knockout.entrants}
    assert len(qualified) == 4
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    expected = expected_out_places(swiss, qualified)
    names = dict(tournament.entries.values_list("pk", "player__name"))

    payload = get_json(client, tournament)
    rows = payload["standings"]
    assert payload["tournament"]["complete"] is True
    assert payload["tournament"]["champion"] == rows[0]["name"]
    assert sorted(row["name"] for row in rows) == sorted(NAMES)
    by_name = {row["name"]: row for row in rows}
    # The knockout's four: champion, runner-up, and the two semifinal losers level.
    assert [(r["place"], r["place_label"]) for r in rows[:4]] == [
        (1, "1"),
        (2, "2"),
        (3, "3–4"),
        (3, "3–4"),
    ]
    assert {r["stage_reached"] for r in rows[:4]} == {"Knockout"}
    assert {r["name"] for r in rows[:4]} == {names[pk] for pk in qualified}
    for entry_id, (place, label) in expected.items():
        row = by_name[names[entry_id]]
        assert (row["place"], row["place_label"]) == (place, label), row
        assert row["stage_reached"] == "Qualifying"
        assert "Qualifying" in row["progress"] and "Still in" not in row["progress"]
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    # Every key the rows had is still there.
    for row in rows:
        assert {"place", "place_label", "name", "seed", "progress", "matches_won"} <= set(row)
    # The whole event's matches: three Swiss rounds and the knockout's.
    assert all(r["matches_played"] >= 3 for r in rows)

    lines = csv_rows(client, tournament)
    assert len(lines) == 1 + 12
    header, body = lines[0], lines[1:]
    assert header[:4] == ["Place", "Player", "Progress", "Stage reached"]
    assert [(line[0], line[1]) for line in body] == [(r["place_label"], r["name"]) for r in rows]
    assert [line[3] for line in body] == [r["stage_reached"] for r in rows]

    printed = pdf_lines(client, tournament)
    # The subtitle gives the event's stages, not a one-bracket format it never had.
    assert any("Qualifying (Swiss, 3 rounds, top 4 advance) → Knockout" in line for line in printed)
    assert not any("Single elimination ·" in line for line in printed)
    for row in rows:
        assert any(
            line.startswith(row["place_label"] + " ") and row["name"] in line for line in printed
        ), (row, printed)

    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    standings = html[html.index('id="standings"') :]
    for row in rows:
        assert row["name"] in standings

    display = client.get(reverse("public:display", args=[tournament.slug])).content.decode()
    shown = display[display.index('class="pj-standings"') :]
    for row in rows:
        assert row["name"] in shown


def test_prizes_go_by_final_place_to_non_qualifiers_too_and_ties_share(client, director):
    tournament, swiss, knockout = swiss_into_top_four(director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    play_open(tournament, knockout)
    money_services.save_money(
        tournament=tournament,
        entry_fee=Decimal("10"),
        currency="€",
        payout=[Decimal(40), Decimal(25), Decimal(10), Decimal(10), Decimal(10), Decimal(5)],
        rounding=Decimal("0.01"),
        user=director,
    )
    for entry in tournament.entries.all():
        money_services.record_payment(
            entry=entry, method="cash", amount=Decimal("10"), user=director
        )
    rows = get_json(client, tournament)["standings"]
    fifth = [r["name"] for r in rows if r["place"] == 5]
    assert fifth  # a non-qualifier places fifth
    page = client.get(reverse("money:prizes", args=[tournament.slug])).content.decode()
    winners = page[page.index("prize-table", page.index("Prize pool")) :]
    for name in fifth:
        assert name in winners
    from money.prizes import prizes

    found = prizes(tournament)
    assert sum(w.cents for w in found.winners) == found.pool == 12_000
    by_name = {w.name: w for w in found.winners}
    for name in fifth:
        assert by_name[name].place_label.startswith("5")


def test_the_club_player_page_says_where_a_non_qualifier_finished(client, director):
    tournament, swiss, knockout = swiss_into_top_four(director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    play_open(tournament, knockout)
    rows = get_json(client, tournament)["standings"]
    last = rows[-1]
    player = tournament.entries.get(player__name=last["name"]).player
    html = client.get(reverse("club:player", args=[player.pk])).content.decode()
    section = html[html.index('id="tournaments-heading"') :]
    section = section[: section.index("</table>")]
    assert "Still in" not in section
    assert last["place_label"] in section
    assert "out in Qualifying" in section
    champion = tournament.entries.get(player__name=rows[0]["name"]).player
    html = client.get(reverse("club:player", args=[champion.pk])).content.decode()
    section = html[html.index('id="tournaments-heading"') :]
    section = section[: section.index("</table>")]
    assert "Still in" not in section and "out in" not in section


def test_while_stages_run_players_in_play_have_no_place_and_those_out_do(client, director):
    tournament, swiss, knockout = swiss_into_top_four(director)
    play_open(tournament, swiss, upset_every=3)
    stage_services.pair_next_round(stage=swiss, user=director)

    rows = get_json(client, tournament)["standings"]
    assert len(rows) == 12
    assert all(r["place"] is None and r["stage_reached"] == "Qualifying" for r in rows)
    # In the Swiss order, each with the place so far and the rounds played of three.
    for row in rows:
        assert row["progress"].endswith(" · 1 of 3 rounds played"), row
    assert rows[0]["progress"].startswith("Place 1")
    display = client.get(reverse("public:display", args=[tournament.slug])).content.decode()
    assert "1 of 1 match played" not in display
    assert "1 of 3 rounds played" in display

    play_open(tournament, swiss, upset_every=3)
    stage_services.pair_next_round(stage=swiss, user=director)
    play_open(tournament, swiss, upset_every=3)
    rows = get_json(client, tournament)["standings"]
    assert all(r["place"] is None for r in rows)  # the cut is not made yet
    assert all(r["progress"].endswith(" · 3 of 3 rounds played") for r in rows)

    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    qualified = {int(pk) for pk in knockout.entrants}
    expected = expected_out_places(swiss, qualified)
    names = dict(tournament.entries.values_list("pk", "player__name"))
    rows = get_json(client, tournament)["standings"]
    assert len(rows) == 12
    assert [r["place"] for r in rows[:4]] == [None] * 4
    assert {r["name"] for r in rows[:4]} == {names[pk] for pk in qualified}
    assert {r["stage_reached"] for r in rows[:4]} == {"Knockout"}
    assert {r["name"]: (r["place"], r["place_label"]) for r in rows[4:]} == {
        names[pk]: place for pk, place in expected.items()
    }
    assert get_json(client, tournament)["tournament"]["complete"] is False


def test_pools_into_a_cut_rank_by_pool_place_then_across_pools(client, director):
    tournament = make_named_event(tuple(f"Pool player {n:02d}" for n in range(1, 17)))
    pools = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="round_robin",
        name="Pools",
        pool_size=4,
        advance=2,
        rules=ONE_GAME_TO_100,
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        name="Finals",
        rules=ONE_GAME_TO_100,
        third_place=True,
    )
    stage_services.start(tournament=tournament, user=director)
    rows = get_json(client, tournament)["standings"]
    assert [r["progress"] for r in rows] == ["0 of 3 matches played"] * 16
    first = Match.objects.filter(stage=pools, status="ready").order_by("pk").first()
    play(first, "A")
    rows = get_json(client, tournament)["standings"]
    winner = next(r for r in rows if r["name"] == first.side_a.player.name)
    assert winner["place"] is None
    assert winner["progress"].startswith("Place 1 in pool ")
    assert winner["progress"].endswith(" so far · 1 of 3 matches played")
    play_open(tournament, pools, upset_every=4)
    stage_services.close_stage(stage=pools, user=director)
    knockout.refresh_from_db()
    play_open(tournament, knockout)
    # Read in the order the pages read them (players level on every tiebreak keep it).
    played = Match.objects.filter(stage=pools).order_by("round", "section", "position", "pk")
    tables = stage_results(pools, list(played)).tables
    names = dict(tournament.entries.values_list("pk", "player__name"))

    rows = get_json(client, tournament)["standings"]
    assert len(rows) == 16
    assert [r["place"] for r in rows[:4]] == [1, 2, 3, 4]  # a third-place match
    assert [r["place_label"] for r in rows[4:8]] == ["5–8"] * 4
    assert {r["stage_reached"] for r in rows[:8]} == {"Finals"}
    assert {r["stage_reached"] for r in rows[8:]} == {"Pools"}
    # The players out in the pools come by pool place first (players level on every
    # tiebreak in a pool share its place, so a pool may give two thirds and no fourth,
    # or a second who did not go through),
    # then across pools by the stage's tiebreaks: never a better value below a worse one.
    pool_place = {names[row.player]: row.place for table in tables for row in table}
    values = {
        names[row.player]: tuple(v or 0 for _n, v in row.values)
        for table in tables
        for row in table
    }
    out = rows[8:]
    advanced = {names[pk] for pk in knockout.entrants}
    assert {r["name"] for r in out} == set(pool_place) - advanced
    assert [pool_place[r["name"]] for r in out] == sorted(pool_place[r["name"]] for r in out)
    for upper, lower in itertools.pairwise(out):
        if pool_place[upper["name"]] != pool_place[lower["name"]]:
            assert upper["place"] < lower["place"]
            continue
        assert values[upper["name"]] >= values[lower["name"]]
        level = values[upper["name"]] == values[lower["name"]]
        assert (upper["place"] == lower["place"]) == level
    assert all(r["place"] is not None for r in rows)


def test_a_drop_a_late_entry_and_a_lucky_loser_each_keep_a_row_and_a_place(client, director):
    from tests.factories import make_entries
    from tournaments import services

    tournament, swiss, knockout = swiss_into_top_four(director)
    play_open(tournament, swiss, upset_every=3)
    dropped = tournament.entries.get(seed=12)
    services.withdraw(entry=dropped, user=director)
    late = make_entries(tournament=tournament, count=1)[0]
    stage_services.pair_next_round(stage=swiss, user=director)
    play_open(tournament, swiss, upset_every=3)
    stage_services.pair_next_round(stage=swiss, user=director)
    play_open(tournament, swiss, upset_every=3)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    match = Match.objects.filter(stage=knockout, round=1).order_by("position").first()
    no_show = match.side_b_id
    lucky = tournament.entries.exclude(pk__in=knockout.entrants).exclude(withdrawn=True).first()
    stage_services.lucky_loser(match=match, side="B", entry=lucky, user=director)
    play_open(tournament, knockout)

    rows = get_json(client, tournament)["standings"]
    by_name = {r["name"]: r for r in rows}
    entries = {e.pk: e.player.name for e in tournament.entries.select_related("player")}
    assert set(by_name) == set(entries.values()) and len(rows) == 13
    assert all(isinstance(r["place"], int) for r in rows)
    assert by_name[entries[lucky.pk]]["stage_reached"] == "Knockout"
    assert by_name[entries[lucky.pk]]["place"] <= 4
    assert by_name[entries[no_show]]["stage_reached"] == "Qualifying"
    assert by_name[entries[no_show]]["place"] >= 5
    assert by_name[entries[late.pk]]["stage_reached"] == "Qualifying"
    assert "(withdrew)" in by_name[entries[dropped.pk]]["progress"]


def test_season_points_count_the_non_qualifiers_places(director):
    from club.models import Season
    from club.season_data import season_table

    tournament, swiss, knockout = swiss_into_top_four(director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    play_open(tournament, knockout)
    season = club_services.save_season(
        season=Season(
            name="Autumn",
            owner=director,
            placing_points=list(range(12, 0, -1)),  # 12 for 1st … 1 for 12th
        ),
        tournaments=[tournament],
        user=director,
    )
    found = season_table(season)
    assert len(found.rows) == 12
    places = dict(tournament.entries.values_list("player_id", "player__name"))
    assert {row.name for row in found.rows} == set(places.values())
    assert all(row.points > 0 for row in found.rows), [(r.name, r.points) for r in found.rows]


def test_the_club_player_page_reads_staged_events_in_a_fixed_number_of_queries(client, director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [make_player(name=f"Regular {n:02d}") for n in range(1, 13)]

    def club_night() -> None:
        tournament = make_tournament(status="registration", tables=6)
        for seed, player in enumerate(players, start=1):
            Entry.objects.create(tournament=tournament, player=player, seed=seed)
        swiss = stage_services.add_stage(
            tournament=tournament,
            user=director,
            kind="swiss",
            rounds=2,
            advance=4,
            rules=ONE_GAME_TO_100,
        )
        stage_services.add_stage(
            tournament=tournament, user=director, kind="single_elimination", rules=ONE_GAME_TO_100
        )
        stage_services.start(tournament=tournament, user=director)
        play_swiss(tournament, swiss, director)
        stage_services.close_stage(stage=swiss, user=director)

    counts = []
    for _night in range(3):
        club_night()
        url = reverse("club:player", args=[players[-1].pk])
        client.get(url)  # the first read after new results rebuilds the rating
        with CaptureQueriesContext(connection) as seen:
            html = client.get(url).content.decode()
        counts.append(len(seen))
        assert "Still in" not in html
    assert counts[0] == counts[1] == counts[2], counts


def test_a_swiss_into_a_double_elimination_ranks_all_ten(client, director):
    tournament = make_named_event(NAMES[:10])
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=2,
        advance=6,
        rules=ONE_GAME_TO_100,
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="double_elimination",
        name="Double",
        rules=ONE_GAME_TO_100,
    )
    stage_services.start(tournament=tournament, user=director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    payload = get_json(client, tournament)
    rows = payload["standings"]
    assert payload["tournament"]["complete"] is True and len(rows) == 10
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert rows[0]["place"] == 1 and rows[1]["place"] == 2
    assert [r["stage_reached"] for r in rows] == ["Double"] * 6 + ["Qualifying"] * 4
    assert min(r["place"] for r in rows[6:]) == 7
