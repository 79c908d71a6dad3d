"""A double tap on every POST view: two identical POSTs at the same moment (issue 29).

The permission matrix's world and its table of URLs (:mod:`tests.test_permissions_matrix`)
say which views take a POST, who may send one and what it sends. For each of them, as the
visitor most able to write there, the same POST (the same form: one submission id,
``web.submissions``) is sent by two threads released by one barrier, each with
its own connection and client. Neither may answer 500, both answer alike, and the database
must change exactly as one such POST changes it: each table's row count after the double
tap differs from before by what a single POST (sent first, in a transaction rolled back)
changes it by. Then two tabs send it at once, each its own submission id: neither may
answer 500 either. The table link's forms (the players' phones, no account) carry the
submission id as well, so they are held to the same (issue 32).

The world is not rebuilt between views: each meets it as the ones before left it, and a
view that can no longer write there (its entry removed meanwhile) must still answer
cleanly. CI runs this file on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client

from tables.models import PhoneEvent, PhoneTally
from tests.concurrency import at_once
from tests.test_permissions_matrix import (
    FINGERPRINTED,
    PATTERNS,
    Pattern,
    World,
    build_path,
    build_world,
    expected,
    kwargs_for,
    post_data,
    writer,
)
from web.submissions import FIELD, new_id

pytestmark = pytest.mark.django_db(transaction=True)


def post_views() -> list[Pattern]:
    """Every pattern outside the admin that takes a POST (its POST row is not all 405)."""
    found = []
    for pattern in PATTERNS:
        rows = expected(pattern)
        if pattern.group == "admin" or rows is None:
            continue
        if set(rows[1]) != {"405"}:
            found.append(pattern)
    return found


def counts() -> Counter[str]:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(f"SELECT %s, count(*) FROM {quote(t)}" for t in FINGERPRINTED),
            FINGERPRINTED,
        )
        return Counter(dict(cursor.fetchall()))


def client_for(world: World, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if role in world.sessions:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    return client


def send(world: World, role: str, path: str, data: dict[str, Any]) -> Any:
    files = {name: value for name, value in data.items() if hasattr(value, "read")}
    for upload in files.values():
        upload.seek(0)
    return client_for(world, role).post(path, data)


def single_change(world: World, role: str, path: str, data: dict[str, Any]) -> Counter[str]:
    """What one POST changes, each table's row count, in a transaction then rolled back."""
    cache.clear()
    with transaction.atomic():
        before = counts()
        response = send(world, role, path, {**data, FIELD: new_id()})
        after = counts()
        transaction.set_rollback(True)
    assert response.status_code != 500, f"{path}: a single POST answered 500"
    return difference(before, after)


def difference(before: Counter[str], after: Counter[str]) -> Counter[str]:
    return Counter({t: after[t] - before[t] for t in FINGERPRINTED if after[t] != before[t]})


def double_tap(
    world: World, role: str, path: str, data: dict[str, Any], *, two_tabs: bool = False
) -> list[Any]:
    """The same POST twice at once: two threads, one barrier. ``two_tabs``: each its own
    submission id (two tabs sending the same thing), else the one ``data`` carries."""
    cache.clear()

    def tab(_index: int) -> tuple[Any, dict[str, Any]]:
        return client_for(world, role), ({**data, FIELD: new_id()} if two_tabs else data)

    return at_once(tab, lambda ready: ready[0].post(path, ready[1]))


PHONE_EVENTS = PhoneEvent._meta.db_table
PHONE_TALLIES = PhoneTally._meta.db_table


def resends_counted(once: Counter[str], twice: Counter[str]) -> int | None:
    """The device board's resent rows the double tap added beyond a single POST's (issue
    32: a table link's second tap is answered as a resend, and the board counts it): at
    most one, of kind "resent"; None if anything else was added. (Its tally of resends,
    issue 41, is made with the match's first: :func:`resend_tallied`.)"""
    extra = twice[PHONE_EVENTS] - once[PHONE_EVENTS]
    if extra == 0:
        return 0
    added = PhoneEvent.objects.order_by("-pk").values_list("kind", flat=True)[:extra]
    return extra if extra == 1 and list(added) == [PhoneEvent.Kind.RESENT] else None


def resend_tallied(once: Counter[str], twice: Counter[str]) -> int | None:
    """The tally row the double tap added beyond a single POST's: none, or the match's
    first count of resends; None if anything else was added."""
    extra = twice[PHONE_TALLIES] - once[PHONE_TALLIES]
    if extra == 0:
        return 0
    added = PhoneTally.objects.order_by("-pk").values_list("kind", "count")[:extra]
    return extra if extra == 1 and list(added) == [(PhoneEvent.Kind.RESENT, 1)] else None


def fresh_session(world: World, role: str) -> World:
    client = Client()
    client.force_login(world.users[role])
    sessions = {**world.sessions, role: client.cookies[settings.SESSION_COOKIE_NAME].value}
    return replace(world, sessions=sessions)


@pytest.fixture
def quiet(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security.csrf")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_a_double_tap_on_every_post_view_writes_once(quiet):
    world = build_world()
    views = post_views()
    wrong: list[str] = []
    wrote = 0
    logged_in = world
    for pattern in views:
        world = logged_in
        role = writer(pattern)
        if pattern.key == "logout":  # a session of its own, not the one the others use
            world = fresh_session(world, role)
        path = build_path(pattern, kwargs_for(pattern, world, role))
        data = post_data(pattern, world, role)
        once = single_change(world, role, path, data)
        before = counts()
        first, second = double_tap(world, role, path, {**data, FIELD: new_id()})
        twice = difference(before, counts())
        resends, tallied = resends_counted(once, twice), resend_tallied(once, twice)
        if resends is None or tallied is None:
            wrong.append(f"{pattern.key}: the double tap wrote phone events besides a resend")
        else:
            twice[PHONE_EVENTS] -= resends
            twice[PHONE_TALLIES] -= tallied
            twice = Counter({table: n for table, n in twice.items() if n})
        for response in (first, second):
            if response.status_code >= 500:
                wrong.append(f"{pattern.key}: answered {response.status_code}")
        answers = {(r.status_code, r.get("Location")) for r in (first, second)}
        # The table link's forms too (issue 32): the second tap answers as the first did.
        if len(answers) > 1:
            wrong.append(
                f"{pattern.key}: the two taps answered differently: {first.status_code}"
                f" {first.get('Location')} and {second.status_code} {second.get('Location')}"
            )
        if twice != once:
            wrong.append(f"{pattern.key}: one POST changes {dict(once)}, two changed {dict(twice)}")
        wrote += bool(once)
        # Two tabs: two submissions of the same thing at once. Whether both may write is
        # each form's to say (tests/test_form_races.py); neither may answer 500.
        for response in double_tap(world, role, path, data, two_tabs=True):
            if response.status_code >= 500:
                wrong.append(f"{pattern.key} from two tabs: answered {response.status_code}")
    print(
        f"\n{connection.vendor}: {len(views)} POST views, {len(views)} double taps and"
        f" {len(views)} two-tab races, {wrote} wrote"
    )
    assert not wrong, "\n".join(wrong)
    assert len(views) > 50 and wrote > 30, f"{len(views)} views, {wrote} wrote"
