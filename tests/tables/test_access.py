"""The match look-ups of tables.access: what hand entry's locked look-up loads."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError

from tables import access
from tests.factories import make_entries, make_match, make_tournament

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
def test_the_locked_look_up_loads_what_entry_reads_by_id_and_by_token(with_players):
    t = make_tournament(rules={"gin_bonus": 20})
    a, b = make_entries(tournament=t, count=2) if with_players else (None, None)
    match = make_match(tournament=t, a=a, b=b, first_dealer="B", table=3)
    with transaction.atomic():
        by_pk = access._find("pk", match.pk, lock=True)
        by_token = access._find("token", match.token, lock=True)
        assert loaded(by_pk) == loaded(by_token)
        if with_players:  # the players' names come with the match, as annotations
            assert (by_pk.side_a_name, by_pk.side_b_name) == (a.player.name, b.player.name)
        assert access._find("pk", match.pk + 1000, lock=True) is None
        assert access._find("token", "x" * 40, lock=True) is None
    assert by_pk.tournament.ruleset.gin_bonus == 20
    assert by_pk.get_deferred_fields() == {"next_match_id", "loser_next_match_id"} | {
        name for name in access.ROUTING_ONLY if not name.endswith("match")
    }


@pytest.mark.django_db(transaction=True)  # autocommit outside atomic(), as in production
def test_a_locking_look_up_needs_a_transaction():
    match = make_match(tournament=make_tournament())
    if not connection.features.has_select_for_update:  # SQLite: BEGIN IMMEDIATE locks
        assert access._find("pk", match.pk, lock=True) == match
        return
    with pytest.raises(TransactionManagementError):
        access._find("pk", match.pk, lock=True)
    with transaction.atomic():
        assert access._find("pk", match.pk, lock=True) == match
