"""Live public pages: validators, 304s, the shared cache, and nothing stale (public.live)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import http_date

from public import live as live_module
from public.live import POLL_SECONDS
from public.views.tournament import PAGE, page_context, render_page
from standings.data import load
from tests.factories import make_bracket
from tests.scoring.helpers import knock, named, play
from tests.standings.test_standings import playable
from tournaments.models import Match, PublicVersion, Tournament

pytestmark = pytest.mark.django_db

REGION = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "standings"}


def region_url(t: Tournament, region: str = "standings") -> str:
    return reverse("public:tournament", args=[t.slug]) + f"?region={region}"


def poll(client: Client, t: Tournament, etag: str | None = None, region: str = "standings"):
    extra = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(region_url(t, region), **{**REGION, "HTTP_HX_TARGET": region}, **extra)


def queries(action):
    with CaptureQueriesContext(connection) as captured:
        response = action()
    return response, len(captured.captured_queries)


def live_match(t: Tournament) -> Match:
    return Match.objects.get(tournament=t, status=Match.Status.IN_PLAY)


def test_a_poll_that_finds_nothing_new_gets_a_304_after_one_query(client, running_eight):
    first = poll(client, running_eight)
    assert first.status_code == 200
    etag = first["ETag"]
    assert re.fullmatch(r'W/"\d+\.en\.standings\.[0-9a-f]{16}"', etag)
    assert first["Last-Modified"] and "no-cache" in first["Cache-Control"]
    assert "private" not in first["Cache-Control"]  # the same for every visitor
    for header in ("HX-Request", "HX-Target", "Accept-Language", "Cookie"):
        assert header in first["Vary"]
    again, count = queries(lambda: poll(client, running_eight, etag))
    assert again.status_code == 304 and again.content == b"" and count == 1
    since = client.get(
        region_url(running_eight), **REGION, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]
    )
    assert since.status_code == 304


def test_a_cached_region_is_the_page_byte_for_byte_and_costs_one_query(client, running_eight):
    fresh = poll(client, running_eight)
    bare = render_page(None, f"{PAGE}#standings", page_context(load(running_eight)))
    assert fresh.content.decode() == bare
    cached, count = queries(lambda: poll(client, running_eight))
    assert cached.content == fresh.content and count == 1
    page = client.get(reverse("public:tournament", args=[running_eight.slug])).content.decode()
    assert bare in page  # the whole page carries the very same region


def test_a_hand_shows_at_the_next_poll_and_a_correction_too(client, running_eight):
    t = running_eight
    before = poll(client, t)
    match = live_match(t)
    play(match, [knock("B", 2, 30)])
    after = poll(client, t, before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content != before.content
    # A correction: the hand just entered becomes a knock by A; the region follows.
    from scoring.loading import HandData
    from scoring.services import correct_hand

    correct_hand(match=match, **named(match, 5), data=HandData("knock", "A", 1, 60))
    corrected = poll(client, t, after["ETag"])
    assert corrected.status_code == 200 and corrected.content != after.content
    bare = render_page(None, f"{PAGE}#standings", page_context(load(t)))
    assert corrected.content.decode() == bare  # nothing stale: what a fresh render says


def test_while_one_request_renders_the_others_get_the_last_render(client, running_eight):
    t = running_eight
    before = poll(client, t)
    play(live_match(t), [knock("B", 2, 30)])
    lock = live_module.group_key(t.pk, "en", "page") + ":rendering"
    assert cache.add(lock, 1, 30)  # another worker is rendering the new version
    meanwhile = poll(client, t)
    assert meanwhile.content == before.content and meanwhile["ETag"] == before["ETag"]
    # Who already has that one is told so: nothing new for them yet.
    assert poll(client, t, before["ETag"]).status_code == 304
    cache.delete(lock)
    fresh = poll(client, t)
    assert fresh.content != before.content and fresh["ETag"] != before["ETag"]


def test_a_render_lock_left_by_a_dead_server_is_given_up_within_seconds(client, running_eight):
    """A node killed mid-render leaves its lock: the group is shown as last rendered only
    until the lock runs out, a few seconds, not the rest of the evening."""
    assert live_module.RENDER_LOCK_SECONDS <= 5
    t = running_eight
    before = poll(client, t)
    play(live_match(t), [knock("B", 2, 30)])
    lock = live_module.group_key(t.pk, "en", "page") + ":rendering"
    assert cache.add(lock, 1, live_module.RENDER_LOCK_SECONDS)  # and then it died
    assert poll(client, t).content == before.content
    cache.set(lock, 1, 0.5)  # as if most of its time had passed
    deadline = time.monotonic() + 30
    while cache.get(lock) is not None:  # the lock runs out by itself
        assert time.monotonic() < deadline, "the render lock never ran out"
        time.sleep(0.05)
    assert poll(client, t).content != before.content


def test_a_group_is_rendered_at_most_once_a_second(client, running_eight, monkeypatch):
    t = running_eight
    monkeypatch.setattr(live_module, "RERENDER_SECONDS", 1.0)
    clock = [1000.0]
    monkeypatch.setattr(live_module.time, "time", lambda: clock[0])
    before = poll(client, t)
    play(live_match(t), [knock("B", 2, 30)])
    clock[0] += 0.5
    assert poll(client, t).content == before.content  # half a second later: as it was
    clock[0] += 0.6
    assert poll(client, t).content != before.content  # over a second: rendered again


def test_only_the_first_request_of_a_version_renders(client, running_eight, monkeypatch):
    from public.views import tournament as views

    renders = []
    real = views._page_regions
    monkeypatch.setattr(views, "_page_regions", lambda t: renders.append(t.pk) or real(t))
    for _ in range(5):
        poll(client, running_eight, region="standings")
        poll(client, running_eight, region="bracket")
    assert len(renders) == 1  # both regions of the page come from one render
    play(live_match(running_eight), [knock("B", 2, 30)])
    poll(client, running_eight, region="bracket")
    poll(client, running_eight, region="standings")
    assert len(renders) == 2


def test_the_whole_page_is_answered_304_per_visitor(client, running_eight):
    url = reverse("public:tournament", args=[running_eight.slug])
    client.get(url)  # a first visit: the CSRF cookie is set, which the tag includes
    first = client.get(url)
    etag = first["ETag"]
    assert re.fullmatch(r'W/"[\d.]+\.en\.page\.u0\.[0-9a-f]{12}"', etag)
    assert first["Last-Modified"] and "private" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    director = Client()
    director.force_login(running_eight.owner)
    theirs = director.get(url)
    assert theirs["ETag"] != etag
    assert director.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert "Log out" in theirs.content.decode()


def test_a_page_with_a_message_waiting_is_never_a_304(client, running_eight):
    from django.contrib import messages
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.messages.storage.session import SessionStorage
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    from public.views.tournament import tournament_page

    url = reverse("public:tournament", args=[running_eight.slug])
    etag = client.get(url)["ETag"]
    request = RequestFactory().get(url, HTTP_IF_NONE_MATCH=etag)
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)
    request.session = SessionStore()
    request._messages = SessionStorage(request)
    messages.success(request, "Saved.")
    response = tournament_page(request, slug=running_eight.slug)
    assert response.status_code == 200
    assert "ETag" not in response and "Last-Modified" not in response
    assert [str(m) for m in messages.get_messages(request)] == ["Saved."]  # still waiting


def test_json_projector_and_pdfs_have_validators(client, running_eight):
    t = running_eight
    for url, extra in (
        (reverse("public:standings-json", args=[t.slug]), {}),
        (reverse("public:display", args=[t.slug]), {}),
        (reverse("public:display", args=[t.slug]) + "?panel=standings", REGION),
        (reverse("printing:bracket-pdf", args=[t.slug]), {}),
        (reverse("printing:standings-pdf", args=[t.slug]), {}),
    ):
        first = client.get(url, **extra)
        assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
        again, count = queries(
            lambda url=url, e=extra, tag=first["ETag"]: client.get(url, HTTP_IF_NONE_MATCH=tag, **e)
        )
        assert again.status_code == 304 and count == 1
    json_response = client.get(reverse("public:standings-json", args=[t.slug]))
    assert json_response["Content-Type"] == "application/json"
    assert json_response.json()["tournament"]["slug"] == t.slug


def test_the_tag_names_the_language_and_the_version_time(client, running_eight):
    t = running_eight
    t.language = "es"
    t.save(update_fields=["language"])
    spanish = poll(client, t)
    assert (
        ".es.standings" in spanish["ETag"]
        and "Clasificación"
        in client.get(reverse("public:tournament", args=[t.slug])).content.decode()
    )
    english = Client()
    english.cookies["django_language"] = "en"
    assert ".en.standings" in poll(english, t)["ETag"]
    version = PublicVersion.objects.get(tournament=t)
    assert spanish["Last-Modified"] == http_date(int(version.changed_at.timestamp()))


def test_a_region_s_tag_names_its_content_so_an_unchanged_one_is_a_304(client, running_eight):
    """A hand moves the version; the bracket looks the same after it (no game ended), so
    a bracket poll is a 304 while the standings poll brings the new numbers."""
    t = running_eight
    bracket, standings = poll(client, t, region="bracket"), poll(client, t)
    play(live_match(t), [knock("B", 2, 30)])
    assert poll(client, t, bracket["ETag"], region="bracket").status_code == 304
    changed = poll(client, t, standings["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != standings["ETag"]

    # Without If-None-Match, If-Modified-Since decides, by the version the region shows
    # (to the second, as HTTP dates go: here the version is made two seconds younger).
    def asked_since(response):
        return client.get(region_url(t), **REGION, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])

    assert asked_since(changed).status_code == 304
    version = PublicVersion.objects.get(tournament=t)
    later = version.changed_at + timedelta(seconds=2)
    PublicVersion.objects.filter(pk=version.pk).update(number=F("number") + 1, changed_at=later)
    newer = asked_since(changed)
    assert newer.status_code == 200 and newer["Last-Modified"] == http_date(later.timestamp())


def test_the_projector_shows_the_tables_when_players_are_called(client):
    t = make_bracket(players=32, tables=16)
    url = reverse("public:display", args=[t.slug])
    first = client.get(url + "?panel=standings", **REGION).content.decode()
    called = int(re.search(r"called=(\d+)", first).group(1))
    assert called == 16
    titles = re.findall(r"<li[^>]*>([^<]+)</li>", first)
    assert "Tables in play (1 of 2)" in titles and "Tables in play (2 of 2)" in titles
    assert "pj-panel-standings" in first
    # A projector that saw fewer calls jumps to the first page of tables.
    jumped = client.get(url + "?panel=standings&called=10", **REGION).content.decode()
    assert "pj-panel-tables" in jumped and "Table 1<" in jumped and "Table 13<" not in jumped
    second = client.get(url + f"?panel=tables-2&called={called}", **REGION).content.decode()
    assert "Table 13<" in second and "Table 1<" not in second
    match = playable(t)[0]
    play(match, [knock("A", 2, 30)])
    # Playing is not calling: the projector goes on with the panel it asked for.
    same = client.get(url + f"?panel=standings&called={called}", **REGION).content.decode()
    assert "pj-panel-standings" in same


def test_a_browser_that_accepts_gzip_gets_the_region_as_it_was_packed(client, running_eight):
    import gzip

    plain = poll(client, running_eight)
    packed = client.get(
        region_url(running_eight), **REGION, HTTP_ACCEPT_ENCODING="gzip, deflate, br"
    )
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 4 < len(plain.content)
    assert packed["ETag"] == plain["ETag"]  # one weak tag for both encodings
    assert "Content-Encoding" not in plain


def test_a_players_own_page_polls_with_validators_and_follows_the_hands(client, running_eight):
    t = running_eight
    match = live_match(t)
    url = reverse("public:player", args=[t.slug, match.side_b_id]) + "?region=view"
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and first["ETag"].endswith(f'.player.{match.side_b_id}.region"')
    again, count = queries(
        lambda: client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    )
    assert again.status_code == 304 and count == 1
    play(match, [knock("B", 2, 30)])
    after = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after.content != first.content
    found = reverse("public:find", args=[t.slug]) + "?q=" + match.side_b.player.name
    shown, count = queries(lambda: client.get(found))
    assert shown.status_code == 200 and count <= 2  # the tournament; the session's nothing
    assert match.side_b.player.name in shown.content.decode()


def test_a_poll_for_the_current_version_reads_this_process_copy(client, running_eight, monkeypatch):
    poll(client, running_eight)  # rendered, kept in the shared cache and in this process
    from django.core.cache import caches

    reads = []
    shared = caches["default"]
    real_get = shared.get
    monkeypatch.setattr(shared, "get", lambda *a, **k: reads.append(a[0]) or real_get(*a, **k))
    assert poll(client, running_eight).status_code == 200
    assert reads == []  # nothing read from the shared cache
    live_module.forget()  # another worker: its first poll reads the shared cache, renders nothing
    assert poll(client, running_eight).status_code == 200
    assert reads == [live_module.group_key(running_eight.pk, "en", "page")]


def test_while_hands_keep_coming_a_worker_looks_at_the_shared_cache_once_a_second(
    client, running_eight, monkeypatch
):
    from django.core.cache import caches

    monkeypatch.setattr(live_module, "RERENDER_SECONDS", 1.0)
    clock = [1000.0]
    monkeypatch.setattr(live_module.time, "time", lambda: clock[0])
    poll(client, running_eight)
    reads = []
    shared = caches["default"]
    real_get = shared.get
    monkeypatch.setattr(shared, "get", lambda *a, **k: reads.append(a[0]) or real_get(*a, **k))
    match = live_match(running_eight)
    for _step in range(5):  # a hand every 0.15 s: the version moves at each poll
        play(match, [knock("B", 2, 30)])
        clock[0] += 0.15
        poll(client, running_eight)
    assert reads == []  # within the second: this process's copy, as it was
    clock[0] += 0.5
    fresh = poll(client, running_eight)
    # Looked once, then rendered.
    assert reads == [live_module.group_key(running_eight.pk, "en", "page")]
    assert fresh.content != b"" and fresh["ETag"].startswith(f'W/"{running_eight.pk}.')


def test_sheets_are_kept_by_match_version_and_a_correction_rescored(running_eight):
    from django.contrib import admin

    from scoring.loading import HandData
    from scoring.models import Hand
    from scoring.services import correct_hand
    from standings.data import forget_sheets

    t = running_eight
    first = load(t)
    again, count = queries(lambda: load(t))
    assert count == 1 and again.sheets == first.sheets  # nothing changed: no hands read
    match = live_match(t)
    correct_hand(match=match, **named(match, 4), data=HandData("knock", "A", 1, 60))
    corrected = load(t)
    forget_sheets()
    assert corrected.sheets == load(t).sheets  # the same as scored from scratch
    assert corrected.sheets[match.pk] != first.sheets[match.pk]
    # A data fix in the admin moves the match's version too.
    hand = Hand.objects.get(match=match, number=4)
    hand.defender_deadwood = 90
    request = RequestFactory().post("/admin/")
    request.user = t.owner
    admin.site._registry[Hand].save_model(request, hand, None, True)
    fixed = load(t)
    forget_sheets()
    assert fixed.sheets == load(t).sheets and fixed.sheets != corrected.sheets


def test_pieces_kept_from_earlier_renders_never_show_an_old_value(running_eight, monkeypatch):
    """Match boxes and standings rows are kept by what they show (public.fragments): after
    hands, a correction, a confirmation and a rename, the regions rendered with this
    process's pieces are byte for byte a render from nothing, in either language."""
    from collections import OrderedDict

    from django.utils import translation

    from players.registry import update_player
    from public import fragments
    from scoring.loading import HandData
    from scoring.services import correct_hand

    t = running_eight

    def regions() -> dict[str, str]:
        context = page_context(load(t))
        return {
            part: render_page(None, f"{PAGE}#{part}", context) for part in ("bracket", "standings")
        }

    def from_nothing() -> dict[str, str]:  # with no pieces, leaving the kept ones be
        with monkeypatch.context() as nothing_kept:
            nothing_kept.setattr(fragments, "_kept", OrderedDict())
            return regions()

    match = live_match(t)
    seen = []
    for step in range(4):
        for language in ("en", "es"):
            with translation.override(language):
                warm = regions()
                seen.append(warm)
                assert warm == from_nothing()
        if step == 0:
            play(match, [knock("B", 2, 30)])
        elif step == 1:
            correct_hand(match=match, **named(match, 5), data=HandData("knock", "A", 1, 60))
        elif step == 2:
            player = match.side_a.player
            update_player(player=player, data={"name": "Renamed Player"}, user=t.owner)
    assert len({page["standings"] for page in seen}) == 8  # every step and language differs
    assert "Renamed Player" in seen[-1]["bracket"] and "Renamed Player" in seen[-1]["standings"]


