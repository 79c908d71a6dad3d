"""The Content-Security-Policy in a real browser: the pages people use carry the header,
and neither loading them nor working them with htmx makes Chromium report a violation
(it reports each one as a ``securitypolicyviolation`` event and a console error).
(tests/test_csp.py checks the header's value without a browser.)
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from config.csp import HEADER, policy_header
from scoring.models import Hand
from tests.factories import make_director, make_entries, make_match, make_tournament
from tests.scoring.helpers import knock, play
from tournaments.draw import generate_bracket

from .helpers import enter_hand
from .test_full_tournament import log_in

pytestmark = pytest.mark.django_db(transaction=True)

# Runs before any of the page's own scripts (Playwright injects it; the policy does not
# apply to it) and keeps every violation the page reports.
WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"}` +
    ` at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


class Watched:
    """A page whose CSP violations (events and console errors) are collected."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def open(self, path: str) -> None:
        response = self.page.goto(path)
        assert response is not None and response.ok, path
        assert response.header_value(HEADER) == policy_header(settings.SECURE_CSP), path
        self.assert_clean(path)

    def assert_clean(self, where: str) -> None:
        events = self.page.evaluate("window.cspViolations")
        assert events == [] and self.console == [], f"{where}: {events + self.console}"
        # htmx and the site's own script ran, and htmx injected no inline <style>.
        assert self.page.evaluate("typeof htmx") == "object", where
        assert self.page.evaluate("document.querySelectorAll('style, [style]').length") == 0


@pytest.fixture
def watched(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(15_000)
    context.add_init_script(WATCH)
    yield Watched(context.new_page())
    context.close()


def test_pages_and_htmx_pass_the_policy(watched):
    director = make_director(username="csp-director")
    tournament = make_tournament(owner=director, preset="modern", status="running")
    match = make_match(tournament=tournament, a=None, b=None, table=1)
    match.side_a, match.side_b = make_entries(tournament=tournament, count=2)
    match.status = match.Status.READY
    match.save()
    play(match, [knock("A", 2, 30)])
    page = watched.page

    # A table link: open it and enter a hand through htmx, as the players do.
    watched.open(f"/table/{match.token}/")
    enter_hand(page, kind="Knock", by=match.side_name("B"), deadwood=4, defender=25)
    expect(page.locator("#match-sheet")).to_contain_text("+21")  # the sheet reloaded
    watched.assert_clean("table link, after entering a hand")

    watched.open(f"/t/{tournament.slug}/")
    watched.open(f"/t/{tournament.slug}/display/")
    assert page.evaluate("document.documentElement.classList.contains('htmx-on')") is False

    # The director logs in and enters a hand on the match page, again through htmx.
    watched.open("/accounts/login/")
    log_in(page, "csp-director")
    watched.assert_clean("after logging in")
    watched.open(f"/t/{tournament.slug}/matches/{match.pk}/")
    assert page.evaluate("document.documentElement.classList.contains('htmx-on')")
    enter_hand(page, kind="Gin", by=match.side_name("A"), defender=10)
    watched.assert_clean("match page, after entering a hand")
    assert Hand.objects.filter(match=match).count() == 3


def test_find_me_as_you_type_passes_the_policy(watched):
    """The players' search refreshes its results as you type (htmx, the query put in the
    address) and a player's own page loads, with no violation."""
    tournament = make_tournament(preset="modern", status="running")
    make_entries(tournament=tournament, count=2)
    generate_bracket(tournament=tournament, user=tournament.owner)
    name = tournament.entries.order_by("seed").first().player.name
    page = watched.page
    watched.open(f"/t/{tournament.slug}/find/")
    page.locator("#find-q").press_sequentially(name[:4].lower(), delay=50)
    expect(page.locator(".find-hit")).to_have_count(2)
    page.locator("#find-q").press_sequentially(name[4:].lower(), delay=50)
    expect(page.locator("#pv-name")).to_contain_text(name)
    query = r"(\+|%20)".join(re.escape(word) for word in name.lower().split())
    expect(page).to_have_url(re.compile(rf"\?q={query}$"))
    assert page.evaluate("document.activeElement.id") == "find-q"
    watched.assert_clean("find page, after typing")
    page.locator(".pv-own a").click()
    expect(page.locator("h1#pv-name")).to_contain_text(name)
    watched.assert_clean("a player's page")
