"""Two deliveries of a tournament's first change at the same moment (a venue that sent
again before its first answer came): one mirror, and both are told it is there, where
the second was refused on the slug. Two threads, each with its own connection; CI runs
this file on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from publishing.models import Mirror
from publishing.tokens import make_token
from tests.concurrency import at_once
from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import seated
from tests.publishing.test_receiving import change, send
from tests.scoring.helpers import knock, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("attempt", range(3))
def test_two_first_deliveries_at_once_make_one_mirror(attempt):
    t = make_bracket(players=4, tables=2, slug=f"friday-{attempt}")
    play(seated(t)[0], [knock("A", 5, 30)])
    secret = make_token(user=make_director(username=f"clubdora{attempt}"))[1]
    body = change(t, slug=f"friday-club-{attempt}")
    answers = at_once(lambda _index: None, lambda _ready: send(body, secret))
    assert [a.status_code for a in answers] == [200, 200], [a.json() for a in answers]
    assert [a.json()["applied_through"] for a in answers] == [body["through"]] * 2
    assert Mirror.objects.filter(tournament__slug=f"friday-club-{attempt}").count() == 1
