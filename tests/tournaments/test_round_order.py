"""Round control and the generated bracket list rounds in playing order (round 1 first,
the deciders last), with a link to the round in play when it is not the first shown."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.factories import finish_match, make_bracket
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def headings(html: str, tag: str) -> list[str]:
    return [
        htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", h))).strip()
        for h in re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", html, re.S)
    ]


def test_round_control_lists_round_one_first(director_client, director):
    t = make_bracket(players=8, owner=director)
    html = director_client.get(reverse("tournaments:round-control", args=[t.slug])).content
    shown = [h.split(" ")[0] for h in headings(html.decode(), "h2")]
    # Named as every other page names them (issue 41), not "Round 1", "Round 2" …
    assert shown[:3] == ["Quarterfinals", "Semifinals", "Final"]


def test_double_elimination_interleaves_and_ends_with_the_final(director_client, director):
    t = make_bracket(
        players=8, owner=director, bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION
    )
    html = director_client.get(reverse("tournaments:bracket", args=[t.slug])).content.decode()
    shown = headings(html, "h2")
    assert shown[0] == "Winners' bracket · round 1"
    assert shown[1] == "Losers' bracket · round 1"
    assert shown[-1].startswith(("Grand final", "Bracket reset"))
    assert shown.index("Winners' bracket · round 2") < shown.index("Winners' bracket · round 3")


def test_the_round_in_play_is_linked_once_round_one_is_done(director_client, director):
    t = make_bracket(players=4, owner=director)
    url = reverse("tournaments:round-control", args=[t.slug])
    assert 'href="#round-in-play"' not in director_client.get(url).content.decode()
    for match in Match.objects.filter(tournament=t, round=1):
        finish_match(match)
    html = director_client.get(url).content.decode()
    assert 'href="#round-in-play"' in html
    in_play = html[html.index('id="round-in-play"') :]
    assert "Final" in in_play[: in_play.index("</h2>")]
