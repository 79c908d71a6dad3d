"""The club's server past one machine, in miniature (issue 34): PostgreSQL, Redis, two
gunicorn nodes and HAProxy on loopback (:mod:`tools.load.cluster`).

The cluster phase with 4 tables at the venue and 50 followers of the mirror for 20 s, node1
killed (SIGKILL) 6 s in and started again 4 s later: no follower loses more than one poll
(HAProxy sends a request whose node is gone to the other), HAProxy took the node out and
back, and the mirror ends exactly the venue. And the log-in limiter counts in Redis, so a
pause earned through both nodes holds on each.

Everything runs in processes of its own with scratch databases, on 127.0.0.1 and 127.0.0.2.
Skipped only where PostgreSQL 15, Redis or HAProxy cannot run (`make test-deps` installs
them)."""

from __future__ import annotations

import gzip
import http.client
import http.cookiejar
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tools.load import balancer
from tools.load.cluster import cluster, unavailable

pytestmark = pytest.mark.server  # real servers under load: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def needs_the_set():
    problem = unavailable()
    if problem:
        pytest.skip(problem)


def test_a_node_killed_under_followers_costs_each_at_most_one_poll(tmp_path):
    report_path = tmp_path / "cluster.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.load.cluster",
            "--load",
            "--tables",
            "4",
            "--followers",
            "50",
            "--follow-seconds",
            "20",
            "--poll-interval",
            "2",
            "--hand-interval",
            "1",
            "--kill-after",
            "6",
            "--down-seconds",
            "4",
            "--no-time-bars",
            "--report",
            str(report_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
    )
    assert report_path.exists(), done.stdout + done.stderr
    result = json.loads(report_path.read_text())["run"]
    assert "failed" not in result, result
    assert result["failures"] == [], done.stdout
    # The kill happened, and HAProxy took node1 out and back.
    kill = result["kill"]
    assert kill["killed_at_s"] > 5 and "failed" not in kill, kill
    changes = result["haproxy_node_changes"]
    assert any(c.endswith("node1 DOWN") for c in changes), changes
    assert changes[-1].endswith("node1 UP"), changes
    # Both nodes served the followers, and HAProxy's cache most polls; no follower lost
    # more than one poll.
    served = result["per_node"]
    assert set(served) == {"node1", "node2", "<CACHE>"}, served
    assert served["<CACHE>"]["requests"] > served["node1"]["requests"] + served["node2"]["requests"]
    assert result["follower_losses"]["most_lost_by_one_follower"] <= 1, result
    assert result["followers_answered"] == 50
    # Every hand reached the mirror, which ends exactly the venue.
    assert result["publish_lag"]["missed"] == 0 and result["publish_lag"]["seen"] > 10
    assert result["mirror"]["exact"] and result["standings_equal"], result["mirror"]
    assert result["mirror"]["mirror_hands"] == result["mirror"]["venue_hands"] > 10
    assert result["lost_hands"] == result["duplicated_hands"] == 0
    assert done.returncode == 0, done.stdout


class Browser:
    """One device: its cookies, loopback only, no proxy. Through HAProxy it speaks HTTPS;
    ``as_haproxy`` (to a node itself, plain HTTP) sends what HAProxy adds: the site's
    name and X-Forwarded-Proto (the node's secure-only cookies go there too)."""

    def __init__(self, as_haproxy: str = "") -> None:
        policy = http.cookiejar.DefaultCookiePolicy(secure_protocols=("https", "http"))
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar(policy)),
        )
        self.headers = (
            {"Host": as_haproxy.split("://")[1], "X-Forwarded-Proto": "https"} if as_haproxy else {}
        )
        self.token = ""

    def log_in(self, base: str, username: str, password: str) -> int:
        """POST the log-in form (its page is opened the first time only, so that one
        device's attempts through HAProxy alternate between the nodes); the status."""
        if not self.token:
            page_request = urllib.request.Request(base + "/accounts/login/", headers=self.headers)
            with self.opener.open(page_request, timeout=30) as page:
                found = CSRF.search(page.read().decode())
            assert found, "no CSRF token on the log-in page"
            self.token = found[1]
        data = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.token}
        ).encode()
        site = f"https://{self.headers['Host']}" if self.headers else base
        request = urllib.request.Request(
            base + "/accounts/login/",
            data=data,
            headers={"Referer": site + "/accounts/login/", **self.headers},
        )
        try:
            with self.opener.open(request, timeout=30) as answer:
                # A log-in that worked ends on the dashboard; a wrong password, back on the form.
                return 302 if "/accounts/login/" not in answer.url else answer.status
        except urllib.error.HTTPError as error:
            return error.code


def test_wrong_passwords_through_both_nodes_share_one_limit_in_redis(tmp_path):
    with cluster(tmp_path) as the_set:
        the_set.manage(
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; "
            "get_user_model().objects.create_superuser('clubdir', '', 'club-director-long-pw')",
        )
        device = Browser()
        # Ten wrong passwords through HAProxy: round robin gives each node about half.
        answers = [device.log_in(the_set.base, "clubdir", f"wrong-{n}") for n in range(10)]
        assert answers[:9] == [200] * 9 and answers[9] == 429, answers
        assert the_set.front is not None
        posts = [
            row.node
            for row in balancer.read_log(the_set.front.log)
            if row.method == "POST" and row.path == "/accounts/login/"
        ]
        assert posts.count("node1") >= 4 and posts.count("node2") >= 4, posts
        # Each node alone saw fewer than ten, yet each keeps the pause: the right password
        # is turned away on both, and no attempt was written to the database.
        for node in the_set.nodes:
            device = Browser(as_haproxy=the_set.base)
            assert device.log_in(node.base, "clubdir", "club-director-long-pw") == 429
        count = the_set.manage(
            "shell",
            "-c",
            "from axes.models import AccessAttempt; print(AccessAttempt.objects.count())",
        )
        assert count.strip().splitlines()[-1] == "0"
        # Lifted early for that device and username, it logs in again.
        the_set.manage("axes_reset_ip_username", "127.0.0.1", "clubdir")
        assert Browser().log_in(the_set.base, "clubdir", "club-director-long-pw") == 302


