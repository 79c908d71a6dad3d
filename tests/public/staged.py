"""A staged event for the public pages' tests: registered players (names of many scripts)
in a three-round Swiss whose top four are cut into a single-elimination knockout."""

from __future__ import annotations

from collections.abc import Sequence

from tests.factories import make_player, make_tournament
from tests.tournaments.test_stages import ONE_GAME_TO_100, play_open
from tournaments.models import Entry, Stage, Tournament
from tournaments.stages import services as stage_services


def make_named_event(names: Sequence[str]) -> Tournament:
    """A tournament in registration with ``names`` entered in seed order."""
    tournament = make_tournament(status="registration", tables=len(names) // 2)
    for seed, name in enumerate(names, start=1):
        Entry.objects.create(tournament=tournament, player=make_player(name=name), seed=seed)
    return tournament


def swiss_into_top_four(
    director, names: Sequence[str], *, swiss_name: str = "Qualifying", rounds: int = 3
) -> tuple[Tournament, Stage, Stage]:
    """``names`` registered in seed order, a Swiss of ``rounds`` into a top-four knockout
    started (its first round paired)."""
    tournament = make_named_event(names)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name=swiss_name,
        rounds=rounds,
        advance=4,
        rules=ONE_GAME_TO_100,
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        name="Knockout",
        rules=ONE_GAME_TO_100,
    )
    stage_services.start(tournament=tournament, user=director)
    return tournament, swiss, knockout


def play_swiss(tournament: Tournament, swiss: Stage, director) -> None:
    """Every round of the Swiss, each paired after the one before (an upset every third)."""
    for round_ in range(1, (swiss.rounds or 0) + 1):
        if round_ > 1:
            stage_services.pair_next_round(stage=swiss, user=director)
        play_open(tournament, swiss, upset_every=3)
