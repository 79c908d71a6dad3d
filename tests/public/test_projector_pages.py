"""The projector's standings in pages (issue 41): every entrant on exactly one page of at
most 16 rows, the pages turned by the projector's script, and without JavaScript the
first page with a link to each other page."""

from __future__ import annotations

import math
import re

import pytest
from django.utils import translation

from public.standings_pages import ROWS_PER_PAGE
from tests.factories import make_bracket
from tests.public.test_public_views import display_url, htmx
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

PAGE = re.compile(r'<div class="pj-page" data-page="(\d+)"( hidden)?>(.*?)</div>', re.S)
NAME = re.compile(r'<td class="player">(?:<bdi>)?(?:<a [^>]*>)?([^<]+)')


def pages_of(html: str) -> list[tuple[int, bool, list[str]]]:
    """Each page of the standings panel: its number, whether it is hidden, its names."""
    start = html.find("pj-panel-standings")
    panel = html[start : html.find("</section>", start)]
    return [(int(n), bool(hidden), NAME.findall(body)) for n, hidden, body in PAGE.findall(panel)]


def names(t: Tournament) -> list[str]:
    return [e.player.name for e in Entry.objects.filter(tournament=t).select_related("player")]


@pytest.mark.parametrize("players", [20, 40])
def test_every_entrant_is_on_exactly_one_page_of_at_most_sixteen(client, players):
    t = make_bracket(players=players)
    pages = pages_of(htmx(client, display_url(t, "standings")).content.decode())
    assert [n for n, _hidden, _names in pages] == list(range(1, math.ceil(players / 16) + 1))
    assert all(len(shown) <= ROWS_PER_PAGE for _n, _hidden, shown in pages)
    listed = [name for _n, _hidden, shown in pages for name in shown]
    assert sorted(listed) == sorted(names(t))  # every name, each once
    # The first page shows; the script turns to the others.
    assert [hidden for _n, hidden, _names in pages] == [False] + [True] * (len(pages) - 1)


def test_without_javascript_the_first_page_links_to_the_others(client):
    t = make_bracket(players=40)
    html = client.get(display_url(t)).content.decode()
    assert "js/projector.js" in html
    first = pages_of(html)
    assert [(n, hidden) for n, hidden, _names in first] == [(1, False), (2, True), (3, True)]
    start = html.find('data-page="1"')
    links = re.findall(
        r'href="([^"]*\?panel=standings&amp;page=(\d+))"', html[start : html.find("</div>", start)]
    )
    assert sorted({int(n) for _url, n in links}) == [2, 3]
    assert "Page 1 of 3" in html
    seen = set(first[0][2])
    for url, number in sorted(set(links)):
        html = client.get(url.replace("&amp;", "&")).content.decode()
        [(shown_number, hidden, shown)] = pages_of(html)
        assert (shown_number, hidden) == (int(number), False)
        assert f"Page {number} of 3" in html and not seen & set(shown)
        seen |= set(shown)
    assert seen == set(names(t))


def test_a_page_has_its_own_etag_and_a_page_that_is_not_there_shows_the_first(client):
    t = make_bracket(players=20)
    first = client.get(display_url(t, "standings"))
    second = client.get(display_url(t, "standings") + "&page=2")
    assert first["ETag"] != second["ETag"]
    again = client.get(display_url(t, "standings") + "&page=2", HTTP_IF_NONE_MATCH=second["ETag"])
    assert again.status_code == 304
    bogus = client.get(display_url(t, "standings") + "&page=9").content.decode()
    assert [(n, hidden) for n, hidden, _names in pages_of(bogus)] == [(1, False), (2, True)]


def test_a_small_field_is_one_page_without_links(client):
    t = make_bracket(players=16)
    html = client.get(display_url(t)).content.decode()
    assert [(n, hidden) for n, hidden, _names in pages_of(html)] == [(1, False)]
    assert "pj-pager" not in html and "more players" not in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Page 1 of 2", ">Page 2<")),
        ("es", ("Página 1 de 2", ">Página 2<")),
        ("af", ("Bladsy 1 van 2", ">Bladsy 2<")),
    ],
)
def test_the_pages_are_named_in_every_language(client, language, words):
    t = make_bracket(players=20)
    Tournament.objects.filter(pk=t.pk).update(language=language)
    with translation.override(language):
        html = client.get(display_url(t)).content.decode()
    for word in words:
        assert word in html


@pytest.mark.parametrize(
    ("number", "pages", "links"),
    [
        (1, 2, [1, 2]),
        (1, 64, [1, 2, 3, None, 64]),
        (7, 64, [1, None, 5, 6, 7, 8, 9, None, 64]),
        (4, 64, [1, 2, 3, 4, 5, 6, None, 64]),
        (64, 64, [1, None, 62, 63, 64]),
    ],
)
def test_the_pager_links_the_near_pages_the_first_and_the_last(number, pages, links):
    """A few links on every page, whatever the field's size: 64 pages of 64 links each
    made the projector's render grow with the square of the players."""
    from public.standings_pages import StandingsPage

    assert StandingsPage(number, [], pages).numbers == links
