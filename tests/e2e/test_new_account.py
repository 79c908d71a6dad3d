"""A director adds a new scorekeeper from the Roles page in the browser; the link shown
and its QR code (decoded for real with zbarimg) are the same; the scorekeeper opens it,
chooses a password and is logged in."""

from __future__ import annotations

import os
import subprocess

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.factories import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_qr_code_is_the_link_and_the_link_sets_the_password(
    browser, desktop, live_server, tmp_path
):
    tournament = make_tournament()
    client = Client()
    client.force_login(tournament.owner)
    desktop.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    desktop.goto(f"/t/{tournament.slug}/manage/roles/")
    desktop.fill("#id_new-name", "Lu Wei")
    desktop.fill("#id_new-email", "lu.wei@example.com")
    desktop.select_option("#id_new-role", "scorekeeper")
    desktop.get_by_role("button", name="Make the account").click()
    box = desktop.locator(".set-password-link")
    expect(box).to_contain_text("Set-password link for lu.wei")
    link = box.locator("a.link-text").get_attribute("href")
    assert link and link.startswith(live_server.url + "/accounts/set-password/")
    if os.environ.get("SCREENSHOTS_DIR"):  # make screenshots: the link as the director sees it
        desktop.screenshot(path=f"{os.environ['SCREENSHOTS_DIR']}/roles-new-link-desktop-en.png")
    shot = tmp_path / "qr.png"
    box.locator(".qr").screenshot(path=str(shot))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(shot)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert decoded == link

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    page.goto(link)
    page.fill("#id_new_password1", "correct-horse-battery-9")
    page.fill("#id_new_password2", "correct-horse-battery-9")
    page.get_by_role("button", name="Save the password and log in").click()
    expect(page).to_have_url(live_server.url + "/director/")
    expect(page.locator(".site-header")).to_contain_text("Log out")
    page.goto(link)
    expect(page.locator("h1")).to_have_text("This link does not work any more")
    phone.close()
