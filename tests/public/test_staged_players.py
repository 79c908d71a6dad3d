"""A staged event from every player's side (issue 28): a 12-player Swiss of 3 rounds cut
into a top-4 knockout, driven through the stage services. Every entrant stays findable
and keeps a page to the end; a player's page lists their matches stage by stage in
playing order, with a summary per stage and in total that agrees with the list; the
knockout shows the places the cut gave (not the registration seeds); Round control lists
every stage's rounds, named with their stage."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db.models import Q
from django.urls import reverse

from public.players import PlayerView, player_view
from public.views.tournament import page_context
from standings.data import load
from tests.factories import make_player, make_tournament
from tests.public import staged
from tests.tournaments.test_stages import ONE_GAME_TO_100, play_open
from tournaments import registration, services
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

NAMES = (
    "Łukasz Wiśniewski",
    "王小明",
    "ليلى حداد",
    "Дмитрий Волков",
    "Annelie Steyn",
    "Zofia Wójcik",
    "李华",
    "عمر الفاروق",
    "Ольга Соколова",
    "Pieter van der Merwe",
    "Grzegorz Brzęczyszczykiewicz",
    "Marthinus Botha",
)


def swiss_into_top_four(director) -> tuple[Tournament, Stage, Stage]:
    return staged.swiss_into_top_four(director, NAMES, swiss_name="Swiss")


@pytest.fixture
def cut(director) -> tuple[Tournament, Stage, Stage]:
    """The Swiss played and cut: the knockout's semifinals ready."""
    tournament, swiss, knockout = swiss_into_top_four(director)
    staged.play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    tournament.refresh_from_db()
    return tournament, swiss, knockout


@pytest.fixture
def finished(cut) -> tuple[Tournament, Stage, Stage]:
    tournament, swiss, knockout = cut
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    return tournament, swiss, knockout


def entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("player").order_by("seed"))


def view_of(tournament: Tournament, entry: Entry) -> PlayerView:
    found = player_view(load(tournament), entry.pk)
    assert found is not None, entry.name
    return found


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.content.decode())


def find_url(tournament: Tournament, query: str) -> str:
    return reverse("public:find", kwargs={"slug": tournament.slug}) + f"?q={query}"


def player_url(tournament: Tournament, entry: Entry) -> str:
    return reverse("public:player", kwargs={"slug": tournament.slug, "entry_id": entry.pk})


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# -- findable, with a page, to the end -------------------------------------------------------


@pytest.mark.parametrize("when", ["cut", "finished"])
def test_every_entrant_is_found_and_has_a_page_after_the_cut(client, when, request):
    tournament, _swiss, knockout = request.getfixturevalue(when)
    qualified = {int(pk) for pk in knockout.entrants}
    assert len(qualified) == 4
    for entry in entries(tournament):
        html = get(client, find_url(tournament, entry.player.name))
        assert "Nobody in this tournament" not in html, entry.name
        assert "One player found:" in html and entry.player.name in html
        page = get(client, player_url(tournament, entry))
        assert entry.player.name in page
        view = view_of(tournament, entry)
        if entry.pk not in qualified:
            assert view.next.kind == "out", entry.name
            assert "Your tournament is over" in page
            assert [group.name for group in view.stages] == ["Swiss"]
    # Part of a name finds every player holding it, the non-qualifiers too.
    html = get(client, find_url(tournament, "wi"))  # Wiśniewski, Brzęczyszczykiewicz
    assert "Łukasz Wiśniewski" in html and "Grzegorz Brzęczyszczykiewicz" in html


