"""Public pages: the tournament page, standings.json and the projector, as full pages and as
htmx fragments; no personal data; constant queries whatever the field size."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import ratings
from public.live import POLL_SECONDS
from tests.factories import make_bracket, make_entries, make_player, make_tournament
from tests.scoring.helpers import gin, knock, play
from tests.standings.test_standings import play_match, play_out, playable, quick_match
from tournaments.models import Entry, Match, Tournament

pytestmark = pytest.mark.django_db

JSON_ROW_KEYS = {
    "place",
    "place_label",
    "name",
    "seed",
    "progress",
    "stage_reached",  # issue 28: a staged event's stage name, null for one bracket
    "matches_won",
    "matches_played",
    "games_won",
    "games_lost",
    "points_for",
    "points_against",
    "hands_won",
    "gins",
    "undercuts",
    "shutouts",
    "average_knock_deadwood",
    # the club rating (issue 17), once the club has one
    "rating",
    "rating_uncertainty",
    "rating_change",
    "rating_provisional",
}


def page_url(t: Tournament) -> str:
    return reverse("public:tournament", kwargs={"slug": t.slug})


def json_url(t: Tournament) -> str:
    return reverse("public:standings-json", kwargs={"slug": t.slug})


def display_url(t: Tournament, panel: str = "") -> str:
    url = reverse("public:display", kwargs={"slug": t.slug})
    return f"{url}?panel={panel}" if panel else url


def htmx(client, url, target=""):
    headers = {"HTTP_HX_REQUEST": "true"}
    if target:
        headers["HTTP_HX_TARGET"] = target
    return client.get(url, **headers)


@pytest.fixture
def played_eight():
    return play_out(make_bracket(players=8, third_place=True), hands=quick_match)


def test_urls_are_the_stable_ones():
    t = Tournament(slug="spring-open")
    assert page_url(t) == "/t/spring-open/"
    assert json_url(t) == "/t/spring-open/standings.json"
    assert display_url(t) == "/t/spring-open/display/"


# -- tournament page -------------------------------------------------------------------------


def test_tournament_page_full(client, played_eight):
    t = played_eight
    response = client.get(page_url(t))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and 'href="/static/css/public.css"' in html
    assert 'id="bracket"' in html and 'id="standings"' in html
    assert t.name in html and "Single elimination" in html and "Finished" in html
    # Rules in plain words (the same summary the setup page and scoresheets print).
    assert "best of 5" in html
    for entry in Entry.objects.filter(tournament=t).select_related("player"):
        assert entry.player.name in html
    final = Match.objects.get(tournament=t, section="winners", round=3)
    sheet = reverse("scoring:match-sheet", kwargs={"slug": t.slug, "match_id": final.pk})
    assert f'href="{sheet}"' in html
    assert "3–0" in html  # games won, as on a scoresheet
    assert "Champion" in html and "Third-place match" in html
    assert "Quarterfinals" in html and "Semifinals" in html
    assert 'class="mslot won"' in html
    # Finished: nothing polls any more.
    assert "hx-trigger" not in html
    assert "HX-Request" in response["Vary"]


def test_running_page_polls_small_regions(client, running_eight):
    html = client.get(page_url(running_eight)).content.decode()
    trigger = f"every {POLL_SECONDS}s, poll-again"
    polled = re.findall(rf'<div id="(\w+)"[^>]*hx-trigger="{trigger}"', html)
    assert polled == ["bracket", "standings"]
    assert f'hx-get="{page_url(running_eight)}?region=bracket"' in html
    assert "Table " in html and 'class="mbox status-in_play live"' in html
    assert "Playing: Quarterfinals, table" in html


def test_page_fragments(client, running_eight):
    url = page_url(running_eight)
    bracket = htmx(client, url, "bracket")
    assert bracket.status_code == 200
    html = bracket.content.decode()
    assert html.lstrip().startswith('<div id="bracket"')
    assert "<html" not in html and 'id="standings"' not in html
    assert "HX-Request" in bracket["Vary"] and "HX-Target" in bracket["Vary"]

    standings = htmx(client, url, "standings").content.decode()
    assert standings.lstrip().startswith('<div id="standings"')
    assert 'id="bracket"' not in standings and "<table" in standings

    # No (or an unknown) target: the bracket.
    assert htmx(client, url).content.decode().lstrip().startswith('<div id="bracket"')
    assert htmx(client, url, "nonsense").content.decode().lstrip().startswith('<div id="bracket"')


def test_byes_and_waiting_slots(client):
    t = make_bracket(players=5)
    html = client.get(page_url(t)).content.decode()
    assert html.count(">Bye<") == 3
    assert "Winner of W1-" in html  # a later match says who it waits for


def test_double_elimination_sections(client):
    t = make_bracket(players=4, bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION)
    t = play_out(t, hands=quick_match)
    html = client.get(page_url(t)).content.decode()
    for title in ("Winners&#x27; bracket", "Losers&#x27; bracket", "Finals", "Grand final"):
        assert title in html
    assert "Reset (if needed)" in html and "not needed" in html
    assert "Champion" in html


def test_consolation_section(client):
    t = play_out(make_bracket(players=8, consolation=True), hands=quick_match)
    html = client.get(page_url(t)).content.decode()
    assert "Consolation bracket" in html and "Consolation final" in html


def test_round_robin_page_has_a_cross_table_and_standings(client):
    t = make_bracket(players=4, bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    first = playable(t)[0]
    play_match(first, "A", quick_match)
    html = client.get(page_url(t)).content.decode()
    assert 'class="cross-table"' in html and 'id="bracket"' not in html.split("cross-table")[1]
    assert html.count('class="ct-cell self"') == 4
    assert html.count('class="ct-cell win"') == 1 and html.count('class="ct-cell loss"') == 1
    assert "3–0" in html and "0–3" in html
    assert "1 of 3 matches played" in html
    fragment = htmx(client, page_url(t)).content.decode()
    assert "cross-table" in fragment and "<html" not in fragment


def test_before_the_bracket_the_page_lists_who_entered(client):
    t = make_tournament()
    entries = make_entries(tournament=t, count=3)
    Entry.objects.filter(pk=entries[2].pk).update(withdrawn=True)
    html = client.get(page_url(t)).content.decode()
    assert "The bracket has not been drawn yet." in html
    assert entries[0].player.name in html and entries[2].player.name not in html
    assert "2 players entered" in html
    data = client.get(json_url(t)).json()
    assert data["standings"] == [] and data["tournament"]["status"] == "registration"
    assert client.get(display_url(t)).status_code == 200


# -- standings.json --------------------------------------------------------------------------


def test_json_shape(client, played_eight):
    t = played_eight
    response = client.get(json_url(t))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert set(data) == {"tournament", "standings", "stages"}
    assert data["tournament"] == {
        "slug": t.slug,
        "name": t.name,
        "date": t.date.isoformat(),
        "venue": t.venue,
        "status": "finished",
        "format": "single_elimination",
        "complete": True,
        "champion": data["standings"][0]["name"],
    }
    rows = data["standings"]
    assert len(rows) == 8
    assert all(set(row) == JSON_ROW_KEYS for row in rows)
    assert [row["place"] for row in rows] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert [row["place_label"] for row in rows[4:]] == ["5–8"] * 4
    assert all(row["stage_reached"] is None for row in rows)  # one bracket, no stages
    champion = rows[0]
    assert champion["seed"] == 1 and champion["progress"] == "Champion"
    assert (champion["matches_won"], champion["matches_played"]) == (3, 3)
    assert (champion["games_won"], champion["games_lost"]) == (9, 0)
    assert champion["gins"] == champion["hands_won"] == 27
    assert champion["shutouts"] == 9 and champion["undercuts"] == 0
    assert champion["average_knock_deadwood"] is None
    assert champion["points_for"] > champion["points_against"] == 0


def test_json_matches_the_page(client, running_eight):
    rows = client.get(json_url(running_eight)).json()["standings"]
    fragment = htmx(client, page_url(running_eight), "standings").content.decode()
    names = re.findall(
        r'<th scope="row" class="player"><bdi>(?:<a [^>]*>)?([^<]+?)(?:</a>)?</bdi>'
        r"(?: <span|</th>)",
        fragment,
    )
    places = re.findall(r'<td class="num place">([^<]+)</td>', fragment)
    assert names == [row["name"] for row in rows]
    assert places == [row["place_label"] or "–" for row in rows]
    # Five players are still in: no place yet; three went out in the quarterfinals.
    assert [row["place"] for row in rows] == [None] * 5 + [5] * 3
    live = next(row for row in rows if row["progress"].startswith("Playing"))
    assert live["matches_played"] == 0


# -- projector -------------------------------------------------------------------------------


def test_display_full_page_shows_every_panel_without_js(client, running_eight):
    t = running_eight
    response = client.get(display_url(t))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and "public.css" in html
    stage, _, noscript = html.partition("<noscript>\n")
    assert 'id="display-panel"' in stage
    assert f'hx-get="{display_url(t)}?panel=standings&amp;called=' in stage
    assert 'hx-trigger="every 12s"' in stage
    for panel in ("bracket", "standings", "tables"):
        assert f"pj-panel-{panel}" in html
    assert "pj-panel-standings" in noscript and "pj-panel-tables" in noscript
    # No controls, nothing to log in to.
    assert "<form" not in html and "<button" not in html and "log in" not in html.lower()


def test_display_tables_show_the_current_game(client, running_eight):
    t = running_eight
    live = Match.objects.get(tournament=t, status=Match.Status.IN_PLAY)
    response = htmx(client, display_url(t, "tables"))
    html = response.content.decode()
    assert "<html" not in html and html.lstrip().startswith('<main id="display-panel"')
    assert f"Table {live.table}" in html
    assert live.side_a.player.name in html and live.side_b.player.name in html
    # Game 1 closed (three gins for A); game 2 has B's knock of 37.
    assert "Game 2" in html
    assert re.search(r'class="num games">1<', html) and re.search(r'class="num pts">37<', html)
    assert "4 hands played" in html
    # The answer names the panel after it: back to the first.
    assert f'hx-get="{display_url(t)}?panel=bracket&amp;called=5"' in html
    assert "Waiting for a table" not in html


def test_display_panels_cycle_and_unknown_panel_falls_back(client, running_eight):
    t = running_eight
    standings = htmx(client, display_url(t, "standings")).content.decode()
    assert "pj-panel-standings" in standings and "pj-panel-bracket" not in standings
    assert "?panel=tables" in standings
    bracket = htmx(client, display_url(t, "bogus")).content.decode()
    assert "pj-panel-bracket" in bracket and "?panel=standings" in bracket
    assert "mbox" in bracket


def test_display_skips_tables_when_nobody_plays(client, played_eight):
    html = htmx(client, display_url(played_eight, "standings")).content.decode()
    assert "?panel=bracket" in html
    assert "Tables in play" not in html
    assert "Champion" in html


def test_display_double_elimination_has_a_losers_panel(client):
    t = make_bracket(players=8, bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION)
    play_out(t, hands=quick_match)
    html = htmx(client, display_url(t, "losers")).content.decode()
    assert "pj-panel-losers" in html and "Losers&#x27; final" in html


def test_display_of_a_big_field_draws_only_the_late_rounds(client):
    t = make_bracket(players=32)
    html = htmx(client, display_url(t, "bracket")).content.decode()
    titles = re.findall(r'<h4 class="bround-title">([^<]+)</h4>', html)
    assert titles == ["Round 2", "Quarterfinals", "Semifinals", "Final"]
    assert '<span class="mbox-key">W1-1</span>' not in html


def test_display_round_robin(client):
    t = make_bracket(players=4, bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    html = client.get(display_url(t)).content.decode()
    assert "cross-table" in html and "Results" in html


# -- privacy, errors, methods ----------------------------------------------------------------


def test_no_personal_data_anywhere_public(client):
    t = make_tournament(status="registration")
    for i in range(1, 5):
        player = make_player(
            name=f"Private Person {i}",
            email=f"person{i}@secret.example",
            phone=f"+34 600 00{i} 999",
            club_id=f"CLUB-{i}77",
            notes=f"owes the club {i} euros",
        )
        Entry.objects.create(tournament=t, player=player, seed=i)
    from tournaments.draw import generate_bracket

    generate_bracket(tournament=t, user=t.owner)
    match = playable(t)[0]
    play(match, [gin("A"), knock("B", 4, 20)])
    responses = [
        client.get(page_url(t)),
        htmx(client, page_url(t), "bracket"),
        htmx(client, page_url(t), "standings"),
        client.get(json_url(t)),
        client.get(display_url(t)),
        htmx(client, display_url(t, "standings")),
        htmx(client, display_url(t, "tables")),
    ]
    for response in responses:
        body = response.content.decode()
        assert response.status_code == 200
        assert "Private Person" in body
        for secret in ("secret.example", "600 00", "CLUB-", "owes the club"):
            assert secret not in body, (response.request["PATH_INFO"], secret)


@pytest.mark.parametrize("name", ["public:tournament", "public:standings-json", "public:display"])
def test_unknown_slug_is_404(client, name):
    assert client.get(reverse(name, kwargs={"slug": "no-such-event"})).status_code == 404


@pytest.mark.parametrize("name", ["public:tournament", "public:standings-json", "public:display"])
def test_public_views_only_read(client, name):
    t = make_tournament()
    assert client.post(reverse(name, kwargs={"slug": t.slug})).status_code == 405


def test_pages_translate(client, played_eight):
    client.cookies["django_language"] = "es"
    html = client.get(page_url(played_eight), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'lang="es"' in html


# -- queries ---------------------------------------------------------------------------------


def queries(client, url, **headers) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == 200
    return len(captured)


def test_query_counts_do_not_grow_with_the_field(client):
    small = play_out(make_bracket(players=8, third_place=True), hands=quick_match)
    large = play_out(make_bracket(players=32, third_place=True), hands=quick_match)
    assert small.status == large.status == Tournament.Status.FINISHED
    views = [
        lambda t: (page_url(t), {}),
        lambda t: (page_url(t), {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "standings"}),
        lambda t: (json_url(t), {}),
        lambda t: (display_url(t), {}),
        lambda t: (display_url(t, "standings"), {"HTTP_HX_REQUEST": "true"}),
    ]
    for view in views:
        url_small, headers = view(small)
        url_large, _ = view(large)
        ratings.ensure_current()  # the first read after new results rebuilds the club rating
        counted = queries(client, url_small, **headers)
        assert counted == queries(client, url_large, **headers), url_small
        # The tournament (and its language, for the middleware), matches, hands; the club
        # rating (is it current: 2, this tournament's: 2); the pages also the prize
        # settings (1: none set).
        assert counted <= (8 if url_small == json_url(small) else 9)


def test_query_counts_while_running_and_for_round_robin(client):
    small = make_bracket(players=4, bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    large = make_bracket(players=12, bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    for t in (small, large):
        for match in playable(t)[:3]:
            play_match(match, "A", quick_match)
        play(playable(t)[0], [gin("B")])
    ratings.ensure_current()
    for url in (page_url, json_url, display_url):
        assert queries(client, url(small)) == queries(client, url(large))


def test_query_counts_before_the_bracket_do_not_grow_with_the_entries(client):
    # The entry list: each entry's tournament is known, so none is loaded one by one.
    small, large = make_tournament(), make_tournament()
    make_entries(tournament=small, count=3)
    make_entries(tournament=large, count=24)
    for url in (page_url, json_url):
        assert queries(client, url(small)) == queries(client, url(large)), url(small)


def test_a_draft_is_public_only_to_its_directors(client):
    draft = make_tournament(status=Tournament.Status.DRAFT)
    make_entries(tournament=draft, count=4)
    slug = {"slug": draft.slug}
    urls = [
        page_url(draft),
        json_url(draft),
        display_url(draft),
        reverse("printing:bracket-pdf", kwargs=slug),
        reverse("printing:standings-pdf", kwargs=slug),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 404, url
        assert draft.entries.first().player.name not in response.content.decode(errors="replace")
    client.force_login(draft.owner)
    assert client.get(page_url(draft)).status_code == 200
    assert client.get(json_url(draft)).status_code == 200
    client.logout()
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.REGISTRATION)
    assert client.get(page_url(draft)).status_code == 200  # public from registration on
