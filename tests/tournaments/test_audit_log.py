"""The audit page writes each change as a sentence with names, not ids: only the fields
that changed, links to the match, filters by match, player and kind, the stored detail
behind a disclosure; in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import correct_hand, delete_hand
from tests.factories import make_entries, make_match, make_tournament
from tests.scoring.helpers import knock, named, play
from tournaments import registration
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(director):
    tournament = make_tournament(owner=director, status="running")
    ana, ben, cy, di = make_entries(tournament=tournament, count=4)
    first = make_match(tournament=tournament, a=ana, b=ben, table=1, key="W1-1")
    second = make_match(tournament=tournament, a=cy, b=di, table=2, key="W1-2", position=2)
    play(first, [knock("A", 2, 30)], user=director)
    correct_hand(match=first, **named(first, 1), data=knock("A", 2, 32), user=director)
    play(second, [knock("B", 3, 40), knock("A", 1, 20)], user=director)
    delete_hand(match=second, **named(second, 2), user=director)
    return tournament, first, second, (ana, ben, cy, di)


def audit(client, tournament, **query):
    url = reverse("tournaments:audit-log", args=[tournament.slug])
    return client.get(url, query).content.decode()


def test_a_correction_reads_as_a_sentence_naming_only_what_changed(director_client, night):
    tournament, first, _second, _ = night
    html = audit(director_client, tournament)
    who = tournament.owner.get_username()
    assert f"Hand 1 of W1-1 corrected by {who}: opponent&#x27;s deadwood 30 → 32." in html
    # Names, not side letters or ids; no Python dicts in the sentences.
    entered = f"Hand 1 of W1-1 entered by {who}: {first.name_a} knocked, 2 v 30."
    assert entered in html
    sentences = html.split('class="audit-sentence">')[1:]
    assert sentences and all("{" not in s.split("</p>")[0] for s in sentences)
    # The stored detail stays available, behind a disclosure, as JSON (not Python's repr).
    assert '<details class="audit-raw">' in html and "&quot;match&quot;: &quot;W1-1&quot;" in html
    details = html.split('<details class="audit-raw">')[1:]
    assert all("&#x27;" not in d.split("</details>")[0] for d in details)
    assert all("True" not in d.split("</details>")[0] for d in details)
    sheet = reverse("scoring:match-sheet", args=[tournament.slug, first.pk])
    assert f'href="{sheet}"' in html


def test_a_deletion_says_what_the_hand_was(director_client, night):
    tournament, _first, second, _ = night
    html = audit(director_client, tournament)
    who = tournament.owner.get_username()
    assert f"Hand 2 of W1-2 deleted by {who} (it was: {second.name_a} knocked, 1 v 20)." in html


def test_filters_by_match_player_and_kind(director_client, night):
    tournament, _first, _second, (ana, _ben, cy, _di) = night
    only_first = audit(director_client, tournament, match="W1-1")
    assert "of W1-1" in only_first and "of W1-2" not in only_first
    only_cy = audit(director_client, tournament, player=cy.pk)
    assert "of W1-2" in only_cy and "of W1-1" not in only_cy
    corrections = audit(director_client, tournament, action="hand corrected")
    assert "corrected by" in corrections and "entered by" not in corrections
    registration.set_entry_flag(entry=ana, field="paid", value=True, user=tournament.owner)
    only_ana = audit(director_client, tournament, player=ana.pk)
    assert f"{ana.player.name}: paid changed by" in only_ana and "paid no → yes" in only_ana
    assert "of W1-1" in only_ana


def test_the_page_costs_the_same_queries_for_more_entries(
    director_client, night, django_assert_max_num_queries
):
    tournament, first, *_ = night
    url = reverse("tournaments:audit-log", args=[tournament.slug])
    director_client.get(url)
    with django_assert_max_num_queries(12) as few:
        director_client.get(url)
    play(first, [knock("A", 2, 30) for _ in range(5)], user=tournament.owner)
    assert AuditEntry.objects.filter(tournament=tournament).count() > 10
    with django_assert_max_num_queries(len(few.captured_queries)):
        director_client.get(url)