def test_a_region_answered_as_last_rendered_asks_for_an_earlier_poll(
    client, running_eight, monkeypatch
):
    """Served the last render while a hand waits for the next one, a follower polls again
    sooner than the interval by the render's age, so the hand shows within one interval:
    the page's regions and a player's own view, as 200s and as 304s."""
    t = running_eight
    monkeypatch.setattr(live_module, "RERENDER_SECONDS", 1.0)
    clock = [1000.0]
    monkeypatch.setattr(live_module.time, "time", lambda: clock[0])
    header = live_module.POLL_AGAIN_HEADER
    first = poll(client, t)
    assert first.status_code == 200 and header not in first  # the current version
    entry_id = t.entries.order_by("pk").first().pk
    view_url = reverse("public:player", args=[t.slug, entry_id]) + "?region=view"
    view = client.get(view_url, HTTP_HX_REQUEST="true")
    assert view.status_code == 200 and header not in view
    play(live_match(t), [knock("B", 2, 30)])
    clock[0] += 0.7  # the hand is in, the renders are 0.7 s old and not due again yet
    stale = poll(client, t)
    sooner = str(POLL_SECONDS - 1)  # the interval less the render's age, in whole seconds
    assert stale.content == first.content and stale[header] == sooner
    assert poll(client, t, first["ETag"]).status_code == 304
    assert poll(client, t, first["ETag"])[header] == sooner
    stale_view = client.get(view_url, HTTP_HX_REQUEST="true")
    assert stale_view.content == view.content and stale_view[header] == sooner
    again = client.get(view_url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=view["ETag"])
    assert again.status_code == 304 and again[header] == sooner
    clock[0] += 0.5  # due: rendered again, with the hand
    fresh = poll(client, t)
    assert fresh.content != first.content and header not in fresh
    clock[0] += POLL_SECONDS  # a render as old as a whole interval: at least a second
    play(live_match(t), [knock("B", 2, 30)])
    monkeypatch.setattr(live_module, "RERENDER_SECONDS", 60.0)
    assert poll(client, t)[header] == "1"


