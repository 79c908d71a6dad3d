"""Fixtures shared by every test package. Prefer the ``make_*`` helpers in
``tests/factories.py``; fixtures here are only for things every test wants the same way."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english(settings):
    """Tests assert on English messages whatever the machine's locale."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Real password hashing costs ~0.3 s per user; tests do not need it to be slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _own_cache(settings, tmp_path):
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


@pytest.fixture(autouse=True)
def _render_every_version(monkeypatch):
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
