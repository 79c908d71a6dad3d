"""The venue settings, the laptop's addresses and the start-up banner.

Settings are read once per process, so the settings tests run a fresh Python each
(as tests/test_deploy.py does)."""

from __future__ import annotations

import io
import os
import socket
from types import SimpleNamespace

import pytest

from config import network
from tests import test_deploy as deploy

NAMES = [
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SITE_URL",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECRET_KEY",
    "CACHES",
    "AXES_HANDLER",
]


def settings_under(**environment: str) -> dict[str, object]:
    return deploy.settings_under(NAMES, **environment)


def test_venue_settings_serve_plain_http_to_the_laptops_addresses(tmp_path):
    venue = {
        "GINCLUB_VENUE": "1",
        "GINCLUB_PORT": "8123",
        "GINCLUB_ADDRESS": "127.0.0.2",
        "GINCLUB_DATA_DIR": str(tmp_path),
    }
    first = settings_under(**venue)
    assert first["DEBUG"] is False
    assert first["SITE_URL"] == "http://127.0.0.2:8123"  # where the QR codes point
    assert {"127.0.0.2", "127.0.0.1", "localhost"} <= set(first["ALLOWED_HOSTS"])
    assert "http://127.0.0.2:8123" in first["CSRF_TRUSTED_ORIGINS"]
    # No certificates on a venue LAN: nothing that needs HTTPS, or phones are locked out.
    assert first["SECURE_SSL_REDIRECT"] is False
    assert first["SESSION_COOKIE_SECURE"] is False and first["CSRF_COOKIE_SECURE"] is False
    assert first["SECURE_HSTS_SECONDS"] == 0
    # A key made on first start, kept in the data folder, the same on the next start.
    assert first["SECRET_KEY"] == (tmp_path / "secret_key.txt").read_text().strip()
    assert len(first["SECRET_KEY"]) >= 50
    assert settings_under(**venue)["SECRET_KEY"] == first["SECRET_KEY"]
    cache = first["CACHES"]["default"]
    assert cache["BACKEND"].endswith("FileBasedCache")
    assert cache["LOCATION"] == str(tmp_path / "cache")  # one cache for every process


def test_a_site_url_overrides_the_detected_address(tmp_path):
    settings = settings_under(
        GINCLUB_VENUE="1",
        GINCLUB_ADDRESS="127.0.0.2",
        GINCLUB_DATA_DIR=str(tmp_path),
        SITE_URL="https://gin.example.org",
    )
    assert settings["SITE_URL"] == "https://gin.example.org"


def test_redis_is_the_shared_cache_when_redis_url_is_set(tmp_path):
    settings = settings_under(GINCLUB_DATA_DIR=str(tmp_path), REDIS_URL="redis://127.0.0.1:6379/0")
    cache = settings["CACHES"]["default"]
    assert cache == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/0",
    }
    # The log-in limiter counts in it too: shared by every node, no row per wrong password.
    assert settings["AXES_HANDLER"] == "axes.handlers.cache.AxesCacheHandler"


def test_without_redis_the_log_in_limiter_counts_in_the_database(tmp_path):
    settings = settings_under(GINCLUB_DATA_DIR=str(tmp_path))
    assert settings["AXES_HANDLER"] == "axes.handlers.database.AxesDatabaseHandler"


def adapter(name: str, *ips: object) -> SimpleNamespace:
    return SimpleNamespace(name=name, nice_name=name, ips=[SimpleNamespace(ip=ip) for ip in ips])


