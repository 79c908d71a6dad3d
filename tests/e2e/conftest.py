"""Browser tests: Playwright for Python driving Debian's Chromium (``make test`` installs it).

Playwright's sync API runs an event loop in the test thread, so Django's guard against ORM
calls from async code is switched off for these tests only: the test body itself is plain
synchronous code.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT_LIMIT = 30  # seconds: how long a wait for something may last before the test fails

# Counts the page's XMLHttpRequests in flight (htmx sends its requests with them). An
# XMLHttpRequest's "loadend" comes after its "load", whose handler is where htmx swaps the
# answer in: at 0, every answer the page asked for is on the page.
XHR_IN_FLIGHT_JS = """
(() => {
  let inFlight = 0;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    inFlight += 1;
    this.addEventListener("loadend", () => { inFlight -= 1; });
    return send.apply(this, args);
  };
  Object.defineProperty(window, "__xhrInFlight", { get: () => inFlight });
})();
"""


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is not installed: run `make test` (it installs it).")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    # A page's answer waits as long as an action does (15 s, the contexts' default below):
    # the assertions' own 5 s failed a confirmation on a shared machine under load
    # (2 cores, a second suite running), though the page answered.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def desktop(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(15_000)
    context.add_init_script(XHR_IN_FLIGHT_JS)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(15_000)
    context.add_init_script(XHR_IN_FLIGHT_JS)
    page = context.new_page()
    yield page
    context.close()


def answered(page, *, settled: bool = True) -> None:
    """Wait until every request the page's scripts sent has had its answer swapped in (the
    pages of the ``desktop`` and ``phone`` fixtures count them) and, with ``settled``, htmx
    has settled it (its "afterSettle" handlers, such as the live pages' marks, have run:
    htmx takes the class ``htmx-settling`` off in the same step). A page whose clock a test
    has paused settles only when the test runs the clock on: ``settled=False`` there."""
    page.wait_for_function("() => window.__xhrInFlight === 0", timeout=WAIT_LIMIT * 1000)
    if settled:
        page.wait_for_function(
            "() => !document.querySelector('.htmx-settling')", timeout=WAIT_LIMIT * 1000
        )


def wait_until(page, condition: Callable[[], bool], what: str) -> None:
    """Wait for something the test itself records (a request a route saw, an event), up to
    WAIT_LIMIT seconds; the page's own work goes on meanwhile."""
    deadline = time.monotonic() + WAIT_LIMIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_LIMIT} s for {what}")
        page.wait_for_timeout(50)


def screenshot(page, name: str) -> None:
    """Keep a picture of what the test saw (not committed; handy when a test fails)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
