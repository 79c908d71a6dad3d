"""Two venues publishing the same new slug at the same moment (issue 43): one makes the
mirror, the other is told the slug is taken (409 ``slug-taken``, with the rename offered),
never the database's duplicate-key message. Two threads, each with its own connection
and transaction; CI runs this file on SQLite and on PostgreSQL, where the two inserts
truly race (SQLite runs one writer at a time)."""

from __future__ import annotations

import pytest

from publishing.models import Mirror
from publishing.tokens import make_token
from tests.concurrency import at_once
from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import seated
from tests.publishing.test_receiving import change, send
from tests.scoring.helpers import knock, play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("attempt", range(3))
def test_two_venues_publishing_one_new_slug_at_once_one_is_told_it_is_taken(attempt):
    slug = f"friday-club-{attempt}"
    bodies, secrets = [], []
    for venue in "ab":
        t = make_bracket(players=4, tables=2, slug=f"friday-{venue}-{attempt}")
        play(seated(t)[0], [knock("A", 5, 30)])
        bodies.append(change(t, slug=slug))
        secrets.append(make_token(user=make_director(username=f"dora-{venue}{attempt}"))[1])
    answers = at_once(lambda index: index, lambda index: send(bodies[index], secrets[index]))
    assert sorted(a.status_code for a in answers) == [200, 409], [a.content for a in answers]
    lost = next(a for a in answers if a.status_code == 409)
    assert lost.json()["code"] == "slug-taken"
    assert "publish it under another name" in lost.json()["error"]
    assert Mirror.objects.filter(tournament__slug=slug).count() == 1
    assert Tournament.objects.filter(slug=slug).count() == 1
