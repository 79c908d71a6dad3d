"""A stage's players and sizes in an archive, checked as the stage forms check them
(issue 29): a player at most once per stage and per pool, sizes within the form's limits.
The import refuses with one line and writes nothing; verify_tournament reports the same."""

from __future__ import annotations

import copy
import json

import pytest

from tests.tournaments.test_stages import ONE_GAME_TO_100, make_event, play_open
from tournaments.models import Stage, Tournament
from tournaments.stages import services as stage_services

from .test_archive import counts, export, forget, refused, run_import, write
from .test_verify import verify

_DOCUMENT: dict[str, dict] = {}


def staged_document() -> dict:
    """A Swiss stage of 2 rounds played, cut into a knockout of 4, exported and forgotten."""
    if "document" not in _DOCUMENT:
        tournament = make_event(10)
        owner = tournament.owner
        swiss = stage_services.add_stage(
            tournament=tournament,
            user=owner,
            kind="swiss",
            rounds=2,
            advance=4,
            rules=ONE_GAME_TO_100,
        )
        stage_services.add_stage(tournament=tournament, user=owner, kind="single_elimination")
        stage_services.start(tournament=tournament, user=owner)
        play_open(tournament, swiss)
        stage_services.pair_next_round(stage=swiss, user=owner)
        play_open(tournament, swiss)
        stage_services.close_stage(stage=swiss, user=owner)
        _DOCUMENT["document"] = json.loads(export(tournament))
        _DOCUMENT["owner"] = owner.username
        forget(tournament)
    else:
        from tests.factories import make_director

        make_director(username=_DOCUMENT["owner"])
    return copy.deepcopy(_DOCUMENT["document"])


def twice_in_the_cut(document):
    entrants = document["stages"][1]["entrants"]
    entrants[1] = entrants[0]


def twice_in_the_swiss(document):
    entrants = document["stages"][0]["entrants"]
    entrants[1] = entrants[0]


def advance_past_the_form(document):
    document["stages"][0]["advance"] = 10**9


def in_two_pools(document):
    document["stages"][0]["pools"] = [[0, 1, 2], [2, 3, 4]]


CASES = [
    pytest.param(twice_in_the_cut, "stages[1].entrants: a player appears twice", id="cut"),
    pytest.param(twice_in_the_swiss, "stages[0].entrants: a player appears twice", id="swiss"),
    pytest.param(advance_past_the_form, "stages[0].advance: 1000000000", id="advance"),
    pytest.param(in_two_pools, "stages[0].pools: a player appears twice", id="pools"),
]


@pytest.mark.django_db
def test_the_staged_archive_imports_as_it_is(tmp_path):
    run_import(write(tmp_path, staged_document()))
    assert Stage.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), CASES)
def test_a_misshapen_stage_is_refused_and_nothing_is_imported(tmp_path, change, message):
    document = staged_document()
    change(document)
    before = counts()
    error = refused(write(tmp_path, document))
    assert message in error
    assert counts() == before
    assert not Tournament.objects.filter(slug=document["tournament"]["slug"]).exists()


@pytest.mark.django_db
def test_verify_reports_a_player_twice_in_a_stage(tmp_path):
    document = staged_document()
    run_import(write(tmp_path, document))
    tournament = Tournament.objects.get(slug=document["tournament"]["slug"])
    cut = tournament.stages.get(number=2)
    Stage.objects.filter(pk=cut.pk).update(entrants=[cut.entrants[0], *cut.entrants[:-1]])
    status, out, _err = verify(tournament.slug)
    assert status == 1
    assert "S2.  entrants: a player appears twice" in out
