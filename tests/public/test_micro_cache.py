"""The venue server keeps each live region a second for every follower (public.micro_cache):
what it keeps, what it never keeps, a 304 from memory, one request refreshing while the
others get the kept region, and the real site behind it."""

from __future__ import annotations

import gzip
import threading
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.wsgi import get_wsgi_application
from django.test import Client
from django.urls import reverse

from public import live as live_module
from public.micro_cache import KEEP_SECONDS, STALE_SECONDS, MicroCache
from tests.scoring.helpers import knock, play
from tournaments.models import Match, Tournament

REGION = "/t/night/?region=standings"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Site:
    """A WSGI application standing in for Django: answers what it is told, counts and
    records what reached it."""

    def __init__(self, headers: list[tuple[str, str]] | None = None, status: str = "200 OK"):
        self.status = status
        self.headers = headers or [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", "7"),
            ("ETag", 'W/"1.en.standings.abc"'),
            ("Vary", "HX-Request, HX-Target, Accept-Language, Cookie"),
            ("Cache-Control", "no-cache"),
            ("Last-Modified", "Sat, 28 Nov 2026 18:00:00 GMT"),
        ]
        self.body = b"region1"
        self.asked: list[dict[str, Any]] = []
        self.closed = 0
        self.hold: threading.Event | None = None
        self.entered = threading.Event()

    def __call__(self, environ, start_response):
        self.asked.append(environ)
        self.entered.set()
        if self.hold is not None:
            self.hold.wait(10)
        start_response(self.status, self.headers)
        site = self

        class Body(list):
            def close(self) -> None:
                site.closed += 1

        return Body([self.body])


def request(url: str = REGION, method: str = "GET", **headers: str) -> dict[str, Any]:
    """A WSGI environ of a phone polling ``url``; ``Name=""`` leaves a header out."""
    path, _, query = url.partition("?")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "HTTP_HOST": "testserver",
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_TARGET": "standings",
        "HTTP_ACCEPT_ENCODING": "gzip, deflate",
    }
    for name, value in headers.items():
        key = f"HTTP_{name.upper()}"
        if value:
            environ[key] = value
        else:
            environ.pop(key, None)
    setup_testing_defaults(environ)
    return environ


