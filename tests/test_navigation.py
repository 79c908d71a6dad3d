"""Every director page has the same header links: the match page too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.scoring.helpers import ready_match

pytestmark = pytest.mark.django_db


def header(html: str) -> str:
    return html[html.index('<header class="site-header">') : html.index("</header>")]


def test_the_match_page_has_the_director_links(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    url = reverse(
        "scoring:match-sheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )
    nav = header(client.get(url).content.decode())
    assert f'href="{reverse("tournaments:dashboard")}"' in nav
    assert f'href="{reverse("players:player-list")}"' in nav


def test_a_table_link_has_none_of_them(client):
    match = ready_match()
    nav = header(
        client.get(
            reverse("scoring:table-match-sheet", kwargs={"token": match.token})
        ).content.decode()
    )
    assert reverse("tournaments:dashboard") not in nav and "Log out" not in nav
