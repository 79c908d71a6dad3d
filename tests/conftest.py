"""Fixtures shared by every test package, and the suite's tiers. Prefer the ``make_*``
helpers in ``tests/factories.py``; fixtures here are only for things every test wants the
same way.

The tiers (``make check``, ``make test``; docs/code.md): each test is marked by what it
needs, here at collection, so no test file has to say it:

* ``database``: it uses the database (``django_db``, ``db``, a live server…). The site's
  fixtures below (English, fast passwords, a cache of its own, every version rendered) are
  set up for these and for tests that use Django's settings or test client; a pure test
  (the engine's, pairing's) pays for none of them.
* ``browser`` (tests/e2e/conftest.py): it drives Chromium.
* ``simulator``: it plays whole events (tests/events) or walks the whole site (the
  permission matrix, the double-tap walk, every bad number in every field, the bench's
  report).
* ``server`` (marked in its file): it starts real servers (gunicorn, the venue server,
  HAProxy, PostgreSQL, Redis, a proxy), so it runs one at a time, with the machine to
  itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}
SITE_FIXTURES = DATABASE_FIXTURES | {"settings", "client", "async_client", "rf", "admin_client"}
# Whole evenings and whole-site walks: the second tier of make test, with the browser's.
SIMULATOR = {
    TESTS / "events" / "test_events.py",
    TESTS / "events" / "test_invariants.py",  # each invariant catching a planted fault
    TESTS / "publishing" / "test_mirror_pages.py",  # every page of a mirror, two users
    TESTS / "test_permissions_matrix.py",
    TESTS / "test_double_taps.py",
    TESTS / "test_bad_numbers.py",  # every number field of every form, each bad value
    TESTS / "bench" / "test_bench_smoke.py",  # the bench's whole report, once
}


def uses_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(DATABASE_FIXTURES & fixtures)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if uses_database(item):
            item.add_marker(pytest.mark.database)
        if Path(str(item.fspath)) in SIMULATOR:
            item.add_marker(pytest.mark.simulator)


def uses_the_site(request: pytest.FixtureRequest) -> bool:
    node = request.node
    return node.get_closest_marker("database") is not None or bool(
        SITE_FIXTURES & set(request.fixturenames)
    )


@pytest.fixture(autouse=True)
def _site(request):
    """What every test of the site wants the same way; nothing for a pure test."""
    if not uses_the_site(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    # Tests assert on English messages whatever the machine's locale.
    settings.LANGUAGE_CODE = "en"
    # Real password hashing costs ~0.3 s per user; tests do not need it to be slow.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    own_cache(settings, request.getfixturevalue("tmp_path"))
    render_every_version(request.getfixturevalue("monkeypatch"))
    yield


def own_cache(settings, tmp_path: Path) -> None:
    """Each test gets the shared file cache the site uses, in a folder of its own, so no
    count (the table-link guess limiter's, say) leaks between tests or test runs."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    # As on any site after its first page: it knows its mirrored tournaments (none) and
    # that it does not publish. A test that clears the cache pays the one query of
    # looking again for each (publishing).
    from django.core.cache import cache

    from publishing.mirrors import MIRRORED
    from publishing.status import PUBLISHES

    cache.set(MIRRORED, {})
    cache.set(PUBLISHES, False)


def render_every_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Public pages show each write at once: the once-a-second limit on renders (for a
    full room, public.live) has tests of its own that set it back."""
    monkeypatch.setattr("public.live.RERENDER_SECONDS", 0)
    monkeypatch.setattr("public.live.ROW_SECONDS", 0)  # each poll reads the version
    from public.live import forget

    forget()  # this process's copies of the last test's pages


@pytest.fixture
def director(db):
    from tests.factories import make_director

    return make_director()


@pytest.fixture
def director_client(client, director):
    """``client`` logged in as a new director: ``client.director`` (also ``client.user``)."""
    client.force_login(director)
    client.director = client.user = director
    return client
