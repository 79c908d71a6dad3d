"""Two tabs on the Stages page act at once (issue 29): the one that loses is told that it
was just done elsewhere, not something true but puzzling about a table. Two threads, one
barrier, each with its own connection; CI runs this on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.concurrency import at_once
from tests.scoring.helpers import hidden_fields
from tests.tournaments.test_stages import ONE_GAME_TO_100, make_event, play_open
from tournaments.models import Match, Stage
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db(transaction=True)


def a_swiss_with_round_one_played(rounds: int = 2) -> Stage:
    tournament = make_event(6)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=tournament.owner,
        kind="swiss",
        rounds=rounds,
        advance=2,
        rules=ONE_GAME_TO_100,
    )
    stage_services.add_stage(
        tournament=tournament, user=tournament.owner, kind="single_elimination"
    )
    stage_services.start(tournament=tournament, user=tournament.owner)
    play_open(tournament, swiss)
    swiss.refresh_from_db()
    return swiss


def two_tabs(stage: Stage, action: str) -> list[str]:
    """Two tabs of the director open the Stages page, then press the same button at once;
    what each was told."""
    tournament = stage.tournament
    url = reverse(f"tournaments:{action}", args=[tournament.slug, stage.pk])
    page = reverse("tournaments:stages", args=[tournament.slug])
    tabs = []
    for _ in range(2):
        client = Client(raise_request_exception=False)
        client.force_login(tournament.owner)
        tabs.append((client, hidden_fields(client.get(page).content.decode(), url)))

    def press(tab: tuple[Client, dict]) -> str:
        client, data = tab
        response = client.post(url, data)
        assert response.status_code == 302, response.status_code
        return " ".join(str(m) for m in get_messages(response.wsgi_request))

    told = at_once(tabs.__getitem__, press)
    return sorted(told)


def test_two_tabs_pair_the_next_round_once_and_the_second_is_told_why():
    for _ in range(3):
        swiss = a_swiss_with_round_one_played()
        told = two_tabs(swiss, "stage-pair")
        assert Match.objects.filter(stage=swiss, round=2).count() == 3
        assert told[0].startswith("Round 2 is paired"), told
        assert told[1] == (
            "Round 2 was just paired elsewhere (another tab or device): here is the stage "
            "as it is now."
        ), told


def test_two_tabs_close_the_stage_once_and_the_second_is_told_why():
    for _ in range(3):
        swiss = a_swiss_with_round_one_played(rounds=1)
        told = two_tabs(swiss, "stage-close")
        assert swiss.tournament.stages.get(number=2).status == Stage.Status.RUNNING
        closed = [t for t in told if "is closed" in t]
        elsewhere = [t for t in told if "was just closed elsewhere" in t]
        assert len(closed) == 1 and len(elsewhere) == 1, told
