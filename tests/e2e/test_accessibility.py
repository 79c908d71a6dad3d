"""Every screen (tests/e2e/screens.py), on a desktop (1280 wide) and a phone (390×844), in
every language of the site: nothing scrolls sideways on the phone; the header's controls,
and every control of the players' table page, are at least 44 px in both directions; and
axe-core finds no critical, serious or moderate violation.

axe runs in the site's first language in the suite, and in every language with
``SCREENSHOTS_DIR`` set (``make screenshots``): its rules read the page's structure, its
names and its colours, which come from the same templates in every language (a missing
translation shows the English words, never an empty name), and it costs half the walk.
What a translation does change is the length of the words, and the checks of size and
width, which run in every language, are the ones that see it.

One browser; each screen is visited once per viewport and language, by one test per
viewport and language (so the two test workers share them out). With ``SCREENSHOTS_DIR``
set (``make screenshots``) each visit also writes a full-page PNG there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from .screens import Screen, demo_screens

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
IMPACTS = ("critical", "serious", "moderate")
MIN_TARGET = 44
AXE = Axe()

# Sizes of what a person taps: links, buttons, form controls and the labels of the big
# choice buttons. A control inside running text (a link in a sentence) is exempt, as
# WCAG 2.5.8 exempts it; a hidden one (display: none, zero size) is not a target.
TARGETS_JS = """
([scope, min]) => {
  const root = scope ? document.querySelector(scope) : document.body;
  if (!root) return [];
  const found = [];
  const inline = (el) => {
    const parent = el.parentElement;
    if (!parent || el.tagName !== 'A') return false;
    const style = getComputedStyle(parent);
    return ['P', 'LI', 'TD', 'DD', 'SPAN', 'SMALL', 'STRONG'].includes(parent.tagName)
      && parent.textContent.trim().length > el.textContent.trim().length + 2
      && style.display !== 'flex' && style.display !== 'grid';
  };
  for (const el of root.querySelectorAll(
      'a[href], button, select, input:not([type=hidden]), textarea, label.choice, summary')) {
    if (el.closest('label.choice') && el.tagName === 'INPUT') continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (inline(el)) continue;
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      const text = (el.textContent || el.name || '').trim().slice(0, 30);
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      found.push(`${el.tagName.toLowerCase()} "${text}" ${size}`);
    }
  }
  return found;
}
"""


SETTLED_JS = """
() => document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
  .every((a) => a.playState === 'finished')
"""
# The projector is read from the back of a room: no visible text under this at 1280 wide.
PROJECTOR_MIN_PX = 14
SMALLEST_TEXT_JS = """
() => {
  let smallest = 1000;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (el.closest('.visually-hidden')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
  }
  return smallest;
}
"""


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _accounts():
    User = get_user_model()
    director = User.objects.get(username="director")
    rival, created = User.objects.get_or_create(username="rival-director")
    if created:
        rival.user_permissions.add(
            Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
        )
    return {"director": director, "other-director": rival}


def axe_runs_in(language: str) -> bool:
    return language == LANGUAGES[0] or bool(os.environ.get("SCREENSHOTS_DIR"))


def check(page, screen: Screen, viewport: str, language: str) -> list[str]:
    problems: list[str] = []
    where = f"{screen.name} ({viewport}, {language})"
    response = page.goto(screen.path)
    # Fades that run once (the projector's panels) are over before colours are measured.
    page.wait_for_function(SETTLED_JS)
    if response is None or response.status != screen.status:
        status = response.status if response else None
        problems.append(f"{where}: status {status}, not {screen.status}")
    if axe_runs_in(language):
        problems += axe_violations(page, where)
    if viewport == "phone":
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            problems.append(f"{where}: {width} px wide, scrolls sideways")
    small = page.evaluate(TARGETS_JS, [".site-header", MIN_TARGET])
    if screen.table_page:
        small += page.evaluate(TARGETS_JS, ["main", MIN_TARGET])
    problems += [f"{where}: target under {MIN_TARGET} px: {s}" for s in small]
    if screen.name == "projector" and viewport == "desktop":
        smallest = page.evaluate(SMALLEST_TEXT_JS)
        if smallest < PROJECTOR_MIN_PX:
            problems.append(f"{where}: text as small as {smallest} px, under {PROJECTOR_MIN_PX}")
    shots = os.environ.get("SCREENSHOTS_DIR")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{screen.name}-{viewport}-{language}.png", full_page=True)
    return problems


def axe_violations(page, where: str) -> list[str]:
    found = []
    for violation in AXE.run(page).response["violations"]:
        if violation["impact"] in IMPACTS:
            nodes = "; ".join(n["target"][0] for n in violation["nodes"][:3])
            found.append(f"{where}: axe {violation['impact']} {violation['id']}: {nodes}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_screen(browser, live_server, viewport, language):
    screens = demo_screens()
    accounts = _accounts()
    pages = {}
    contexts = []
    for who in {s.who for s in screens}:
        context = browser.new_context(base_url=live_server.url, **VIEWPORTS[viewport])
        context.set_default_timeout(15_000)
        cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
        if who in accounts:
            cookies.append(
                {"name": "sessionid", "value": _session(accounts[who]), "url": live_server.url}
            )
        context.add_cookies(cookies)
        contexts.append(context)
        pages[who] = context.new_page()
    problems: list[str] = []
    try:
        for screen in screens:
            problems += check(pages[screen.who], screen, viewport, language)
    finally:
        for context in contexts:
            context.close()
    assert not problems, "\n".join(problems)
