"""What a page offers is what the state allows: no "Clear the bracket" once a match is
played into (the reason instead), and format options only under their format."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import finish_match, make_bracket, make_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_clear_is_offered_until_a_match_is_played(director_client, director):
    t = make_bracket(players=4, owner=director)
    url = reverse("tournaments:bracket", args=[t.slug])
    clear = reverse("tournaments:bracket-clear", args=[t.slug])
    html = director_client.get(url).content.decode()
    assert clear in html and "Clear the bracket" in html

    finish_match(Match.objects.get(tournament=t, key="W1-1"))
    html = director_client.get(url).content.decode()
    assert clear not in html and "Clear the bracket" not in html
    assert "The bracket can no longer be cleared:" in html
    assert "has been played into" in html


def test_format_options_are_marked_with_the_format_they_belong_to(director_client, director):
    t = make_tournament(owner=director)
    html = director_client.get(reverse("tournaments:tournament-setup", args=[t.slug])).content
    html = html.decode()
    for name in ("third_place", "consolation", "bracket_reset", "draw_seed"):
        assert f'class="field opt-{name}' in html
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    assert '#id_bracket_kind option[value="double_elimination"]:checked)) .opt-bracket_reset' in css