def test_addresses_a_phone_can_reach_come_first(monkeypatch):
    import ifaddr

    monkeypatch.delenv("GINCLUB_ADDRESS", raising=False)
    monkeypatch.setattr(
        ifaddr,
        "get_adapters",
        lambda: [
            adapter("lo", "127.0.0.1", ("::1", 0, 0)),
            adapter("docker0", "172.17.0.1"),
            adapter("eth0", "10.1.2.3", "169.254.7.7"),
            adapter("wlan0", "192.168.1.23", ("fe80::1", 0, 2)),
        ],
    )
    assert network.lan_addresses() == ["192.168.1.23", "10.1.2.3", "172.17.0.1"]
    monkeypatch.setenv("GINCLUB_ADDRESS", "127.0.0.2, 127.0.0.3")
    assert network.lan_addresses() == ["127.0.0.2", "127.0.0.3"]


def test_with_no_network_the_banner_says_phones_cannot_connect(settings):
    from config.venue import banner

    settings.VENUE_ADDRESSES = []
    settings.SITE_URL = ""
    out = io.StringIO()
    banner(port=8000, password="abcd-efgh-jkmn", out=out)
    text = out.getvalue()
    assert "phones cannot connect until it joins the venue Wi-Fi" in text
    assert "http://127.0.0.1:8000/" in text
    assert "password abcd-efgh-jkmn" in text


def test_the_banner_shows_the_phone_address_and_its_qr_code(settings):
    from config.venue import banner

    settings.VENUE_ADDRESSES = ["192.168.1.23", "10.1.2.3"]
    settings.SITE_URL = ""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # a terminal that takes UTF-8
    banner(port=8123, password=None, out=out)
    text = out.buffer.getvalue().decode()
    assert "http://192.168.1.23:8123/" in text and "http://10.1.2.3:8123/" in text
    assert "██" in text  # the QR code, drawn in blocks
    assert "password" not in text  # not a first start


def test_a_busy_port_gets_a_clear_message(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = deploy.run(
            ["-m", "config.cli", "venue", "--port", str(port), "--data", str(tmp_path)],
            GINCLUB_ADDRESS="127.0.0.2",
        )
    assert done.returncode == 1
    assert f"cannot listen on port {port}" in done.stderr
    assert "--port 8123" in done.stderr


@pytest.mark.parametrize("argv", [[], ["--port", "8123"]])
def test_ginclub_alone_means_the_venue_server(argv, monkeypatch):
    from config import cli

    started = []
    monkeypatch.setattr(
        cli, "_venue", lambda port, demo, processes: started.append((port, demo)) or 0
    )
    monkeypatch.setattr("django.setup", lambda: None)
    monkeypatch.setattr(cli, "_speak_the_director_language", lambda: None)
    environment = {k: v for k, v in os.environ.items() if k != "PORT"}
    monkeypatch.setattr(os, "environ", environment)  # the CLI sets the venue variables
    assert cli.main(argv) == 0
    assert started == [(8123 if argv else 8000, True)]
    assert os.environ["GINCLUB_VENUE"] == "1"


def test_an_evenings_burst_finds_a_free_thread_without_a_queue_warning():
    """The busiest moment of a club evening: a round is paired and :data:`EVENING_BURST`
    requests arrive at once (several phones opening their pages, each browser fetching
    over its six connections). waitress, with the venue's options, gives each a thread:
    it logs no "Task queue depth"."""
    import logging
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    import waitress.server

    from config import venue

    def slow_app(environ, start_response):
        time.sleep(0.3)  # every request of the burst is in the server at the same time
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    warnings: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            warnings.append(record.getMessage())

    queue_log = logging.getLogger("waitress.queue")
    catch = Catch()
    queue_log.addHandler(catch)
    options = {**venue.server_options(), "host": "127.0.0.1", "port": 0}
    server = waitress.server.create_server(slow_app, **options)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = server.effective_port

    def ask(_number: int) -> bytes:
        with socket.create_connection(("127.0.0.1", port), 10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        return answer

    try:
        with ThreadPoolExecutor(venue.EVENING_BURST) as pool:
            answers = list(pool.map(ask, range(venue.EVENING_BURST)))
    finally:
        queue_log.removeHandler(catch)
        server.close()
        server.task_dispatcher.shutdown()
    assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers)
    assert warnings == []
