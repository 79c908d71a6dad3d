"""The house-rule knobs of issue 19 in the director's rules form, the rules summary (in
every language) and the archive: each one settable, each bad value refused with a clear
message and nothing changed."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from archive import api as archive
from engine import PRESETS
from tests.factories import make_tournament
from tournaments.forms import KNOB_LABELS, TournamentForm
from tournaments.models import Tournament
from tournaments.rules_text import rules_summary

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Huisreëls",
    "date": "2030-04-01",
    "venue": "Klubsaal",
    "tables": "6",
    "page_size": "A4",
    "language": "af",
    "bracket_kind": "single_elimination",
    "preset": "modern",
}
GOOD = [
    pytest.param("tie", "knocker", "knocker", id="tie"),
    pytest.param("knock_base", "15", 15, id="knock_base"),
    pytest.param("box_timing", "running", "running", id="box_timing"),
    pytest.param("hollywood_last_doubled", "yes", True, id="hollywood_last_doubled"),
    pytest.param("hollywood_columns_open", "rolling", "rolling", id="hollywood_columns_open"),
    pytest.param("ace_value", "15", 15, id="ace_value"),
    pytest.param("runs_around_the_corner", "yes", True, id="runs_around_the_corner"),
]
CHOICE = "Select a valid choice."
BAD = [
    pytest.param("tie", "coin_toss", CHOICE, id="tie"),
    pytest.param("knock_base", "501", "must be between 0 and 500", id="knock_base-high"),
    pytest.param("knock_base", "-1", "must be between 0 and 500", id="knock_base-low"),
    pytest.param("knock_base", "fifteen", "Enter a whole number.", id="knock_base-text"),
    pytest.param("box_timing", "sometimes", CHOICE, id="box_timing"),
    pytest.param("hollywood_last_doubled", "maybe", CHOICE, id="hollywood_last_doubled"),
    pytest.param("hollywood_columns_open", "all", CHOICE, id="hollywood_columns_open"),
    pytest.param("ace_value", "16", "must be between 1 and 15", id="ace_value-high"),
    pytest.param("ace_value", "0", "must be between 1 and 15", id="ace_value-low"),
    pytest.param("runs_around_the_corner", "1", CHOICE, id="runs_around_the_corner"),
]


@pytest.mark.parametrize(("knob", "posted", "stored"), GOOD)
def test_each_house_rule_is_set_from_the_rules_form(director_client, knob, posted, stored):
    url = reverse("tournaments:tournament-create")
    response = director_client.post(url, {**BASE, knob: posted})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.rules[knob] == stored
    assert tournament.language == "af"
    # The edit form shows it back as an override of the preset.
    assert str(TournamentForm(instance=tournament).initial[knob]) == posted


@pytest.mark.parametrize(("knob", "posted", "message"), BAD)
def test_a_bad_house_rule_is_refused_on_creation(director_client, knob, posted, message):
    url = reverse("tournaments:tournament-create")
    response = director_client.post(url, {**BASE, knob: posted})
    assert response.status_code == 200
    assert Tournament.objects.count() == 0
    form = response.context["form"]
    assert message in " ".join(form.errors[knob])
    assert escape(message) in response.content.decode()


@pytest.mark.parametrize(("knob", "posted", "message"), BAD)
def test_a_bad_house_rule_changes_nothing_on_the_setup_page(director_client, knob, posted, message):
    t = make_tournament(owner=director_client.user, name="Before", preset="palace")
    before = dict(t.rules)
    url = reverse("tournaments:tournament-setup", args=[t.slug])
    response = director_client.post(url, {**BASE, "name": "After", knob: posted})
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[knob])
    t.refresh_from_db()
    assert (t.name, t.rules) == ("Before", before)


def test_the_range_message_names_the_rule_by_its_label():
    form = TournamentForm(data={**BASE, "ace_value": "16"})
    assert not form.is_valid()
    label = KNOB_LABELS["ace_value"]
    assert form.errors["ace_value"] == [f"rules: {label} must be between 1 and 15"]


def test_the_new_presets_are_offered_and_stored(director_client):
    for name in ("palace", "tedesco"):
        Tournament.objects.all().delete()
        response = director_client.post(
            reverse("tournaments:tournament-create"), {**BASE, "preset": name}
        )
        assert response.status_code == 302
        assert Tournament.objects.get().ruleset == PRESETS[name]


# -- the rules summary, in every language -----------------------------------------------------

HOUSE = PRESETS["hollywood"].replace(
    hollywood_columns=5,
    hollywood_columns_open="rolling",
    hollywood_last_doubled=True,
    tie="knocker",
    knock_base=15,
    box_timing="running",
    ace_value=15,
    runs_around_the_corner=True,
)
SUMMARY = {
    "en": [
        "Hollywood, 5 columns to 100",
        "3 columns open at a time, the next as one closes",
        "the last column to finish counts double",
        "aces high or low, runs round the corner (K-A-2)",
        "an unmatched ace counts 15",
        "a tie goes to the knocker",
        "knock base 15",
        "box 25, counted at once",
    ],
    "es": [
        "Hollywood, 5 columnas a 100",
        "3 columnas abiertas a la vez; al cerrarse una se abre la siguiente",
        "la última columna en terminar cuenta doble",
        "el as alto o bajo, escaleras que dan la vuelta (K-A-2)",
        "un as suelto cuenta 15",
        "el empate es para quien cierra",
        "base de cierre 15",
        "casilla 25, sumada al momento",
    ],
    "af": [
        "Hollywood, 5 kolomme tot 100",
        "3 kolomme tegelyk oop; sodra een sluit, gaan die volgende oop",
        "die laaste kolom wat klaarmaak, tel dubbel",
        "aas hoog of laag, reekse om die hoek (K-A-2)",
        "'n ongepaarde aas tel 15",
        "gelykop gaan na die klopper",
        "klopbasis 15",
        "blok 25, dadelik getel",
    ],
}


@pytest.mark.parametrize("language", list(SUMMARY))
def test_the_rules_summary_prints_every_house_rule(language):
    with translation.override(language):
        text = rules_summary(HOUSE)
    parts = text.split(" · ")
    for expected in SUMMARY[language]:
        assert expected in parts, f"{expected!r} not in {parts}"


def test_rolling_is_not_mentioned_where_it_changes_nothing():
    rules = PRESETS["hollywood"].replace(hollywood_columns_open="rolling")
    assert "open at a time" not in rules_summary(rules)
    assert "knock base" not in rules_summary(PRESETS["straight"].replace(knock_base=10))


def test_the_setup_page_shows_the_summary_in_afrikaans(director_client):
    t = make_tournament(owner=director_client.user, preset="tedesco")
    director_client.cookies["django_language"] = "af"
    body = director_client.get(reverse("tournaments:tournament-setup", args=[t.slug])).content
    assert "'n ongepaarde aas tel 15" in body.decode().replace("&#x27;", "'")


# -- the archive ------------------------------------------------------------------------------


def test_the_archive_round_trips_every_house_rule():
    t = make_tournament(preset="tedesco", rules=HOUSE.to_dict() | {"preset": "tedesco"})
    assert t.ruleset == HOUSE.replace(preset="tedesco")
    document = json.loads(archive.dumps(archive.export_tournament(t)))
    for knob, value in HOUSE.to_dict().items():
        if knob != "preset":
            assert document["tournament"]["rules"][knob] == value
    report = archive.import_archive(document, slug="huisreels-weer")
    copy = report.tournament
    assert copy.rules == t.rules
    assert copy.ruleset == t.ruleset


def test_an_archive_from_before_the_house_rules_imports_with_them_off():
    t = make_tournament(preset="modern")
    document = json.loads(archive.dumps(archive.export_tournament(t)))
    for knob in (
        "knock_base",
        "box_timing",
        "hollywood_last_doubled",
        "hollywood_columns_open",
        "ace_value",
        "runs_around_the_corner",
    ):
        del document["tournament"]["rules"][knob]
    copy = archive.import_archive(document, slug="older").tournament
    assert copy.ruleset == PRESETS["modern"]


@pytest.mark.parametrize(
    ("knob", "value", "message"),
    [
        ("knock_base", 501, "knock_base must be between 0 and 500"),
        ("ace_value", 16, "ace_value must be between 1 and 15"),
        ("tie", "coin_toss", "tie must be one of undercut, no_score, knocker"),
        ("box_timing", "later", "box_timing must be one of end, running"),
        ("hollywood_last_doubled", "yes", "hollywood_last_doubled must be true or false"),
    ],
)
def test_an_archive_with_a_bad_house_rule_imports_nothing(knob, value, message):
    document = json.loads(archive.dumps(archive.export_tournament(make_tournament())))
    document["tournament"]["rules"][knob] = value
    count = Tournament.objects.count()
    with pytest.raises(archive.ArchiveError, match=message):
        archive.import_archive(document, slug="refused")
    assert Tournament.objects.count() == count
