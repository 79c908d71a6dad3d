"""Each stage's results are computed once per request (issue 42): however many regions,
panels or documents show a stage, it is ranked by its tiebreaks once
(:mod:`tournaments.stages.results`), and every surface reads that one result."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.public.staged import play_swiss, swiss_into_top_four
from tournaments.stages import results as stage_results
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Ben", "Cleo", "Dirk", "Eva", "Femi", "Gus", "Hana")


@pytest.fixture
def rankings(monkeypatch) -> list[tuple]:
    """Every ranking of a stage's table by its tiebreaks, as it happens."""
    calls: list[tuple] = []
    real = stage_results.standings

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(stage_results, "standings", counted)
    return calls


@pytest.fixture
def cut_event(director):
    """A Swiss played out and cut into its knockout: two stages with standings."""
    tournament, swiss, _knockout = swiss_into_top_four(director, NAMES)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    return tournament


@pytest.mark.parametrize(
    "name", ["public:tournament", "public:standings-json", "public:display"], ids=str
)
def test_a_public_surface_ranks_each_stage_once(client, cut_event, rankings, name):
    response = client.get(reverse(name, args=[cut_event.slug]))
    assert response.status_code == 200
    assert len(rankings) == 2  # the Swiss and the knockout, once each


def test_a_stage_pdf_ranks_each_stage_once(client, cut_event, rankings):
    url = reverse("printing:stage-standings-pdf", kwargs={"slug": cut_event.slug, "stage": 1})
    assert client.get(url).status_code == 200
    assert len(rankings) == 2


def test_the_directors_stages_page_ranks_each_stage_once(client, cut_event, rankings):
    client.force_login(cut_event.owner)
    response = client.get(reverse("tournaments:stages", args=[cut_event.slug]))
    assert response.status_code == 200
    assert len(rankings) == 2
