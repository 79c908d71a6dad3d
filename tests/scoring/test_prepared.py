"""PreparedLookup builds what ``queryset.get()`` builds, from SQL compiled once."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from scoring import access
from scoring.prepared import PreparedLookup, PreparedRows
from tests.factories import make_entries, make_match, make_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def loaded(obj):
    """Every loaded field, related object and annotation of a Match from the look-up."""
    fields = {
        name: value
        for name, value in vars(obj).items()
        if not name.startswith("_") or name == "_state"
    }
    fields.pop("_state")
    tournament = obj.tournament
    return (
        type(obj),
        fields,
        obj.get_deferred_fields(),
        obj._state.db,
        obj._state.adding,
        {k: v for k, v in vars(tournament).items() if not k.startswith("_")},
        tournament.get_deferred_fields(),
    )


@pytest.mark.parametrize("with_players", [True, False])
def test_it_builds_what_the_queryset_builds(with_players):
    t = make_tournament(rules={"gin_bonus": 20})
    a, b = make_entries(tournament=t, count=2) if with_players else (None, None)
    match = make_match(tournament=t, a=a, b=b, first_dealer="B", table=3)
    by_pk = PreparedLookup(lambda: access._matches(True), "pk", -1)
    by_token = PreparedLookup(lambda: access._matches(True), "token", "\0")
    with transaction.atomic():
        expected = access._matches(True).get(pk=match.pk)
        for found in (by_pk.get(match.pk), by_token.get(match.token), by_pk.get(match.pk)):
            assert loaded(found) == loaded(expected)
            assert found.side_name("A") == expected.side_name("A")
        assert by_pk.get(match.pk + 1000) is None
        assert by_token.get("x" * 40) is None
    assert expected.tournament.ruleset.gin_bonus == 20
    assert expected.get_deferred_fields() == {"next_match_id", "loser_next_match_id"} | {
        name for name in access.ROUTING_ONLY if not name.endswith("match")
    }


@pytest.mark.django_db(transaction=True)  # autocommit outside atomic(), as in production
def test_a_locking_look_up_needs_a_transaction():
    match = make_match(tournament=make_tournament())
    lookup = PreparedLookup(lambda: Match.objects.select_for_update(), "pk", -1)
    if not connection.features.has_select_for_update:  # SQLite: BEGIN IMMEDIATE locks
        assert lookup.get(match.pk) == match
        return
    with pytest.raises(TransactionManagementError):
        lookup.get(match.pk)
    with transaction.atomic():
        assert lookup.get(match.pk) == match


def test_a_look_up_by_a_field_that_is_not_unique_refuses_two_rows():
    t = make_tournament()
    make_match(tournament=t, key="X1")
    make_match(tournament=t, key="X2")
    lookup = PreparedLookup(lambda: Match.objects.all(), "tournament", -1)
    with pytest.raises(Match.MultipleObjectsReturned):
        lookup.get(t.pk)


def test_rows_come_converted_as_the_queryset_gives_them():
    # Dates need a converter on SQLite (stored as text): the rows still match the ORM's.
    t = make_tournament()
    matches = [make_match(tournament=t, key=f"R{n}", queued_at=timezone.now()) for n in range(3)]

    def values():
        return Match.objects.order_by("pk").values_list("key", "token", "queued_at", "is_bye")

    rows = PreparedRows(values, "tournament", -1)
    assert rows.rows(t.pk) == list(values().filter(tournament=t)) and len(matches) == 3
    assert rows.rows(t.pk + 1000) == []
