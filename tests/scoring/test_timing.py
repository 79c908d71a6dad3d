"""Calling time: the engine's leader on time, and unfinished matches decided from hands."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from engine import Side, resolve_rules, score_match, time_leader
from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from tests.tournaments.test_stages import make_event
from tournaments.models import Match
from tournaments.stages import services as stage_services

TO_100_BEST_OF_3 = resolve_rules({"preset": "modern", "games_to_win": 2})
TO_100_SPEC = {"game_target": 100, "games_to_win": 1}


def knock(by, deadwood, defender):
    return HandData("knock", by, deadwood, defender).to_input()


@pytest.mark.parametrize(
    ("hands", "leader"),
    [
        pytest.param([], None, id="no-hands-level"),
        pytest.param([knock("A", 2, 30)], Side.A, id="current-game-points"),
        pytest.param([knock("B", 2, 30)], Side.B, id="current-game-points-b"),
        # A wins game 1 (gin 25 + 98 = 123), B leads game 2 on points: games won first.
        pytest.param(
            [HandData("gin", "A", None, 98).to_input(), knock("B", 1, 60)],
            Side.A,
            id="games-won-before-points",
        ),
        pytest.param([knock("A", 2, 12), knock("B", 2, 12)], None, id="level-on-everything"),
    ],
)
def test_time_leader(hands, leader):
    sheet = score_match(TO_100_BEST_OF_3, hands, Side.A)
    assert time_leader(sheet) == leader


@pytest.mark.django_db
def test_a_round_decided_on_time(director):
    tournament = make_event(6)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        rounds=2,
        rules={"game_target": 100, "games_to_win": 2},
    )
    stage_services.start(tournament=tournament, user=director)
    leading, level, untouched = Match.objects.filter(stage=swiss).order_by("position")
    record_hand(match=leading, number=1, data=HandData("knock", "B", 2, 30))
    record_hand(match=level, number=1, data=HandData("knock", "A", 2, 12))
    record_hand(match=level, number=2, data=HandData("knock", "B", 2, 12))

    timing.call_time(stage=swiss, procedure="extra_hands", extra_hands=1, user=director)
    report = timing.decide(stage=swiss, user=director)
    assert report.decided == [] and len(report.waiting) == 3  # nobody played the extra hand
    record_hand(match=leading, number=2, data=HandData("knock", "B", 3, 20))
    report = timing.decide(stage=swiss, user=director)
    assert [m.pk for m in report.decided] == [leading.pk]
    leading.refresh_from_db()
    assert leading.status == "complete" and leading.winner_side == "B"
    assert leading.decided_on_time and not leading.forfeit

    timing.call_time(stage=swiss, procedure="leader", user=director)
    report = timing.decide(stage=swiss, user=director)
    assert {m.pk for m in report.level} == {level.pk, untouched.pk}
    level.refresh_from_db()
    assert level.status == "in_play" and not level.decided_on_time
    with pytest.raises(ValidationError):
        timing.call_time(stage=swiss, procedure="luck", user=director)


@pytest.mark.django_db
def test_the_director_rules_a_level_match_from_the_stages_page(client, director):
    from django.urls import reverse

    from tests.factories import make_user
    from tournaments.models import Decision

    tournament = make_event(4)
    tournament.owner = director
    tournament.save()
    keeper = make_user(username="keeper")
    tournament.scorekeepers.add(keeper)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=1, rules=TO_100_SPEC
    )
    stage_services.start(tournament=tournament, user=director)
    level, other = Match.objects.filter(stage=swiss).order_by("position")
    record_hand(match=level, number=1, data=HandData("knock", "A", 2, 12))
    record_hand(match=level, number=2, data=HandData("knock", "B", 2, 12))
    record_hand(match=other, number=1, data=HandData("knock", "A", 2, 12))
    page_url = reverse("tournaments:stages", args=[tournament.slug])
    url = reverse("scoring:match-ruling", args=[tournament.slug, level.pk])

    client.force_login(director)
    assert url not in client.get(page_url).content.decode()  # no ruling before time is called
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    page = client.get(page_url).content.decode()
    assert f'action="{url}"' in page  # the level match is offered for a ruling
    other_url = reverse("scoring:match-ruling", args=[tournament.slug, other.pk])
    assert other_url not in page  # decided on time already

    client.force_login(keeper)
    assert client.post(url, {"winner_side": "A"}).status_code in (403, 404)
    assert not Decision.objects.filter(match=level).exists()

    client.force_login(director)
    response = client.post(url, {"winner_side": "A", "reason": "cut for high card"}, follow=True)
    assert response.redirect_chain[-1][0] == page_url
    assert f"{level.label}: {level.name_a} wins on your ruling." in response.content.decode()
    level.refresh_from_db()
    assert level.status == "complete" and level.winner_side == "A"
    decision = Decision.objects.get(match=level)
    assert decision.kind == "ruling" and decision.decided_by == director
    assert decision.basis["reason"] == "cut for high card"
    assert url not in response.content.decode()  # ruled: no longer offered
    log = client.get(reverse("tournaments:audit-log", args=[tournament.slug])).content.decode()
    assert "on what basis – → cut for high card" in log


@pytest.mark.django_db
def test_a_swiss_match_page_names_its_table_once(client, director):
    from django.urls import reverse

    tournament = make_event(6)
    swiss = stage_services.add_stage(tournament=tournament, user=director, kind="swiss", rounds=2)
    stage_services.start(tournament=tournament, user=director)
    match = Match.objects.filter(stage=swiss, table__isnull=False).order_by("position").last()
    client.force_login(director)
    url = reverse("scoring:match-sheet", kwargs={"slug": tournament.slug, "match_id": match.pk})
    import re

    html = " ".join(re.sub(r"<[^>]+>", "", client.get(url).content.decode()).split())
    assert f"{swiss.name} · Round 1 · Match {match.position} · Table {match.table}" in html
    assert f"Table {match.position} · Table {match.table}" not in html


def test_points_at_call_are_the_finished_games_totals_and_the_current_games_points():
    from engine import points_at_call

    # Game 1 to A (gin 25 + 98 = 123 and its bonuses in its total), game 2: B's knock of 58.
    sheet = score_match(
        TO_100_BEST_OF_3, [HandData("gin", "A", None, 98).to_input(), knock("B", 1, 59)], Side.A
    )
    first = sheet.games[0]
    assert first.complete and not sheet.games[1].complete
    at_call = points_at_call(sheet)
    assert (at_call.a, at_call.b) == (first.total.a, first.total.b + 58)
    assert points_at_call(score_match(TO_100_BEST_OF_3, [knock("A", 2, 32)], Side.A)).a == 30