def test_between_swiss_rounds_a_player_waits_for_the_next_pairing(client, director):
    tournament, swiss, _knockout = swiss_into_top_four(director)
    play_open(tournament, swiss, upset_every=3)
    for entry in entries(tournament):
        view = view_of(tournament, entry)
        assert view.next.kind == "next_round", entry.name
    html = get(client, player_url(tournament, entries(tournament)[0]))
    assert "Your tournament is over" not in html
    assert "The next round has not been paired yet." in html
    # A player who drops out between rounds is out, not waiting for a pairing.
    dropped = entries(tournament)[-1]
    services.withdraw(entry=dropped, user=director)
    dropped.refresh_from_db()
    assert view_of(tournament, dropped).next.kind == "out"
    assert "Your tournament is over" in get(client, player_url(tournament, dropped))


# -- a player's page, stage by stage ---------------------------------------------------------


def summary_of(played) -> tuple[int, int, int, int]:
    won = sum(1 for m in played if m.outcome == "won")
    lost = sum(1 for m in played if m.outcome == "lost")
    games = (
        sum(m.games_mine for m in played if m.played),
        sum(m.games_theirs for m in played if m.played),
    )
    return (won, lost, *games)


def test_a_qualifiers_page_lists_each_stage_in_playing_order_with_its_summary(client, finished):
    tournament, _swiss, knockout = finished
    by_pk = {e.pk: e for e in entries(tournament)}
    for pk in knockout.entrants:
        entry = by_pk[int(pk)]
        view = view_of(tournament, entry)
        swiss_group, knockout_group = view.stages
        assert (swiss_group.name, knockout_group.name) == ("Swiss", "Knockout")
        assert [m.round for m in swiss_group.played] == ["Round 1", "Round 2", "Round 3"]
        rounds = [m.round for m in knockout_group.played]
        assert rounds in (["Semifinals"], ["Semifinals", "Final"]), rounds
        # The whole list, in playing order: the Swiss, then the knockout.
        assert view.played == swiss_group.played + knockout_group.played
        for group in view.stages:
            s = group.summary
            assert (s.matches_won, s.matches_lost, s.games_won, s.games_lost) == summary_of(
                group.played
            )
        total = view.total
        assert (total.matches_won, total.matches_lost, total.games_won, total.games_lost) == (
            summary_of(view.played)
        )
        assert total.matches_won + total.matches_lost == len(view.played)

        page = text(get(client, player_url(tournament, entry)))
        # Stage headings in order, each followed by its rounds in order.
        order = [
            "Swiss",
            "Round 1",
            "Round 2",
            "Round 3",
            "Knockout",
            "Semifinals",
        ]
        at = 0
        for word in order:
            found = page.find(word, at)
            assert found >= 0, (word, page)
            at = found + len(word)
        # The total's and each stage's summary, as printed.
        for summary in (total, *(g.summary for g in view.stages)):
            matches = f"Matches {summary.matches_won}–{summary.matches_lost}"
            games = f"Games {summary.games_won}–{summary.games_lost}"
            assert f"{matches} {games}" in page, (matches, games)


def test_a_non_qualifiers_page_has_its_swiss_matches_and_summary(client, cut):
    tournament, _swiss, knockout = cut
    qualified = {int(pk) for pk in knockout.entrants}
    out = [e for e in entries(tournament) if e.pk not in qualified]
    assert len(out) == 8
    for entry in out:
        view = view_of(tournament, entry)
        (group,) = view.stages
        assert [m.round for m in group.played] == ["Round 1", "Round 2", "Round 3"]
        s = view.total
        assert (s.matches_won, s.matches_lost, s.games_won, s.games_lost) == summary_of(
            group.played
        )
        page = text(get(client, player_url(tournament, entry)))
        assert f"Matches {s.matches_won}–{s.matches_lost}" in page


def test_a_one_bracket_tournaments_page_has_one_group_without_a_stage_name(client):
    from tests.factories import make_bracket
    from tests.standings.test_standings import better_seed, play_match, playable, quick_match

    tournament = make_bracket(players=4)
    for match in playable(tournament)[:2]:
        play_match(match, better_seed(match), quick_match)
    top = tournament.entries.select_related("player").get(seed=1)
    view = view_of(tournament, top)
    (group,) = view.stages
    assert group.name == "" and [m.round for m in group.played] == ["Semifinals"]
    assert (view.total.matches_won, view.total.matches_lost) == (1, 0)


