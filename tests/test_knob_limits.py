"""One definition of the rule knobs' limits (``engine.KNOB_RANGES``), one message:
the setup form, the archive import and ``score_sheet`` refuse a knob past its limit
alike, naming the knob and the limit, and change nothing."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from archive import api as archive
from engine import KNOB_RANGES, TEAM_KNOBS
from tests.factories import make_tournament
from tournaments.forms import KNOB_LABELS, TournamentForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Club night",
    "date": "2030-01-01",
    "tables": "4",
    "page_size": "A4",
    "language": "en",
    "bracket_kind": "single_elimination",
    "preset": "modern",
}
PAST = [
    pytest.param(name, value, id=f"{name}={value}")
    for name, (low, high) in KNOB_RANGES.items()
    for value in (low - 1, high + 1, 3_000_000_000)
]


def message(name: str) -> str:
    low, high = KNOB_RANGES[name]
    return f"rules: {name} must be between {low} and {high}"


def score_sheet_error(rules: dict) -> str:
    err = io.StringIO()
    with pytest.raises(SystemExit) as caught, pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(json.dumps({"rules": rules, "hands": []})))
        patch.setattr("sys.stderr", err)
        call_command("score_sheet", "-", stdout=io.StringIO())
    assert caught.value.code == 1
    return err.getvalue()


@pytest.mark.parametrize(("name", "value"), PAST)
def test_the_form_archive_and_score_sheet_refuse_alike(name, value, tmp_path):
    expected = message(name)

    assert score_sheet_error({"preset": "modern", name: value}) == f"error: {expected}\n"

    if name in TEAM_KNOBS:  # not offered by the setup form until team tournaments exist
        assert name not in TournamentForm().fields
    else:
        form = TournamentForm(data={**BASE, name: str(value)})
        assert not form.is_valid()
        label = str(KNOB_LABELS[name])
        assert form.errors[name] == [expected.replace(name, label)]

    document = archive.export_tournament(make_tournament(preset="modern"))
    document["tournament"]["rules"][name] = value
    with pytest.raises(archive.ArchiveError) as caught:
        archive.check_archive(document, slug="elsewhere")
    assert str(caught.value) == f"tournament.rules: {expected}"


@pytest.mark.parametrize("name", [name for name in KNOB_RANGES if name not in TEAM_KNOBS])
def test_the_form_takes_each_limit_and_tells_the_browser(name):
    low, high = KNOB_RANGES[name]
    for value in (low, high):
        form = TournamentForm(data={**BASE, name: str(value)})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["rules"][name] == value
    if name != "big_gin_bonus":  # a text input: it also takes "none"
        html = str(TournamentForm()[name])
        assert f'min="{low}"' in html and f'max="{high}"' in html


def test_the_overflowing_rules_of_the_issue_are_refused_by_the_setup_page(director_client):
    """Oklahoma with every bonus and the target at 10000 used to be accepted; its matches
    then overflowed PostgreSQL's integer (a 500) or, on SQLite, stored totals that the
    tournament's own archive could not bring back."""
    knobs = ["game_target", "gin_bonus", "big_gin_bonus", "box_bonus", "gin_extra_boxes"]
    data = {
        **BASE,
        "preset": "oklahoma",
        **dict.fromkeys([*knobs, "game_bonus"], "10000"),
        "shutout": "double_total",
        "spade_double_boxes": "yes",
        "games_to_win": "10",
    }
    response = director_client.post(reverse("tournaments:tournament-create"), data)
    assert response.status_code == 200
    assert Tournament.objects.count() == 0
    body = response.content.decode()
    for name in [*knobs, "game_bonus"]:
        low, high = KNOB_RANGES[name]
        assert f"rules: {KNOB_LABELS[name]} must be between {low} and {high}" in body
