"""Expected refusals are logged once, on one line, without a traceback; a real error
keeps its traceback."""

from __future__ import annotations

import io
import logging
import logging.config

import pytest
from django.urls import reverse

from tests.factories import make_tournament, make_user


@pytest.fixture
def console(settings):
    """What the console handler prints (the one handler LOGGING gives the root)."""
    settings.DEBUG = False
    handlers = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert len(handlers) == 1
    stream = io.StringIO()
    old = handlers[0].setStream(stream)
    yield stream
    handlers[0].setStream(old)


@pytest.mark.django_db
def test_a_403_is_one_line(client, console):
    tournament = make_tournament()
    client.force_login(make_user())
    response = client.get(reverse("tournaments:tournament-setup", args=[tournament.slug]))
    assert response.status_code == 403
    lines = console.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Forbidden"), lines


@pytest.mark.django_db
def test_a_refused_host_is_one_line(client, console):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    lines = console.getvalue().splitlines()
    assert len(lines) == 1 and "evil.example" in lines[0], lines


def test_a_real_error_keeps_its_traceback(console):
    try:
        raise ZeroDivisionError("boom")
    except ZeroDivisionError:
        logging.getLogger("django.request").exception("Internal Server Error: /x/")
    text = console.getvalue()
    assert "Traceback" in text and "ZeroDivisionError" in text


@pytest.fixture
def new_minute():
    """The queue warning is said at most once a minute per process: another test in this
    process may have said it already."""

    def forget() -> None:
        for busy in logging.getLogger("waitress.queue").filters:
            busy.last = None  # type: ignore[attr-defined]

    forget()
    yield
    forget()


def test_waitress_queue_warning_is_one_line_a_director_understands(console, new_minute):
    queue = logging.getLogger("waitress.queue")
    for depth in (1, 3, 2):  # a burst: one record per request that found no free thread
        queue.warning("Task queue depth is %d", depth)
    lines = console.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "Task queue" not in lines[0]
    assert "busy" in lines[0] and "1 request had to wait" in lines[0], lines


def test_the_busy_line_comes_again_after_a_minute_with_the_deepest_queue(console):
    from config.logs import BusyServer

    busy = BusyServer()
    seen = []
    for at, depth in ((0.0, 1), (10.0, 4), (30.0, 2), (61.0, 1)):
        record = logging.LogRecord(
            "waitress.queue", logging.WARNING, "", 0, "Task queue depth is %d", (depth,), None
        )
        record.created = at
        if busy.filter(record):
            seen.append(record.getMessage())
    assert len(seen) == 2
    assert "1 request had to wait" in seen[0]
    assert "up to 4 requests had to wait" in seen[1]


def test_the_queue_warning_counts_right_with_logging_configured_twice(settings, new_minute):
    """The venue server's processes configure logging twice (``django.setup()`` for the
    command, then again in ``config.wsgi``), which gives waitress's logger the filter twice;
    the warning said "up to 0 requests" until the second one let the first decide."""
    logging.config.dictConfig(settings.LOGGING)
    assert len(logging.getLogger("waitress.queue").filters) >= 2
    [handler] = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        logging.getLogger("waitress.queue").warning("Task queue depth is %d", 3)
    finally:
        handler.setStream(old)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and "up to 3 requests had to wait" in lines[0], lines
