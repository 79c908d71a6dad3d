"""The simulator's checks can fail: a small event played through the pages is clean, and
each kind of fault put behind the pages' back is reported on the surfaces it reaches."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from django.db.models import F

from public.views import display as public_views
from standings import data as public_data
from tournaments.models import Match

from .driver import Event, Hands, names
from .invariants import check
from .problems import Problem

pytestmark = pytest.mark.django_db


def four(client, name: str) -> tuple[Event, Hands]:
    """A round robin of four at two tables, drawn, nothing played."""
    rng = random.Random(name)
    hands = Hands(rng)
    event = Event(client, rng)
    event.create(name, tables=2, bracket_kind="round_robin")
    for player in names(rng, 4):
        event.register(player)
    event.generate()
    return event, hands


def played(client) -> Event:
    """A round robin of four, every match played from the phones."""
    event, hands = four(client, "Checked night")
    while ready := event.ready():
        for match in ready:
            event.play(match, hands)
    return event


def surfaces(problems) -> set[str]:
    return {problem.surface for problem in problems}


def test_a_player_left_out_of_the_standings_is_missed_everywhere(
    director_client, tmp_path, monkeypatch
):
    event = played(director_client)
    compute = public_data.compute

    def without_the_last(*args, **kwargs):
        found = compute(*args, **kwargs)
        return replace(found, rows=found.rows[:-1])

    monkeypatch.setattr(public_data, "compute", without_the_last)
    problems = check(event, tmp_path)
    left_out = {p.who for p in problems if p.what == "missing"}
    assert len(left_out) == 1, problems
    # Every surface that lists the standings misses them (Find me and the player's page
    # go by the entries and their matches, so they still find them).
    assert {"public page", "standings.json", "standings.csv", "standings PDF"} <= (
        surfaces(problems)
    ), problems
    assert Problem("projector", next(iter(left_out)), "on 0 pages, not 1") in problems, problems


def test_a_projector_page_left_out_is_missed(director_client, tmp_path, monkeypatch):
    """The projector's standings as they were before issue 41 (the first 16 rows, "and N
    more"): here, pages of two rows with only the first shown to the projector."""
    from public import standings_pages

    event = played(director_client)
    paged = standings_pages.standings_pages
    monkeypatch.setattr(standings_pages, "ROWS_PER_PAGE", 2)
    monkeypatch.setattr(public_views, "standings_pages", lambda rows: paged(rows)[:1])
    problems = [p for p in check(event, tmp_path) if p.surface == "projector"]
    assert problems and all(p.what == "on 0 pages, not 1" for p in problems), problems


def test_a_clean_event_then_a_stored_total_that_its_hands_do_not_give(director_client, tmp_path):
    event = played(director_client)
    assert check(event, tmp_path) == []
    match = Match.objects.filter(tournament__slug=event.slug).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(total_a=F("total_a") + 7)
    problems = check(event, tmp_path)
    assert any(
        p.surface == "verify_tournament" and p.what.startswith(f"{match.key}  total_a")
        for p in problems
    ), problems


def test_a_player_page_that_says_wait_at_a_table_and_a_match_off_tables_json_are_reported(
    director_client, tmp_path, monkeypatch
):
    """Halfway through the round robin: a page that tells a called player to wait, and a
    queued match missing from tables.json, are both reported."""
    import public.views.find
    from public.companion import Companion
    from standings import tables

    rng = random.Random("companions")
    event = Event(director_client, rng)
    event.create("Called night", tables=1, bracket_kind="round_robin")
    for name in names(rng, 4):
        event.register(name)
    event.generate()
    assert check(event, tmp_path) == []
    monkeypatch.setattr(
        public.views.find, "companion", lambda *a, **k: Companion("waiting", "Wait")
    )
    real_queue = tables._queue
    monkeypatch.setattr(tables, "_queue", lambda *a: real_queue(*a)[1:])
    from django.core.cache import cache

    from public.live import forget

    forget()  # rendered again, with the faults
    cache.clear()
    problems = [p for p in check(event, tmp_path) if p.surface in ("companion", "tables.json")]
    assert any(p.surface == "companion" and p.what == "waiting, not called" for p in problems)
    assert any(p.what == "waiting, not in the queue" for p in problems), problems


def test_a_mirror_that_misses_a_change_is_reported(director_client, tmp_path, monkeypatch):
    """Issue 34: the club's mirror is brought up to date after every round by the part the
    venue sends; a club that drops the hands of that part is caught, and so is a venue
    that sends its whole archive where a part was due."""
    from archive import refresh
    from publishing import sending

    event, hands = four(director_client, "Mirrored night")
    assert check(event, tmp_path) == []
    first, second, *_others = event.ready()
    event.play(first, hands)
    with monkeypatch.context() as patched:
        patched.setattr(refresh, "_hands", wrong_hand(refresh._hands))
        problems = check(event, tmp_path)
    assert [p.surface for p in problems] == ["mirror"] and "'hands'" in problems[0].what
    event.play(second, hands)
    monkeypatch.setattr(sending.Publisher, "_changes", whole_archive(sending.Publisher._changes))
    problems = check(event, tmp_path)
    assert [p.surface for p in problems] == ["publishing"], problems


def wrong_hand(write):
    def instead(plan, *args):
        plan.hands[-1][0].entered_via = "not what the venue said"
        return write(plan, *args)

    return instead


def whole_archive(changes):
    def instead(tournament, publication, marks):
        publication.sent = None
        return changes(tournament, publication, marks)

    return staticmethod(instead)


def test_an_answer_kept_with_a_secret_in_it_is_reported(director_client, tmp_path, monkeypatch):
    """Issue 43: a new account's set-password link recorded for a resend, as it was before
    the recording kept a page saying it is not kept in its place, is caught."""
    from accounts.views import roles
    from web.submissions import FIELD, new_id

    event = played(director_client)
    assert check(event, tmp_path) == []
    monkeypatch.setattr(roles.role_create, "submission_secret", False)
    member = {"new-name": "Sam Keeper", "new-email": "sam@example.com", "new-role": "scorekeeper"}
    path = f"/t/{event.tournament.slug}/manage/roles/new/"
    assert director_client.post(path, {**member, FIELD: new_id()}).status_code == 200
    problems = check(event, tmp_path)
    assert [p.surface for p in problems] == ["recorded answers"], problems
