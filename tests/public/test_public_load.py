"""How the public pages load a tournament: the same standings as from Hand rows, without
building Hand rows and scoring each distinct hand once (what keeps a 256-player page
linear; see ``make bench``)."""

from __future__ import annotations

import gc
import weakref

import pytest
from django.template.response import SimpleTemplateResponse
from django_htmx.middleware import HtmxDetails

from engine import match as engine_match
from public.views import tournament as public
from scoring.models import Hand
from tests.factories import make_bracket
from tests.scoring.helpers import play
from tests.standings.test_standings import full_match, play_out, playable, standings_of

pytestmark = pytest.mark.django_db


def test_load_gives_the_standings_of_the_hand_rows_scoring_each_distinct_hand_once(
    monkeypatch,
):
    t = make_bracket(players=8)
    play_out(t, hands=full_match, stop=lambda m: m.round == 3)
    play(playable(t)[0], full_match("A")[:5])  # a match in play has its sheet too
    expected = standings_of(t)

    scored = []
    real = engine_match.score_hand

    def counting(rules, hand):
        scored.append(hand)
        return real(rules, hand)

    def no_rows(*args, **kwargs):
        raise AssertionError("the public pages read hands as plain rows")

    monkeypatch.setattr(engine_match, "score_hand", counting)
    monkeypatch.setattr(Hand, "from_db", classmethod(no_rows))
    data = public.load(t)

    assert data.standings == expected
    assert sum(len(sheet.hands) for sheet in data.sheets.values()) > len(scored)
    assert len(scored) == len(set(scored))


@pytest.mark.parametrize("target", ["", "standings"], ids=["page", "standings-region"])
def test_a_page_frees_its_data_without_the_cycle_collector(monkeypatch, rf, target):
    """Django's RequestContext is a reference cycle; what a page renders must not be kept
    in it, or every request leaves the whole tournament to the garbage collector."""
    t = make_bracket(players=4)
    play_out(t, hands=full_match)
    loaded = []
    real = public.load
    monkeypatch.setattr(
        public, "load", lambda tournament: loaded.append(real(tournament)) or loaded[-1]
    )
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target} if target else {}
    request = rf.get("/", **headers)
    request.htmx = HtmxDetails(request)
    gc.collect()
    gc.disable()
    try:
        response = public.tournament_page(request, t.slug)
        if isinstance(response, SimpleTemplateResponse):
            response.render()  # as the handler would
        assert response.status_code == 200
        data = weakref.ref(loaded.pop())
        del response, request
        assert data() is None
    finally:
        gc.enable()
