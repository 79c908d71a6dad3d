"""A tournament night through the real venue server (``ginclub venue``), as the room meets it.

The server runs as a subprocess on a free port with its own data folder; the laptop's LAN
address is stood in by 127.0.0.2 (loopback: nothing here reaches another address). The
director logs in over HTTP and downloads the round pack; its pages become PNGs
(``pdftoppm``) and the QR codes are decoded for real (``zbarimg``); a phone opens a
decoded address in Chromium at 390×844 and enters a hand.
"""

from __future__ import annotations

import http.cookiejar
import re
import sqlite3
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tools.load.servers import free_port, start_venue, stop

from .conftest import screenshot
from .helpers import enter_hand

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

LAN = "127.0.0.2"
DEMO = "club-championship-demo"


class Director:
    """A browser-less HTTP client with its own cookies, on loopback only."""

    def __init__(self, base: str, host: str | None = None) -> None:
        self.base, self.host = base, host
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )

    def get(self, path: str, **headers: str) -> tuple[int, bytes, str]:
        return self._open(urllib.request.Request(self.base + path, headers=headers))

    def post(self, path: str, data: dict[str, str]) -> tuple[int, bytes, str]:
        body = urllib.parse.urlencode(data).encode()
        return self._open(urllib.request.Request(self.base + path, data=body))

    def _open(self, request: urllib.request.Request) -> tuple[int, bytes, str]:
        if self.host:
            request.add_unredirected_header("Host", self.host)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read(), error.url

    def log_in(self, password: str) -> None:
        status, page, _ = self.get("/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert status == 200 and token, page[:300]
        fields = {"username": "director", "password": password}
        status, page, url = self.post(
            "/accounts/login/", {**fields, "csrfmiddlewaretoken": token.group(1).decode()}
        )
        assert status == 200 and "/accounts/login/" not in url, page[:500]


def first_start_password(log: Path) -> str:
    found = re.search(r"username director, password (\S+)", log.read_text())
    assert found, log.read_text()
    return found.group(1)


def hands_of(database: Path, token: str) -> int:
    connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    try:
        (count,) = connection.execute(
            "SELECT count(*) FROM scoring_hand JOIN tournaments_match AS m "
            "ON m.id = scoring_hand.match_id WHERE m.token = ?",
            (token,),
        ).fetchone()
    finally:
        connection.close()
    return count


def decode_qr_codes(pdf: Path) -> list[str]:
    """Every QR code printed in ``pdf``, read back from its pages' pixels."""
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", "110", "-png", str(pdf), str(prefix)], check=True)
    found = []
    for page in sorted(pdf.parent.glob(f"{prefix.name}*.png")):
        done = subprocess.run(
            ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(page)],
            capture_output=True,
            text=True,
            check=False,
        )
        found += done.stdout.split()
    return found


@pytest.fixture
def venue_server(tmp_path):
    """Start it as ``make run`` would, on a fresh data folder; stop it after the test."""
    running = []

    def start(port: int = 0) -> tuple[subprocess.Popen, str, Path]:
        log = tmp_path / f"venue-{len(running)}.log"
        process, base = start_venue(
            {"PATH": "/usr/bin:/bin"}, data=tmp_path / "data", log=log, address=LAN,
            port=port, demo=True,
        )  # fmt: skip
        running.append(process)
        return process, base, log

    yield start
    for process in running:
        stop(process)


def test_a_phone_scans_the_printed_qr_code_and_enters_a_hand(venue_server, browser, tmp_path):
    _, base, log = venue_server()
    port = urllib.parse.urlsplit(base).port
    assert f"http://{LAN}:{port}/" in log.read_text()  # the phone address it prints
    director = Director(base, host=f"{LAN}:{port}")  # as if through the LAN address
    director.log_in(first_start_password(log))

    status, pdf, _ = director.get(f"/t/{DEMO}/rounds/1/scoresheets.pdf")
    assert status == 200 and pdf.startswith(b"%PDF"), pdf[:200]
    (tmp_path / "pack.pdf").write_bytes(pdf)
    links = decode_qr_codes(tmp_path / "pack.pdf")
    # A code on every sheet whose match is not over yet (three in the demo's first round).
    assert len(links) == 3, links
    assert all(link.startswith(f"http://{LAN}:{port}/table/") for link in links), links
    assert all(Director(link).get("")[0] == 200 for link in links)
    link = links[0]
    token = link.rstrip("/").rsplit("/", 1)[1]
    database = tmp_path / "data" / "db.sqlite3"
    before = hands_of(database, token)

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    phone.goto(link)
    expect(phone.get_by_role("heading", name=f"Enter hand {before + 1}")).to_be_visible()
    enter_hand(phone, kind="Dead hand (draw)")
    expect(phone.get_by_role("heading", name=f"Enter hand {before + 2}")).to_be_visible()
    screenshot(phone, "venue-phone-after-a-hand")
    context.close()
    assert hands_of(database, token) == before + 1

    # DEBUG is off: an unknown address gets the site's own 404 page, no debug details.
    status, page, _ = director.get("/no-such-page/")
    text = page.decode()
    assert status == 404
    assert "/static/css/site" in text and "Traceback" not in text and "URLconf" not in text
    # Names and addresses that are not the laptop's own are refused.
    assert Director(base, host=f"gin.example.org:{port}").get("/")[0] == 400


def test_a_restart_keeps_the_data_the_key_and_the_directors_session(venue_server, tmp_path):
    port = free_port()
    first, base, first_log = venue_server(port)
    director = Director(base)
    director.log_in(first_start_password(first_log))
    key = (tmp_path / "data" / "secret_key.txt").read_text()
    assert director.get("/director/")[0] == 200

    stop(first)
    _, _, second_log = venue_server(port)
    assert "password" not in second_log.read_text()  # not a first start: no new account
    assert (tmp_path / "data" / "secret_key.txt").read_text() == key
    status, _, url = director.get("/director/")
    assert status == 200 and "/accounts/login/" not in url
    assert director.get(f"/t/{DEMO}/")[0] == 200