# -- the knockout's seeds are the cut's places -----------------------------------------------


def test_the_knockout_shows_the_places_the_cut_gave(client, cut):
    tournament, _swiss, knockout = cut
    cut_seed = {int(pk): place for place, pk in enumerate(knockout.entrants, start=1)}
    registered = {e.pk: e.seed for e in entries(tournament)}
    # The Swiss reordered the field, so the two numbers differ for somebody.
    assert any(cut_seed[pk] != registered[pk] for pk in cut_seed)
    names = {e.player.name: e.pk for e in entries(tournament)}

    # The public page's bracket (and the projector's, drawn from the same boxes).
    context = page_context(load(tournament))
    slots = [
        slot
        for section in context["sections"]
        for column in section.rounds
        for box in column.boxes
        for slot in box.slots
        if slot.name
    ]
    assert len(slots) == 4
    assert {slot.name: slot.seed for slot in slots} == {
        name: cut_seed[pk] for name, pk in names.items() if pk in cut_seed
    }
    html = get(client, reverse("public:tournament", args=[tournament.slug]))
    for slot in slots:
        assert re.search(
            rf'<span class="mseed">{slot.seed}</span>'
            rf'<span class="mname"><bdi>{re.escape(slot.name)}',
            html,
        ), slot

    # The bracket PDF.
    from printing.standings_documents import bracket_document

    found = bracket_document(tournament)
    assert found is not None
    sheet, _labels = found
    printed = {
        entry.name: entry.seed
        for section in sheet.sections
        for column in section.rounds
        for match in column.matches
        for entry in (match.a, match.b)
        if not entry.placeholder
    }
    assert printed == {slot.name: slot.seed for slot in slots}
    response = client.get(reverse("printing:bracket-pdf", args=[tournament.slug]))
    assert response.status_code == 200

    # A qualifier's page names the semifinal opponent with the opponent's cut place.
    semi = Match.objects.filter(stage=knockout, round=1).exclude(side_a=None).first()
    assert semi is not None
    view = view_of(tournament, semi.side_a)
    assert view.next.opponent_seed == cut_seed[semi.side_b_id]
    # The Swiss rounds keep the registration seeds.
    first = view.stages[0].played[0]
    opponent_pk = names[first.opponent]
    assert first.opponent_seed == registered[opponent_pk]


# -- Round control: every stage's rounds -----------------------------------------------------


def test_round_control_lists_every_stages_rounds_in_playing_order(client, cut):
    tournament, _swiss, _knockout = cut
    client.force_login(tournament.owner)
    html = get(client, reverse("tournaments:round-control", args=[tournament.slug]))
    rounds = [text(h) for h in re.findall(r"<h2>\s*(.*?)\s*<small>", html, re.S)]
    assert rounds == [
        "Swiss · Round 1",
        "Swiss · Round 2",
        "Swiss · Round 3",
        "Knockout · Semifinals",
        "Knockout · Final",
    ]
    # The round in play is the knockout's first, which the page brings into view.
    assert "Go to the round in play: Knockout · Semifinals" in text(html)
    # Each played round's scoresheets print that round's matches.
    links = re.findall(r'href="([^"]*/rounds/\d+/scoresheets\.pdf[^"]*)"', html)
    assert len(links) == 5
    for link in links[:4]:
        response = client.get(link)
        assert response.status_code == 200, link


