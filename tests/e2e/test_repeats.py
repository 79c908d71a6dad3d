"""A new tournament sent again from a second render, in Chromium (issue 41): the form asks
"You made 'Spring Open' 40 s ago: make another?" without JavaScript's help, makes nothing,
and its button makes the second. Back and submit again makes nothing more either."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot
from tests.factories import make_director
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": ("make another?", "Yes, make another", "Create tournament"),
    "es": ("¿crear otra vez?", "Sí, crear otra vez", "Crear torneo"),
}


def _signed_in(page, live_server, language: str) -> None:
    client = Client()
    client.force_login(make_director(username=f"dora-{language}"))
    page.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )


def _send_the_form(page, create: str) -> None:
    page.goto("/director/tournaments/new/")
    page.fill("#id_name", "Spring Open")
    page.get_by_role("button", name=create).click()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_second_render_asks_then_makes_another(request, live_server, device, language):
    page = request.getfixturevalue(device)
    question, confirm, create = WORDS[language]
    _signed_in(page, live_server, language)
    _send_the_form(page, create)
    expect(page).to_have_url(re.compile(r"/entries/$"))
    assert Tournament.objects.filter(name="Spring Open").count() == 1
    # Back, and the form sent again: the first's answer again, or the question.
    page.go_back()
    page.get_by_role("button", name=create).click()
    page.wait_for_load_state()
    assert Tournament.objects.filter(name="Spring Open").count() == 1
    # A second tab's render: asked, nothing made.
    _send_the_form(page, create)
    box = page.locator(".repeat-question")
    expect(box).to_contain_text(question)
    expect(box).to_contain_text("“Spring Open”")
    screenshot(page, f"repeat-question-{device}-{language}")
    assert Tournament.objects.filter(name="Spring Open").count() == 1
    box.get_by_role("button", name=confirm).click()
    expect(page.locator(".repeat-question")).to_have_count(0)
    assert Tournament.objects.filter(name="Spring Open").count() == 2