def call(app, environ: dict[str, Any]) -> tuple[str, dict[str, str], bytes]:
    answer: dict[str, Any] = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = status, headers
        return lambda data: None

    body = b"".join(app(environ, start_response))
    return answer["status"], dict(answer["headers"]), body


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_region_asked_again_within_the_second_is_answered_from_memory(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    first = call(app, request())
    clock.now += KEEP_SECONDS - 0.01
    again = call(app, request())
    assert len(site.asked) == 1 and site.closed == 1
    assert first[0] == again[0] == "200 OK" and first[2] == again[2] == b"region1"
    assert "Age" not in first[1] and again[1]["Age"] == "0"
    assert {k: v for k, v in again[1].items() if k != "Age"} == first[1]
    clock.now += 0.02  # a second old: the next poll asks the site again
    site.body = b"region2"
    assert call(app, request())[2] == b"region2" and len(site.asked) == 2


def test_a_phone_that_has_the_region_gets_a_304_from_memory(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    etag = call(app, request())[1]["ETag"]
    status, headers, body = call(app, request(If_None_Match=etag))
    assert status == "304 Not Modified" and body == b"" and len(site.asked) == 1
    assert set(headers) == {"ETag", "Vary", "Cache-Control", "Last-Modified", "Age"}
    assert "Content-Length" not in headers and "Content-Type" not in headers
    assert headers["Cache-Control"] == "no-cache" and headers["ETag"] == etag
    # Compared weakly, in a list, as the app compares it.
    assert call(app, request(If_None_Match=f'"x", {etag[2:]}'))[0] == "304 Not Modified"
    assert call(app, request(If_None_Match='W/"0.en.standings.old"'))[0] == "200 OK"


def test_the_site_is_asked_for_a_whole_region_and_the_phone_still_gets_its_304(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    etag = site.headers[2][1]
    status, _headers, body = call(
        app, request(If_None_Match=etag, If_Modified_Since="Sat, 28 Nov 2026 18:00:00 GMT")
    )
    assert status == "304 Not Modified" and body == b""
    [asked] = site.asked
    assert "HTTP_IF_NONE_MATCH" not in asked and "HTTP_IF_MODIFIED_SINCE" not in asked
    assert call(app, request())[2] == b"region1" and len(site.asked) == 1  # and it was kept


@pytest.mark.parametrize(
    "environ",
    [
        pytest.param(request(method="POST"), id="a POST"),
        pytest.param(request(HX_Request=""), id="not htmx"),
        pytest.param(request("/t/night/"), id="a whole page"),
        pytest.param(request("/t/night/?page=2"), id="no region"),
        pytest.param(request(Cookie="sessionid=x; django_language=es"), id="a picked language"),
    ],
)
def test_what_is_not_a_shared_region_always_reaches_the_site(clock, environ):
    site = Site()
    app = MicroCache(site, clock=clock)
    for _ in range(3):
        assert call(app, environ)[2] == b"region1"
    assert len(site.asked) == 3
    assert all(asked is environ for asked in site.asked)  # untouched: conditionals too


@pytest.mark.parametrize(
    ("change", "status"),
    [
        pytest.param({"Cache-Control": "no-cache, private"}, "200 OK", id="private (a draft)"),
        pytest.param({"Cache-Control": "max-age=60"}, "200 OK", id="not no-cache"),
        pytest.param({"Set-Cookie": "csrftoken=abc"}, "200 OK", id="sets a cookie"),
        pytest.param({"ETag": None}, "200 OK", id="no ETag"),
        pytest.param({}, "404 Not Found", id="a 404"),
        pytest.param({}, "500 Internal Server Error", id="a 500"),
    ],
)
def test_an_answer_not_for_everyone_is_never_kept(clock, change, status):
    headers = dict(Site().headers) | change
    site = Site([(k, v) for k, v in headers.items() if v is not None], status=status)
    app = MicroCache(site, clock=clock)
    for _ in range(3):
        assert call(app, request())[0] == status
    assert len(site.asked) == 3


def test_each_encoding_page_and_host_is_kept_apart(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    asks = [
        request(),
        request(Accept_Encoding=""),
        request("/t/night/?region=bracket", HX_Target="bracket"),
        request("/t/other/?region=standings"),
        request(Host="192.168.1.20:8000"),
    ]
    for environ in asks * 2:
        call(app, environ)
    assert len(site.asked) == len(asks)


def test_one_request_refreshes_while_the_others_get_the_kept_region(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    call(app, request())
    clock.now += KEEP_SECONDS + 0.5
    site.body, site.hold = b"region2", threading.Event()
    site.entered.clear()
    refreshing: list[bytes] = []
    thread = threading.Thread(target=lambda: refreshing.append(call(app, request())[2]))
    thread.start()
    assert site.entered.wait(10)
    others = [call(app, request()) for _ in range(5)]  # while the site renders
    assert {o[2] for o in others} == {b"region1"} and {o[1]["Age"] for o in others} == {"1"}
    assert len(site.asked) == 2
    clock.now += STALE_SECONDS  # a refresh that takes too long: no more of the old one
    site.hold.set()
    thread.join(10)
    assert refreshing == [b"region2"]
    assert call(app, request())[2] == b"region2"


def test_a_region_that_is_no_longer_for_everyone_is_forgotten(clock):
    site = Site()
    app = MicroCache(site, clock=clock)
    call(app, request())
    clock.now += KEEP_SECONDS
    site.status = "404 Not Found"  # say, the tournament deleted
    assert call(app, request())[0] == "404 Not Found"
    assert call(app, request())[0] == "404 Not Found" and len(site.asked) == 3


def test_a_kept_region_that_asks_for_an_earlier_poll_asks_as_of_when_it_was_made(clock):
    site = Site()
    site.headers = [*site.headers, ("Poll-Again-After", "4")]
    app = MicroCache(site, clock=clock)
    assert call(app, request())[1]["Poll-Again-After"] == "4"  # as the app said it
    clock.now += 0.3  # in whole seconds, as the app counts: 4 s from 0.3 s ago is 3 s
    assert call(app, request())[1]["Poll-Again-After"] == "3"
    etag = site.headers[2][1]
    again = call(app, request(If_None_Match=etag))
    assert again[0] == "304 Not Modified" and again[1]["Poll-Again-After"] == "3"
    assert len(site.asked) == 1


def test_every_server_runs_the_site_behind_it():
    """The venue server's processes and gunicorn (club's server, its nodes) both serve
    config.wsgi's application."""
    from config.wsgi import application

    assert isinstance(application, MicroCache)
    assert application.language_cookie == "django_language"


# -- the real site behind it -----------------------------------------------------------------


def region_of(t: Tournament, **headers: str) -> dict[str, Any]:
    return request(reverse("public:tournament", args=[t.slug]) + "?region=standings", **headers)


@pytest.mark.django_db(transaction=True)
def test_the_site_behind_it_a_hand_shows_a_second_later_and_a_draft_never_kept(
    clock, running_eight, settings
):
    t = running_eight
    app = MicroCache(get_wsgi_application(), clock=clock)
    first = call(app, region_of(t))
    assert first[0].startswith("200 ") and first[1]["Content-Encoding"] == "gzip"
    plain = call(app, region_of(t, Accept_Encoding=""))
    assert gzip.decompress(first[2]) == plain[2] and "Content-Encoding" not in plain[1]
    play(Match.objects.get(tournament=t, status=Match.Status.IN_PLAY), [knock("B", 2, 30)])
    live_module.forget()
    kept = call(app, region_of(t))
    assert kept[2] == first[2] and kept[1]["Age"] == "0"  # within the second: as it was
    clock.now += KEEP_SECONDS
    after = call(app, region_of(t, If_None_Match=first[1]["ETag"]))
    assert after[0].startswith("200 ") and after[2] != first[2] and "Age" not in after[1]
    assert call(app, region_of(t, If_None_Match=after[1]["ETag"]))[0] == "304 Not Modified"

    # A draft's region is its directors' only: never kept, so never sent to anyone else.
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.DRAFT)
    live_module.forget()
    clock.now += KEEP_SECONDS
    director = Client()
    director.force_login(t.owner)
    session = (
        f"{settings.SESSION_COOKIE_NAME}={director.cookies[settings.SESSION_COOKIE_NAME].value}"
    )
    own = call(app, region_of(t, Cookie=session))
    assert own[0].startswith("200 ") and "private" in own[1]["Cache-Control"]
    assert call(app, region_of(t))[0].startswith("404 ")
