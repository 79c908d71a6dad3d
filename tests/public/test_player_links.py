"""Every name on the public pages links to the club player's page (issue 17), except a
hidden player's and a team's, which stay plain names."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from public.live import forget
from tests.factories import make_bracket
from tests.scoring.helpers import knock, play
from tests.tournaments.test_stages import make_event, play_open
from tournaments.models import Entry, Match
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db


def links(html: str) -> dict[str, set[str]]:
    """Player page URL → the names linked to it."""
    found: dict[str, set[str]] = {}
    pattern = r'<a class="player-link" href="(/players/\d+/)">([^<]+)</a>'
    for href, name in re.findall(pattern, html):
        found.setdefault(href, set()).add(name)
    return found


def page_of(entry: Entry) -> str:
    return reverse("club:player", args=[entry.player_id])


def test_every_name_of_a_staged_tournament_links_except_a_hidden_players(client, director):
    tournament = make_event(6)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", name="Qualifying", rounds=2, advance=4
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.pair_next_round(stage=swiss, user=director)
    in_play = Match.objects.filter(stage=swiss, status=Match.Status.READY).exclude(side_b=None)
    play(in_play.first(), [knock("A")], user=director)
    entries = list(tournament.entries.select_related("player").order_by("seed"))
    hidden = entries[-1]
    hidden.player.hidden = True
    hidden.player.save()
    forget()

    page = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    display = client.get(reverse("public:display", args=[tournament.slug])).content.decode()
    for html in (page, display):
        found = links(html)
        for entry in entries[:-1]:
            assert found.get(page_of(entry)) == {entry.player.name}
        assert f'href="{page_of(hidden)}"' not in html and hidden.player.name in html
    # The stage's standings and both rounds of pairings: a name per row and per pairing.
    stage_part = page[page.index('class="stage-block"') :]
    assert stage_part.count('class="player-link"') >= 5 + 4 + 4
    # The projector's table in play names both players with links.
    tables = display[display.index('class="pj-tables"') :]
    assert tables.count('class="player-link"') >= 1


def test_a_match_sheet_names_its_players_with_links(client):
    tournament = make_bracket(players=4)
    match = tournament.matches.exclude(side_a=None).exclude(side_b=None).first()
    html = client.get(
        reverse("scoring:match-sheet", kwargs={"slug": tournament.slug, "match_id": match.pk})
    ).content.decode()
    title = html[html.index('<h1 class="match-title">') :]
    title = title[: title.index("</h1>")]
    assert links(title) == {
        page_of(match.side_a): {match.side_a.player.name},
        page_of(match.side_b): {match.side_b.player.name},
    }


def test_a_hidden_players_name_is_plain_everywhere(client):
    tournament = make_bracket(players=4)
    entry = tournament.entries.select_related("player").get(seed=1)
    entry.player.hidden = True
    entry.player.save()
    forget()
    urls = [
        reverse("public:tournament", args=[tournament.slug]),
        reverse("public:display", args=[tournament.slug]),
        reverse("public:player", args=[tournament.slug, entry.pk]),
    ]
    for url in urls:
        html = client.get(url).content.decode()
        assert entry.player.name in html and f'href="{page_of(entry)}"' not in html, url


ARABIC = "مُحَمَّد العَلي"


def unisolated(html: str, name: str) -> list[str]:
    """The text around each place ``name`` is printed outside a <bdi>: where a right-to-left
    name would carry the number beside it (a seed, a score) to its wrong side. In plain
    text (the page's title, a tooltip) the isolates are the characters FSI … PDI."""
    outside = re.sub(r"<bdi>.*?</bdi>|\u2068[^\u2069]*\u2069", "", html, flags=re.S)
    return re.findall(rf">[^<]*{re.escape(name)}[^<]*<", outside)


def test_names_beside_numbers_are_isolated_from_them(client):
    tournament = make_bracket(players=4)
    arabic = tournament.entries.select_related("player").get(seed=1)
    arabic.player.name = ARABIC
    arabic.player.save()
    play(Match.objects.filter(tournament=tournament, round=1).order_by("position")[0], [knock("A")])
    forget()
    slug = tournament.slug
    pages = {
        "page": reverse("public:tournament", args=[slug]),
        "projector": reverse("public:display", args=[slug]),
        "find": reverse("public:find", args=[slug]) + "?q=العلي",
        "player": reverse("public:player", args=[slug, arabic.pk]),
        "opponent": reverse("public:player", args=[slug, tournament.entries.get(seed=4).pk]),
    }
    for where, url in pages.items():
        html = client.get(url).content.decode()
        assert ARABIC in html, where
        assert unisolated(html, ARABIC) == [], where