def test_round_controls_print_links_print_that_stages_round_only(client, director):
    """Two Swiss stages both have a round 1: each one's scoresheets are its own."""
    from tests.printing.test_pdf import page_count

    tournament = make_tournament(status="registration", tables=4)
    for seed, name in enumerate(NAMES[:8], start=1):
        Entry.objects.create(tournament=tournament, player=make_player(name=name), seed=seed)
    first = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Heats",
        rounds=1,
        advance=4,
        rules=ONE_GAME_TO_100,
    )
    stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", name="Final Swiss", rounds=1
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, first)
    stage_services.close_stage(stage=first, user=director)
    client.force_login(tournament.owner)
    html = get(client, reverse("tournaments:round-control", args=[tournament.slug]))
    rounds = [text(h) for h in re.findall(r"<h2>\s*(.*?)\s*<small>", html, re.S)]
    assert rounds == ["Heats · Round 1", "Final Swiss · Round 1"]
    links = re.findall(r'href="([^"]*/rounds/\d+/scoresheets\.pdf[^"]*)"', html)
    assert len(links) == 2
    sheets = []
    for link in links:
        response = client.get(link)
        assert response.status_code == 200, link
        sheets.append(page_count(response.content))
        assert f"-stage-{len(sheets)}-swiss-round-1-" in response["Content-Disposition"]
    assert sheets == [4, 2]


def test_pools_cut_into_a_knockout_from_every_players_side(client, director):
    tournament = staged.make_named_event(NAMES[:8])
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
        name="Knockout",
        rules=ONE_GAME_TO_100,
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, pools, upset_every=3)
    # Every pool match played, the stage not closed yet: nobody is out so far.
    for entry in entries(tournament):
        assert view_of(tournament, entry).next.kind == "finished", entry.name
    stage_services.close_stage(stage=pools, user=director)
    knockout.refresh_from_db()
    play_open(tournament, knockout)
    qualified = {int(pk) for pk in knockout.entrants}
    assert len(qualified) == 4
    for entry in entries(tournament):
        assert "One player found:" in get(client, find_url(tournament, entry.player.name))
        get(client, player_url(tournament, entry))
        view = view_of(tournament, entry)
        names = [group.name for group in view.stages]
        assert [m.round for m in view.stages[0].played] == ["Round 1", "Round 2", "Round 3"]
        if entry.pk in qualified:
            assert names == ["Pools", "Knockout"]
            assert view.stages[1].played[0].round == "Semifinals"
            assert view.stages[1].played[0].opponent_seed in {1, 2, 3, 4}
        else:
            assert names == ["Pools"] and view.next.kind == "out"


def test_every_view_at_once_is_each_view(finished):
    """The find pages work out every player's view in one pass: the same views."""
    from public.players import player_views

    tournament, _swiss, _knockout = finished
    data = load(tournament)
    views = player_views(data)
    assert sorted(views) == sorted(e.pk for e in entries(tournament))
    for entry_id, view in views.items():
        assert view == player_view(data, entry_id)


def test_a_late_entry_is_found_placed_and_paged_before_the_next_pairing(client, director):
    """A late entry to a running Swiss is in no match until the next round is paired: in
    the meantime they are findable, have a page saying the next round is to be paired,
    and a row "in play" in the standings, as every other player still in."""
    tournament, swiss, _knockout = swiss_into_top_four(director)
    play_open(tournament, swiss, upset_every=3)
    late = registration.add_entry(
        tournament=tournament, player=make_player(name="Ярослава Late"), user=director
    )
    html = get(client, find_url(tournament, "Ярослава"))
    assert "One player found:" in html and "Ярослава Late" in html
    page = get(client, player_url(tournament, late))
    assert "The next round has not been paired yet." in page
    assert view_of(tournament, late).next.kind == "next_round"
    payload = client.get(reverse("public:standings-json", args=[tournament.slug])).json()
    row = next(r for r in payload["standings"] if r["name"] == "Ярослава Late")
    assert row["place"] is None and row["stage_reached"] == swiss.name
    assert "0 of 3 rounds played" in row["progress"]
    # Paired in the next round, they play on like everyone else.
    stage_services.pair_next_round(stage=swiss, user=director)
    assert (
        Match.objects.filter(stage=swiss, round=2).filter(Q(side_a=late) | Q(side_b=late)).exists()
    )
    assert "Ярослава Late" in get(client, find_url(tournament, "Ярослава"))
