"""The money models moved from the club app to the money app with state-only migrations
(``money.0001_initial``, ``club.0005_money_moves_to_money_app``): a database migrated
before the move keeps its rows, and the moved models find them in the same tables."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from money.models import Payment, SidePot, SidePotEntry, TournamentMoney

# The database as it stood when the models moved: the club's tables before the move, and
# the tournaments' as they were then (a later field of theirs, NOT NULL with a model
# default only, would refuse the old state's rows).
BEFORE = [
    ("club", "0004_payout_rounding_at_least_a_cent"),
    ("tournaments", "0010_merge_0009_decisions_0009_submission"),
]


def test_money_models_keep_the_club_tables():
    assert [
        model._meta.db_table for model in (TournamentMoney, Payment, SidePot, SidePotEntry)
    ] == ["club_tournamentmoney", "club_payment", "club_sidepot", "club_sidepotentry"]


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_are_read_by_the_money_models():
    executor = MigrationExecutor(connection)
    # Back to before the move: the tables as the club migrations built them.
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    assert "payment" in old.all_models["club"] and "payment" not in old.all_models["money"]
    user = old.get_model("auth", "User").objects.create(username="director")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Spring open", slug="spring-open", owner=user
    )
    player = old.get_model("tournaments", "Player").objects.create(name="Ada")
    entry = old.get_model("tournaments", "Entry").objects.create(
        tournament=tournament, player=player, seed=1
    )
    old.get_model("club", "TournamentMoney").objects.create(
        tournament=tournament, entry_fee=Decimal("10"), payout=["100"]
    )
    old.get_model("club", "Payment").objects.create(entry=entry, method="cash", amount=10)
    pot = old.get_model("club", "SidePot").objects.create(
        tournament=tournament, name="Side pot", buy_in=5
    )
    old.get_model("club", "SidePotEntry").objects.create(pot=pot, entry=entry)

    # Forward to the end: nothing in the database moves, the state does.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    payment = Payment.objects.select_related("entry__tournament").get()
    assert (payment.method, payment.amount) == (Payment.Method.CASH, Decimal("10.00"))
    assert payment.entry.tournament.slug == "spring-open"
    assert TournamentMoney.objects.get().payout == ["100"]
    assert list(SidePotEntry.objects.values_list("pot__name", "entry__player__name")) == [
        ("Side pot", "Ada")
    ]
