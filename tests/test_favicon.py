"""Every page names its icon, a file the site serves itself: browsers then do not ask
for /favicon.ico, which answered a 404 page on every first visit over the venue Wi-Fi."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static

pytestmark = pytest.mark.django_db


def test_pages_name_an_icon_the_site_serves(client):
    from tests.factories import make_bracket

    tournament = make_bracket(players=4)
    icon_link = f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">'
    for url in ("/", f"/t/{tournament.slug}/", f"/t/{tournament.slug}/display/"):
        assert icon_link in client.get(url).content.decode(), url
    found = finders.find("favicon.svg")
    assert found is not None
    with open(found, encoding="utf-8") as icon:
        assert icon.read().startswith("<svg ")
