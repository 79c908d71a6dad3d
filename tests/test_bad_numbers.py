"""Bad numbers in every field of every POST view never answer 500 (issue 29).

For each view the permission matrix POSTs to, each field it sends that carries a number or
an id is sent again with each of the values below, by the visitor most able to write
there, each request in a transaction rolled back afterwards: not a number, a signalling
NaN, infinity, an exponent past any decimal column, a number past every database's integer
range and one just past PostgreSQL's. The answer may refuse (the form again with its
error, or a message); it may never be a 500
(``decimal.InvalidOperation``, ``OverflowError`` on SQLite, ``DataError`` on PostgreSQL).
CI runs this file on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.test import Client

from tests.test_permissions_matrix import (
    PATTERNS,
    POST_DATA,
    build_path,
    build_world,
    expected,
    kwargs_for,
    post_data,
    writer,
)

BAD = ["NaN", "sNaN", "-Infinity", "50,NaN", "1E+400", "9" * 30, "-" + "9" * 30, "2147483648"]
# Number fields the matrix's POSTs leave out.
EXTRA = {"club:season-create": {"tournaments": "1"}, "club:season-edit": {"tournaments": "1"}}
NUMBER = re.compile(r"^[\d., %-]+$")


def numeric(value: object) -> bool:
    """A field that carries a number or an id (the others are names, choices, passwords)."""
    values = value if isinstance(value, list) else [value]
    return all(isinstance(v, int) or NUMBER.match(str(v)) for v in values)


@pytest.fixture
def quiet(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def test_bad_numbers_in_every_field_never_answer_500(db, quiet):
    world = build_world()
    wrong = []
    sent = 0
    for pattern in PATTERNS:
        rows = expected(pattern)
        if pattern.group == "admin" or rows is None or pattern.key not in POST_DATA:
            continue
        if pattern.key in ("login", "set_language", "admin:login"):
            continue
        role = writer(pattern)
        client = Client(raise_request_exception=False)
        if role in world.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
        path = build_path(pattern, kwargs_for(pattern, world, role))
        data = {**post_data(pattern, world, role), **EXTRA.get(pattern.key, {})}
        for field in [name for name, value in data.items() if numeric(value)]:
            for value in BAD:
                cache.clear()
                with transaction.atomic():
                    response = client.post(path, {**data, field: value})
                    transaction.set_rollback(True)
                sent += 1
                if response.status_code >= 500:
                    error = getattr(response, "exc_info", None)
                    cause = repr(error[1]) if error else ""
                    wrong.append(f"{pattern.key} {field}={value!r}: {response.status_code} {cause}")
    print(f"\n{sent} POSTs with a bad number")
    assert not wrong, "\n".join(wrong)