def region_poll(base: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """A live region as htmx polls it, through HAProxy: status, headers, body (as sent)."""
    parts = urllib.parse.urlsplit(base)
    # HTTPS, trusting the set's certificate (SSL_CERT_FILE, set by the cluster)
    connection = http.client.HTTPSConnection(
        parts.hostname, parts.port, timeout=30, context=ssl.create_default_context()
    )
    try:
        connection.request("GET", path, headers={"HX-Request": "true", **headers})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def served_by(front: balancer.Balancer, logged: int, count: int) -> list[str]:
    """Who answered the ``count`` requests sent after HAProxy's log had ``logged`` lines (a
    node's name, or ``<CACHE>``), once its log has them all: HAProxy writes a request's line
    after the answer has gone, so a client can read it before the line is there."""
    deadline = time.monotonic() + 5
    while True:
        rows = balancer.read_log(front.log)[logged:]
        if len(rows) >= count or time.monotonic() > deadline:
            return [row.node for row in rows]
        time.sleep(0.05)


def test_haproxy_keeps_a_live_region_a_second_for_every_follower_but_no_drafts(tmp_path):
    """The cache in front of the nodes (tools.load.balancer, docs/club-server.md): a polled
    region is kept a second and sent as the node sent it, a 304 to a follower who has it;
    never a region in a language the visitor picked, a whole page, or a draft's region
    (the app marks it private), which an anonymous visitor must not be shown."""
    with cluster(tmp_path) as the_set:
        the_set.manage("seed_demo", "--if-empty")
        the_set.manage(
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; "
            "from tournaments.models import Tournament; "
            "Tournament.objects.create(name='Draft night', slug='draft-night', "
            "owner=get_user_model().objects.get(username='director'))",
        )
        front = the_set.front
        assert front is not None
        region = "/t/club-championship-demo/?region=standings"
        logged = len(balancer.read_log(front.log))

        # Kept: the second poll is HAProxy's, as the node answered it, headers and all.
        first = region_poll(the_set.base, region, **{"Accept-Encoding": "gzip"})
        second = region_poll(the_set.base, region, **{"Accept-Encoding": "gzip"})
        assert first[0] == second[0] == 200
        assert second[2] == first[2] and gzip.decompress(first[2]).count(b"<tr") > 4
        for header in ("etag", "last-modified", "vary", "cache-control", "content-encoding"):
            assert second[1][header] == first[1][header], header
        assert first[1]["cache-control"] == "no-cache"
        assert "Cookie" in first[1]["vary"]
        # A follower who has it as it is: a 304 from HAProxy.
        etag = first[1]["etag"]
        gzipped = {"Accept-Encoding": "gzip", "If-None-Match": etag}
        assert region_poll(the_set.base, region, **gzipped)[0] == 304
        # Without gzip: the region unpacked (a copy of its own).
        plain = region_poll(the_set.base, region)
        assert plain[0] == 200 and "content-encoding" not in plain[1]
        assert plain[2] == gzip.decompress(first[2])
        # A language the visitor picked, and the whole page: always a node.
        spanish = region_poll(the_set.base, region, Cookie="django_language=es")
        assert spanish[0] == 200 and b"Puntos" in spanish[2] and b"Points" not in spanish[2]
        assert region_poll(the_set.base, "/t/club-championship-demo/")[0] == 200
        who = served_by(front, logged, 6)
        assert len(who) == 6, who
        assert [name == "<CACHE>" for name in who] == [False, True, True, False, False, False]
        # Kept a second only: after that a node is asked again.
        time.sleep(1.3)
        logged = len(balancer.read_log(front.log))
        assert region_poll(the_set.base, region, **{"Accept-Encoding": "gzip"})[0] == 200
        again = served_by(front, logged, 1)
        assert len(again) == 1 and again[0] != "<CACHE>", again

        # A draft's region goes to its director only, and is kept for nobody.
        director = Browser()
        assert director.log_in(the_set.base, "director", "gin-rummy-demo") == 302
        draft = "/t/draft-night/?region=standings"
        request = urllib.request.Request(the_set.base + draft, headers={"HX-Request": "true"})
        with director.opener.open(request, timeout=30) as answer:
            assert answer.status == 200
            assert "private" in answer.headers["Cache-Control"]
        assert region_poll(the_set.base, draft)[0] == 404


def test_make_cluster_stops_everything_even_on_a_second_ctrl_c():
    """``make cluster`` and Ctrl+C pressed twice (or sent by ``timeout`` and the terminal
    both): the second one used to cut the stopping short and leave both nodes running."""
    serving = subprocess.Popen(
        [sys.executable, "-m", "tools.load.cluster"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    groups: list[int] = []
    try:
        assert serving.stdout is not None
        for line in serving.stdout:
            found = re.search(r"\(gunicorn, process group (\d+)\)", line)
            if found:
                groups.append(int(found[1]))
            if "Ctrl+C stops everything" in line:
                break
        assert len(groups) == 2, groups
        serving.send_signal(signal.SIGINT)
        time.sleep(0.3)
        serving.send_signal(signal.SIGINT)
        serving.wait(timeout=60)
    finally:
        if serving.poll() is None:
            serving.kill()
        left = [group for group in groups if alive(group)]
        for group in left:
            os.killpg(group, signal.SIGKILL)
    assert left == [], f"nodes still running: {left}"


def alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