def test_polls_within_half_a_second_reuse_the_row_a_page_reads_it_again(
    client, running_eight, monkeypatch
):
    """A poll takes the tournament's row and version as this process read it less than
    ROW_SECONDS ago (no query at all when the region is kept too); a page loaded whole
    reads it again, and so shows a hand at once; the next poll after the window has it."""
    t = running_eight
    monkeypatch.setattr(live_module, "ROW_SECONDS", 0.5)
    clock = [5000.0]
    monkeypatch.setattr(live_module.time, "monotonic", lambda: clock[0])
    first, count = queries(lambda: poll(client, t))
    assert first.status_code == 200 and count >= 1
    again, count = queries(lambda: poll(client, t, first["ETag"]))
    assert again.status_code == 304 and count == 0  # nothing read: the row, the region kept
    play(live_match(t), [knock("B", 2, 30)])
    clock[0] += 0.2
    assert poll(client, t, first["ETag"]).status_code == 304  # within the window: as read
    page, count = queries(lambda: client.get(reverse("public:tournament", args=[t.slug])))
    assert count >= 1 and page.status_code == 200
    assert render_page(None, f"{PAGE}#standings", page_context(load(t))) in page.content.decode()
    clock[0] += 0.4  # past the window: the poll reads the new version
    fresh = poll(client, t, first["ETag"])
    assert fresh.status_code == 200 and fresh.content != first.content


