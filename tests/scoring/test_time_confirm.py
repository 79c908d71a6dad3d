"""Calling time before the round clock ran out asks first (issue 41): "0:13 left on the
clock: decide these matches now?", and only the second, confirming POST calls it. After
the clock ran out, calling time works at once, as before."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from tests.tournaments.test_stages import make_event
from tournaments.models import Match, Stage
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

# The seconds left tick down while the test runs: 0:13 when asked at once, 0:12 or less
# on a slow machine.
QUESTIONS = {
    "en": r"0:1[0-3] left on the clock: decide these matches now\?",
    "es": r"Quedan 0:1[0-3] en el reloj: ¿decidir ahora estos encuentros\?",
    "af": r"0:1[0-3] oor op die horlosie: besluit hierdie wedstryde nou\?",
}


def running_round(director) -> Stage:
    """A Swiss round with a hand in one match and 13 seconds left on its 45-minute clock."""
    tournament = make_event(4)
    tournament.owner = director
    tournament.save()
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        rounds=1,
        rules={"game_target": 100, "games_to_win": 1},
    )
    stage_services.start(tournament=tournament, user=director)
    first = Match.objects.filter(stage=swiss).order_by("position").first()
    record_hand(match=first, number=1, data=HandData("knock", "A", 2, 30))
    stage_services.start_clock(stage=swiss, minutes=45, user=director)
    # 13 seconds and a little more left: the page says 0:13 however quick the test is.
    started = timezone.now() - timedelta(minutes=45) + timedelta(seconds=13.9)
    Stage.objects.filter(pk=swiss.pk).update(clock_started_at=started)
    swiss.refresh_from_db()
    return swiss


def time_url(stage: Stage) -> str:
    return reverse("scoring:stage-time", args=[stage.tournament.slug, stage.pk])


def called(stage: Stage) -> bool:
    stage.refresh_from_db()
    return bool(stage.time_procedure)


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_calling_time_with_time_left_asks_first_and_calls_nothing(client, director, language):
    stage = running_round(director)
    client.force_login(director)
    client.cookies["django_language"] = language
    response = client.post(time_url(stage), {"procedure": "leader"})
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(QUESTIONS[language], page), page
    assert 'name="early" value="1"' in page
    for match in Match.objects.filter(stage=stage):
        assert match.label in page
    assert not called(stage)


def test_the_confirmation_calls_time_and_decides_the_leader(client, director):
    stage = running_round(director)
    client.force_login(director)
    response = client.post(time_url(stage), {"procedure": "leader", "early": "1"}, follow=True)
    assert response.status_code == 200
    assert "Decided on time: 1" in response.content.decode()
    assert called(stage)
    assert Match.objects.filter(stage=stage, decided_on_time=True).count() == 1


def test_htmx_gets_the_question_in_the_stages_region(client, director):
    stage = running_round(director)
    client.force_login(director)
    response = client.post(
        time_url(stage),
        {"procedure": "extra_hands", "extra_hands": "2"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="stages"')
    assert re.search(r"0:1[0-3] left on the clock: call time on these matches now\?", page)
    assert 'name="extra_hands" value="2"' in page
    assert not called(stage)


def test_after_the_clock_ran_out_time_is_called_at_once(client, director):
    stage = running_round(director)
    Stage.objects.filter(pk=stage.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=46)
    )
    client.force_login(director)
    response = client.post(time_url(stage), {"procedure": "leader"}, follow=True)
    assert "Decided on time: 1" in response.content.decode()
    assert called(stage)


def test_without_a_clock_time_is_called_at_once(director):
    stage = running_round(director)
    Stage.objects.filter(pk=stage.pk).update(clock_started_at=None)
    stage.refresh_from_db()
    timing.call_time(stage=stage, procedure="leader", user=director)
    assert called(stage)


def test_the_service_refuses_an_early_call_it_was_not_told_of(director):
    stage = running_round(director)
    with pytest.raises(timing.ClockRunning) as running:
        timing.call_time(stage=stage, procedure="leader", user=director)
    assert 0 < running.value.seconds <= 13
    assert not called(stage)
