"""The projector turns the pages of its standings (issue 41): with 20 players, page 1, then
page 2 (places 17 to 20), then the next panel, by ``static/js/projector.js`` in the
panel's own cycle."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from public.views import display as display_views
from tests.factories import make_bracket
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_projector_shows_page_two_in_its_cycle(desktop, live_server, monkeypatch):
    monkeypatch.setattr(display_views, "DISPLAY_SECONDS", 2)  # a quick cycle to watch
    t = make_bracket(players=20, status=Tournament.Status.RUNNING)
    page = desktop
    page.goto(f"/t/{t.slug}/display/?panel=standings")
    stage = page.locator("#display-panel")
    expect(stage.locator(".pj-panel-standings")).to_be_visible()
    expect(stage.locator('[data-page="1"]')).to_be_visible()
    expect(stage.locator('[data-page="2"]')).to_be_hidden()
    # The next tick turns the page instead of fetching the next panel.
    expect(stage.locator('[data-page="2"]')).to_be_visible()
    expect(stage.locator('[data-page="1"]')).to_be_hidden()
    expect(stage.locator('[data-page="2"] tbody tr')).to_have_count(4)
    expect(stage.locator('[data-page="2"]')).to_contain_text("Page 2 of 2")
    # After the last page, the next panel.
    expect(stage.locator(".pj-panel-standings")).to_have_count(0)