def test_a_new_build_renders_the_pages_again(client, running_eight, monkeypatch, settings):
    """The shared cache outlives a restart: after an upgrade the same version of the
    tournament is rendered again by the new build, not shown as the old build drew it."""
    from public.views import tournament as views

    renders = []
    real = views._page_regions
    monkeypatch.setattr(views, "_page_regions", lambda t: renders.append(t.pk) or real(t))
    poll(client, running_eight, region="standings")
    live_module.forget()  # the server restarted: only the shared cache is left
    poll(client, running_eight, region="standings")
    assert len(renders) == 1
    settings.GINCLUB_VERSION = "99.0.0"
    live_module.forget()
    poll(client, running_eight, region="standings")
    assert len(renders) == 2


def test_a_region_may_be_kept_by_a_shared_cache_but_a_drafts_only_by_its_director(
    client, running_eight
):
    """A polled region is the same for every follower: no ``private``, so the club's load
    balancer may keep it a second (docs/club-server.md). A draft's regions are for its
    directors alone: ``private``, which that cache never keeps."""
    public = poll(client, running_eight)
    assert public.status_code == 200
    directives = {d.strip() for d in public["Cache-Control"].split(",")}
    assert directives == {"no-cache"}, public["Cache-Control"]
    Tournament.objects.filter(pk=running_eight.pk).update(status=Tournament.Status.DRAFT)
    live_module.forget()
    assert poll(client, running_eight).status_code == 404
    client.force_login(running_eight.owner)
    draft = poll(client, running_eight)
    assert draft.status_code == 200
    assert "private" in draft["Cache-Control"], draft["Cache-Control"]
    again = poll(client, running_eight, draft["ETag"])
    assert again.status_code == 304 and "private" in again["Cache-Control"]


def test_without_a_picked_language_a_region_is_the_same_whatever_the_browser_asks(running_eight):
    """What lets the club's load balancer keep a region for every follower who has not
    picked a language (docs/club-server.md): the tournament's own language decides it, not
    the browser's ``Accept-Language``, which HAProxy's cache cannot tell apart."""
    t = running_eight
    t.language = "es"
    t.save(update_fields=["language"])
    answers = [
        poll(Client(HTTP_ACCEPT_LANGUAGE=asked), t) for asked in ("en", "af,en;q=0.8", "es", "")
    ]
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1 and len({a["ETag"] for a in answers}) == 1
    assert ".es.standings" in answers[0]["ETag"]
    picked = Client(HTTP_ACCEPT_LANGUAGE="es")
    picked.cookies["django_language"] = "af"
    own = poll(picked, t)
    assert ".af.standings" in own["ETag"] and own.content != answers[0].content
