"""A match waiting for a table on a 390×844 phone (issue 41): its table link says where it
stands in the queue instead of offering a form, and a hand the phone's outbox sends to it
(the page was opened while the match still had its table) is refused for good: nothing
stored, the sentence shown, nothing left in the outbox to send again."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.factories import make_bracket
from tournaments.models import Match

from .conftest import ARTIFACTS
from .test_phone_outbox import fill_hand, save, state

pytestmark = pytest.mark.django_db(transaction=True)

# Where the pictures go (not committed): QUEUED_SHOTS, or test-artifacts/.
SHOTS = Path(os.environ.get("QUEUED_SHOTS", ARTIFACTS / "queued"))


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def queued_match(language: str = "en") -> Match:
    tournament = make_bracket(players=4, tables=1, status="running", language=language)
    queued = Match.objects.get(tournament=tournament, round=1, table=None)
    return queued


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Wait for a table: you are first in the queue."),
        ("es", "Esperen una mesa: son los primeros en la cola."),
    ],
)
def test_a_queued_match_link_says_where_it_stands(phone, live_server, language, sentence):
    match = queued_match(language)
    phone.goto(f"/table/{match.token}/")
    expect(phone.locator(".waiting-table")).to_contain_text(sentence)
    expect(phone.locator("form.hand-form")).to_have_count(0)
    shot(phone, f"queued-link-phone-{language}")


def test_a_hand_sent_to_a_match_that_lost_its_table_is_refused_for_good(phone, live_server):
    tournament = make_bracket(players=4, tables=2, status="running")
    match = Match.objects.filter(tournament=tournament, round=1).order_by("position").last()
    assert match.table == 2
    phone.goto(f"/table/{match.token}/")
    fill_hand(phone, kind="Knock", by=match.side_name("A"), deadwood=2, defender=30)
    # Meanwhile the director gives its table away (one table fewer): it waits again.
    Match.objects.filter(pk=match.pk).update(table=None)
    save(phone)

    state(phone, "queued")
    expect(phone.locator("#outbox .outbox-state")).to_have_text(
        "Not saved: this match has no table yet. This phone sent:"
    )
    expect(phone.locator("#match-entry .waiting-table")).to_contain_text(
        re.compile(r"Wait for a table: you are (first in the queue|next after table 1)")
    )
    expect(phone.locator("form.hand-form")).to_have_count(0)
    assert phone.evaluate("Object.keys(localStorage)") == []
    assert not Hand.objects.filter(match=match).exists()
    shot(phone, "queued-refused-phone-en")
