"""Static files as the venue server and gunicorn serve them (DEBUG off): hashed names,
cached for a year and immutable, gzip-compressed for the venue Wi-Fi."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.fixture
def production_static(settings, tmp_path):
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", verbosity=0, interactive=False)
    return Client()  # a new client: the middleware indexes STATIC_ROOT as it starts


@pytest.mark.django_db
def test_htmx_is_served_hashed_compressed_and_cached_long(production_static):
    page = production_static.get("/").content.decode()
    src = re.search(r'<script src="(/static/django_htmx/htmx[^"]*\.js)"', page)
    assert src, "the page names htmx under its hashed name"
    assert re.search(r"\.[0-9a-f]{12}\.js$", src.group(1))
    response = production_static.get(src.group(1), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert int(response["Content-Length"]) < 25_000  # 51 KB uncompressed
    cache = response["Cache-Control"]
    assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache).group(1)) >= 31536000
    assert "Accept-Encoding" in response["Vary"]


@pytest.mark.django_db
def test_the_icon_is_served_too(production_static):
    page = production_static.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert icon.startswith("/static/favicon.") and icon.endswith(".svg")
    assert production_static.get(icon).status_code == 200
