"""The players' own pages (issue 15): finding yourself by name, the next thing (a table and
an opponent, the match that decides the opponent, how it ended), the matches so far; as
full pages and htmx regions, with no personal data and constant queries."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from public import players
from public.live import POLL_SECONDS
from public.players import fold, people, player_view, search
from standings.data import load
from tests.factories import make_bracket, make_player, make_tournament
from tests.scoring.helpers import gin, knock, play, win_games
from tests.standings.test_standings import better_seed, play_match, play_out, playable, quick_match
from tournaments import services
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Tournament

pytestmark = pytest.mark.django_db

NAMES = [
    "José Ruiz",
    "Ana Żółć",
    "María Núñez",
    "Ørjan Berg",
    "Chloé Dubois",
    "Ann Lee",
    "Lee Wong",
    "Bob Stone",
]
DOUBLE = Tournament.BracketKind.DOUBLE_ELIMINATION
ROUND_ROBIN = Tournament.BracketKind.ROUND_ROBIN


def field(names: list[str] = NAMES, *, draw: bool = True, **fields) -> Tournament:
    """A tournament with these players seeded in this order, its bracket drawn."""
    tournament = make_tournament(**fields)
    for seed, name in enumerate(names, start=1):
        Entry.objects.create(tournament=tournament, player=make_player(name=name), seed=seed)
    if draw:
        generate_bracket(tournament=tournament, user=tournament.owner)
        tournament.refresh_from_db()
    return tournament


def entry(tournament: Tournament, seed: int) -> Entry:
    return Entry.objects.select_related("player").get(tournament=tournament, seed=seed)


def view(tournament: Tournament, seed: int) -> players.PlayerView:
    found = player_view(load(tournament), entry(tournament, seed).pk)
    assert found is not None
    return found


def match_of(tournament: Tournament, seed: int, **filters) -> Match:
    e = entry(tournament, seed)
    query = Match.objects.filter(tournament=tournament, **filters)
    return (query.filter(side_a=e) | query.filter(side_b=e)).order_by("round", "pk").first()


def find_url(t: Tournament, q: str | None = None) -> str:
    url = reverse("public:find", kwargs={"slug": t.slug})
    return url if q is None else f"{url}?q={q}"


def player_url(t: Tournament, e: Entry) -> str:
    return reverse("public:player", kwargs={"slug": t.slug, "entry_id": e.pk})


def page(client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return response.content.decode()


# -- finding ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("José", "jose"),
        ("Żółć", "zolc"),
        ("  Ørjan   BERG ", "orjan berg"),
        ("Straße", "strasse"),
        ("İpek", "ipek"),
        ("Chloé", "chloe"),
    ],
)
def test_fold_ignores_case_accents_and_spacing(name, folded):
    assert fold(name) == folded


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("jose", ["José Ruiz"]),
        ("JOSÉ", ["José Ruiz"]),
        ("zolc", ["Ana Żółć"]),
        ("Żółć", ["Ana Żółć"]),
        ("nunez", ["María Núñez"]),
        ("orj", ["Ørjan Berg"]),
        ("lee ann", ["Ann Lee"]),
        ("uiz", ["José Ruiz"]),
        # Names starting with it first, then a word starting with it, then the rest.
        ("lee", ["Lee Wong", "Ann Lee"]),
        ("an", ["Ana Żółć", "Ann Lee", "Ørjan Berg"]),
    ],
)
def test_search_by_part_of_a_name(query, found):
    data = load(field())
    assert [hit.name for hit in search(people(data), query).hits] == found


@pytest.mark.parametrize("query", ["", "   ", "a", "é", "ł"])
def test_a_query_too_short_lists_nobody(query):
    result = search(people(load(field())), query)
    assert result.short and result.hits == () and result.blank == (query.strip() == "")


@pytest.mark.parametrize("query", ["王", "李"])
def test_one_han_character_is_a_name_to_look_for(query):
    """A Chinese surname is one character: one ideograph is enough, one Latin letter is not."""
    data = load(field(["王芳", "李伟", "Wang Li", "Ana Żółć"]))
    found = {"王": ["王芳"], "李": ["李伟"]}[query]
    result = search(people(data), query)
    assert not result.short and [hit.name for hit in result.hits] == found


def test_search_lists_a_few_and_counts_the_rest(client, monkeypatch):
    monkeypatch.setattr(players, "MAX_HITS", 5)
    t = make_bracket(players=12)
    result = search(people(load(t)), "player")
    assert len(result.hits) == 5 and result.more == 7 and result.total == 12
    html = page(client, find_url(t, "player"))
    assert "12 players found" in html and html.count('class="find-hit"') == 5
    assert "And 7 more players: type more of the name." in html


# -- the next thing --------------------------------------------------------------------------


def test_next_match_with_table_and_opponent(client):
    t = field()
    first = match_of(t, 1)
    jose = view(t, 1)
    assert jose.next.kind == "table"
    assert (jose.next.table, jose.next.match_id) == (first.table, first.pk)
    assert jose.next.opponent == "Bob Stone" and jose.next.opponent_seed == 8
    assert jose.next.round == "Quarterfinals"
    assert jose.played == ()
    html = page(client, player_url(t, entry(t, 1)))
    assert "Your next match" in html and f"Table {first.table}" in html
    bob = entry(t, 8).player_id
    assert jose.next.opponent_page == bob
    club_page = reverse("club:player", args=[bob])
    link = f'<bdi><a class="player-link" href="{club_page}">Bob Stone</a></bdi>'
    assert f"against <strong>{link}</strong>" in html
    sheet = reverse("scoring:match-sheet", kwargs={"slug": t.slug, "match_id": first.pk})
    assert f'href="{sheet}"' in html


def test_no_free_table_means_waiting_for_one(client):
    t = field(NAMES[:4], tables=1)
    waiting = [m for m in playable(t) if m.table is None]
    assert len(waiting) == 1
    seed = waiting[0].side_a.seed
    assert view(t, seed).next.kind == "queued"
    assert "Waiting for a free table" in page(client, player_url(t, entry(t, seed)))


def test_playing_now_shows_the_score_from_the_players_side(client):
    t = field(NAMES[:4])
    match = match_of(t, 1)
    assert match.side_a.seed == 1
    play(match, [gin("B"), gin("B"), gin("B"), knock("A", 3, 40)])
    for seed, mine, theirs in ((1, (0, 37), (1, 0)), (4, (1, 0), (0, 37))):
        next_up = view(t, seed).next
        assert next_up.kind == "playing"
        score = next_up.score
        assert (score.games_mine, score.points_mine) == mine
        assert (score.games_theirs, score.points_theirs) == theirs
        assert score.game_number == 2 and score.hands == 4
    html = page(client, player_url(t, entry(t, 4)))
    assert "Playing now" in html and "Game 2" in html and "4 hands played" in html
    play(match, [gin("B")] * 6)
    assert view(t, 1).next.kind == "awaiting"
    assert "Result awaiting confirmation" in page(client, player_url(t, entry(t, 1)))


def test_hollywood_columns_from_the_players_side():
    t = field(NAMES[:2], preset="hollywood")
    play(match_of(t, 1), [gin("B", 10)])
    columns = view(t, 2).next.score.columns
    assert [(c.number, c.mine, c.theirs) for c in columns] == [(1, 35, 0), (2, 0, 0), (3, 0, 0)]
    assert [c.theirs for c in view(t, 1).next.score.columns] == [35, 0, 0]


def test_waiting_for_the_winner_of_a_later_rounds_other_match(client):
    t = field(NAMES[:4])
    semi = match_of(t, 1)
    other = match_of(t, 2)
    play_match(semi, "A", quick_match)
    play(other, [gin("A")])
    jose = view(t, 1)
    assert jose.next.kind == "waiting" and jose.next.round == "Final"
    assert jose.next.opponent == ""
    feeder = jose.next.feeder
    assert feeder.kind == "winner" and feeder.box.key == other.key
    assert feeder.round == "Semifinals" and feeder.box.live
    assert {feeder.box.a.name, feeder.box.b.name} == {"Ana Żółć", "María Núñez"}
    html = page(client, player_url(t, entry(t, 1)))
    assert f"Waiting for the winner of {other.key}:" in html
    assert "Ana Żółć" in html and "María Núñez" in html
    assert f"Table {other.table}" in html  # where the deciding match is being played


def test_double_elimination_waits_for_a_winner_and_for_a_loser(client):
    t = field(NAMES[:4], bracket_kind=DOUBLE)
    first, other = match_of(t, 1), match_of(t, 2)
    play_match(first, better_seed(first), quick_match)
    winner, loser = view(t, 1).next, view(t, 4).next
    assert winner.kind == loser.kind == "waiting"
    assert (winner.feeder.kind, winner.feeder.box.key) == ("winner", other.key)
    assert (loser.feeder.kind, loser.feeder.box.key) == ("loser", other.key)
    assert winner.round == "Winners' final" and loser.round.startswith("Losers'")
    html = page(client, player_url(t, entry(t, 4)))
    assert f"Waiting for the loser of {other.key}:" in html
    # The winners' champion waits in the grand final for the losers' bracket.
    play_out(t, stop=lambda m: m.section == "final", hands=quick_match)
    final = view(t, 1).next
    assert final.kind == "table" and final.round == "Grand final"


def test_champion_runner_up_and_out(client):
    t = play_out(field(NAMES[:4]), hands=quick_match)
    champion, runner_up, out = view(t, 1), view(t, 2), view(t, 4)
    assert champion.next.kind == "champion"
    assert (runner_up.next.kind, runner_up.next.text, runner_up.next.place) == (
        "out",
        "Runner-up",
        "2",
    )
    assert (out.next.text, out.next.place, out.next.final) == ("Out in: Semifinals", "3–4", True)
    assert [p.outcome for p in champion.played] == ["won", "won"]
    assert [p.round for p in champion.played] == ["Semifinals", "Final"]
    html = page(client, player_url(t, entry(t, 1)))
    assert "♛</span> Champion" in html and "hx-trigger" not in html  # finished: no polling
    html = page(client, player_url(t, entry(t, 4)))
    assert "Your tournament is over" in html and "Final place" in html and ">3–4<" in html
    assert "Out in: Semifinals" in html


def test_double_elimination_history_in_playing_order():
    t = play_out(field(NAMES[:4], bracket_kind=DOUBLE), hands=quick_match)
    out = view(t, 4)
    assert out.next.kind == "out"
    assert [p.outcome for p in out.played] == ["lost", "lost"]
    assert out.played[0].round.startswith("Winners'") and out.played[1].round.startswith("Losers'")
    runner_up = view(t, 2)
    rounds = [p.round for p in runner_up.played]
    assert rounds[0].startswith("Winners'") and rounds[-1] == "Grand final"


def test_round_robin_next_unplayed_match_then_finished(client):
    t = field(NAMES[:4], bracket_kind=ROUND_ROBIN)
    first = view(t, 1).next
    assert first.kind == "table" and first.round == "Round 1"
    play_match(Match.objects.get(pk=first.match_id), "A", quick_match)
    second = view(t, 1)
    assert second.next.round == "Round 2" and second.next.match_id != first.match_id
    assert [p.outcome for p in second.played] == ["won"]
    t = play_out(t, winner=lambda m: "A" if m.side_a.seed < m.side_b.seed else "B")
    best, last = view(t, 1), view(t, 4)
    assert best.next.kind == "champion"
    assert [p.outcome for p in best.played] == ["won"] * 3
    assert (last.next.kind, last.next.place, last.next.final) == ("finished", "4", True)
    assert [p.round for p in last.played] == ["Round 1", "Round 2", "Round 3"]
    html = page(client, player_url(t, entry(t, 4)))
    assert "All your matches are played" in html and "Final place" in html and ">4<" in html


def test_matches_so_far_show_byes_walkovers_and_scores(client):
    t = field(NAMES[:3])
    semi = match_of(t, 2, is_bye=False)
    services.forfeit(match=semi, winner_side="A" if semi.side_a.seed == 2 else "B", user=t.owner)
    jose = view(t, 1)
    assert [p.outcome for p in jose.played] == ["bye"]
    beaten = view(t, 3).played
    assert [(p.outcome, p.forfeit, p.scored) for p in beaten] == [("lost", True, False)]
    html = page(client, player_url(t, entry(t, 1)))
    assert "Through to the next round without playing" in html
    html = page(client, player_url(t, entry(t, 3)))
    assert "walkover" in html and "points" not in html.split("Matches so far")[1]

    final = match_of(t, 1, round=2)
    play_match(final, "A" if final.side_a.seed == 1 else "B", quick_match)
    won = view(t, 1).played[-1]
    assert (won.outcome, won.games_mine, won.games_theirs) == ("won", 3, 0)
    assert won.points_mine > 0 == won.points_theirs and won.opponent == "Ana Żółć"
    html = page(client, player_url(t, entry(t, 1)))
    assert "3–0" in html and f"{won.points_mine}–0 points" in html


def test_withdrawn_players_are_found_if_they_played(client):
    t = field(NAMES[:4], draw=False)
    late = Entry.objects.create(
        tournament=t, player=make_player(name="Zed Absent"), seed=None, withdrawn=True
    )
    generate_bracket(tournament=t, user=t.owner)
    services.withdraw(entry=entry(t, 3), user=t.owner)
    data = load(t)
    assert [hit.name for hit in search(people(data), "maria").hits] == ["María Núñez"]
    maria = view(t, 3)
    assert maria.withdrawn and maria.next.kind == "out" and maria.played[0].forfeit
    assert "withdrew" in page(client, player_url(t, entry(t, 3)))
    assert search(people(data), "zed").hits == ()
    assert client.get(player_url(t, late)).status_code == 404


def test_before_the_draw(client):
    t = field(NAMES[:4], draw=False)
    jose = view(t, 1)
    assert jose.next.kind == "not_drawn" and jose.standing is None
    html = page(client, find_url(t, "jose"))
    assert "The bracket has not been drawn yet." in html and 'id="player-view"' in html


# -- the pages -------------------------------------------------------------------------------


def test_find_page_without_a_query_asks_for_a_name_and_lists_nobody(client):
    t = field()
    html = page(client, find_url(t))
    assert 'method="get"' in html and 'name="q"' in html and 'type="submit"' in html
    assert "Type at least 2 letters of your name" in html
    assert "autofocus" in html
    assert not any(name in html for name in NAMES)
    html = page(client, find_url(t, "a"))
    assert "“a” is too short: type at least 2 letters" in html
    assert not any(name in html for name in NAMES) and "find-hits" not in html


def test_find_page_nothing_found(client):
    html = page(client, find_url(field(), "zzz"))
    assert "Nobody in this tournament has “zzz” in their name." in html


def test_find_page_lists_several_as_links(client):
    t = field()
    html = page(client, find_url(t, "lee"))
    assert "2 players found" in html and 'id="player-view"' not in html
    for seed in (6, 7):
        assert f'href="{player_url(t, entry(t, seed))}"' in html


def test_find_page_shows_a_single_hit_in_full(client):
    t = field()
    html = page(client, find_url(t, "zolc"))
    assert 'id="player-view"' in html and "One player found" in html
    assert f'href="{player_url(t, entry(t, 2))}"' in html  # the page to bookmark
    assert 'value="zolc"' in html


def test_find_htmx_answers_with_the_results_region(client):
    t = field()
    response = client.get(find_url(t, "jose"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="find-results"') and "<html" not in html
    assert "José Ruiz" in html and "HX-Request" in response["Vary"]
    # htmx restoring the page from its history wants the whole page.
    restored = page(
        client, find_url(t, "jose"), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in restored
    full = page(client, find_url(t))
    box = re.search(r"<input[^>]*name=\"q\"[^>]*>", full, re.S).group(0)
    assert 'hx-get="' + find_url(t) + '"' in box and 'hx-target="#find-results"' in box
    assert 'hx-trigger="input changed delay:300ms, search"' in box and 'hx-push-url="true"' in box


def test_player_page_refreshes_its_region_while_running(client):
    t = field(NAMES[:4])
    url = player_url(t, entry(t, 1))
    html = page(client, url)
    polls = rf'<div id="player-view"[^>]*hx-trigger="every {POLL_SECONDS}s, poll-again"'
    assert "<html" in html and re.search(polls, html)
    assert f'hx-get="{url}?region=view"' in html  # a URL of its own: the browser keeps its tag
    club_page = reverse("club:player", args=[entry(t, 1).player_id])
    name = f'<bdi><a class="player-link" href="{club_page}">José Ruiz</a></bdi>'
    assert f'<h1 id="pv-name" class="pv-name">{name} <span class="seed"' in html
    fragment = page(client, url, HTTP_HX_REQUEST="true")
    assert fragment.lstrip().startswith('<div id="player-view"') and "<html" not in fragment
    assert "<h1" not in fragment and "Your next match" in fragment


def test_no_personal_data_on_the_players_pages(client):
    t = make_tournament()
    for i in range(1, 5):
        player = make_player(
            name=f"Private Person {i}",
            email=f"person{i}@secret.example",
            phone=f"+34 600 00{i} 999",
            club_id=f"CLUB-{i}77",
            rating=1000 + 111 * i,
            notes=f"owes the club {i} euros",
        )
        Entry.objects.create(tournament=t, player=player, seed=i)
    generate_bracket(tournament=t, user=t.owner)
    play_match(playable(t)[0], "A", quick_match)
    first = entry(t, 1)
    bodies = [
        page(client, find_url(t, "private")),
        page(client, find_url(t, "person 1")),
        page(client, find_url(t, "person 1"), HTTP_HX_REQUEST="true"),
        page(client, player_url(t, first)),
        page(client, player_url(t, first), HTTP_HX_REQUEST="true"),
    ]
    for body in bodies:
        assert "Private Person" in body
        for secret in ("secret.example", "600 00", "CLUB-", "owes the club", "1111", "1444"):
            assert secret not in body, secret


def test_an_entry_of_another_tournament_is_404(client):
    t, other = field(NAMES[:4]), make_bracket(players=4)
    stranger = Entry.objects.filter(tournament=other).first()
    assert client.get(player_url(t, stranger)).status_code == 404
    missing = reverse("public:player", kwargs={"slug": t.slug, "entry_id": 999999})
    assert client.get(missing).status_code == 404
    unknown = reverse("public:find", kwargs={"slug": "no-such-event"})
    assert client.get(unknown).status_code == 404


def test_drafts_are_404_except_to_their_directors(client):
    draft = field(NAMES[:4], draw=False, status=Tournament.Status.DRAFT)
    urls = [find_url(draft), find_url(draft, "jose"), player_url(draft, entry(draft, 1))]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "José" not in response.content.decode()
    client.force_login(draft.owner)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_only_get(client):
    t = field(NAMES[:2])
    for url in (find_url(t, "jose"), player_url(t, entry(t, 1))):
        assert client.post(url).status_code == 405


def test_queries_do_not_grow_with_the_field(client, django_assert_max_num_queries):
    small = make_bracket(players=8)
    large = make_bracket(players=32)
    for t in (small, large):
        for match in playable(t)[:3]:
            play_match(match, better_seed(match), quick_match)
        play(playable(t)[0], win_games("A", 1))
    counts = []
    for t in (small, large):
        e = entry(t, 1)
        urls = [
            (find_url(t, e.player.name), {}),  # one hit: shown in full
            (find_url(t, "player"), {}),  # everyone: a list
            (find_url(t, "player"), {"HTTP_HX_REQUEST": "true"}),
            (player_url(t, e), {}),
            (player_url(t, e), {"HTTP_HX_REQUEST": "true"}),
        ]
        row = []
        for url, headers in urls:
            # Four, and two for "about 20:45" (standings.tables: the room's hand times and
            # the tables' start times).
            with django_assert_max_num_queries(6), CaptureQueriesContext(connection) as seen:
                page(client, url, **headers)
            row.append(len(seen))
        counts.append(row)
    assert counts[0] == counts[1]
