"""A player's own page after a Swiss cut into a knockout, on a phone (issue 28): a
qualifier's matches under each stage's heading with each stage's summary and the total,
a non-qualifier's page still there; nothing wider than the screen, nothing axe-core
objects to."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.factories import make_director
from tests.public.staged import play_swiss
from tests.public.test_staged_players import swiss_into_top_four
from tests.tournaments.test_stages import play_open
from tournaments.stages import services as stage_services

from .conftest import screenshot
from .test_accessibility import AXE, IMPACTS

pytestmark = pytest.mark.django_db(transaction=True)


def fits(page: Page) -> None:
    """Nothing wider than the phone, and nothing axe-core counts as a moderate, serious
    or critical violation."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    violations = [
        f"{v['impact']} {v['id']}: {v['nodes'][0]['target'][0]}"
        for v in AXE.run(page).response["violations"]
        if v["impact"] in IMPACTS
    ]
    assert not violations, violations


def test_a_qualifier_and_a_non_qualifier_on_a_phone(phone, live_server):
    director = make_director()
    tournament, swiss, knockout = swiss_into_top_four(director)
    play_swiss(tournament, swiss, director)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    play_open(tournament, knockout)
    qualified = [int(pk) for pk in knockout.entrants]
    champion_side = tournament.entries.get(pk=qualified[0])
    out = tournament.entries.exclude(pk__in=qualified).order_by("seed").first()
    assert out is not None

    phone.goto(f"/t/{tournament.slug}/players/{champion_side.pk}/")
    history = phone.locator(".pv-history")
    expect(history.locator("h4")).to_have_text(["Swiss", "Knockout"])
    expect(history.locator(".pv-stats")).to_have_count(3)  # all stages, the Swiss, the knockout
    expect(history.locator(".pv-stats-title")).to_have_text("All stages")
    fits(phone)
    screenshot(phone, "staged-player-qualifier-phone")

    phone.goto(f"/t/{tournament.slug}/players/{out.pk}/")
    expect(phone.locator("#pv-next-title")).to_have_text("Your tournament is over")
    expect(phone.locator(".pv-history h4")).to_have_text(["Swiss"])
    expect(phone.locator(".pv-history .pv-played")).to_have_count(3)
    fits(phone)
    screenshot(phone, "staged-player-out-phone")
