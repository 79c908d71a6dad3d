"""The player's page as their companion (issue 33): the state it carries as ``data-state``
on its main element and its refreshed region, and the sentence said at the top; the state
moves on as the match gets a table, a hand and a result."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.public.test_find import NAMES, entry, field, match_of, page, player_url
from tests.scoring.helpers import gin, play
from tests.standings.test_standings import better_seed, play_match, play_out, quick_match
from tournaments import registration
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def states(html: str) -> tuple[str, str]:
    """The state on the page's main element and on the region, and the sentence said."""
    main = re.search(r'<main class="content" data-state="([^"]+)"', html)
    region = re.search(r'<div id="player-view"[^>]* data-state="([^"]+)"', html)
    said = re.search(r'<p class="pv-now[^"]*" role="status">(.+?)</p>', html)
    assert region is not None and said is not None, html
    if main is not None:
        assert main.group(1) == region.group(1)
    return region.group(1), said.group(1).replace("<bdi>", "").replace("</bdi>", "")


def state_of(client, t: Tournament, seed: int) -> tuple[str, str]:
    html = page(client, player_url(t, entry(t, seed)))
    assert '<main class="content" data-state=' in html
    return states(html)


def test_check_in_until_checked_in_then_waiting_for_the_draw(client):
    t = field(NAMES[:4], draw=False)
    assert state_of(client, t, 1) == ("check-in", "Check in")
    jose = entry(t, 1)
    registration.set_entry_flag(entry=jose, field="checked_in", value=True, user=t.owner)
    state, said = state_of(client, t, 1)
    assert state == "waiting" and said.startswith("Wait:")
    assert state_of(client, t, 2)[0] == "check-in"


def test_no_check_in_once_the_tournament_runs():
    from public.companion import companion
    from public.players import NextUp, PlayerView

    view = PlayerView(1, "José Ruiz", 1, NextUp("not_drawn"))
    running = Tournament.Status.RUNNING
    assert companion(view, running, checked_in=False, field_size=0).state == "waiting"
    registering = Tournament.Status.REGISTRATION
    assert companion(view, registering, checked_in=False, field_size=0).state == "check-in"
    assert companion(view, registering, checked_in=True, field_size=0).state == "waiting"


def test_called_to_a_table_then_playing_then_done(client):
    t = field(NAMES[:4])
    first = match_of(t, 1)
    assert first.table is not None and first.status == Match.Status.READY
    state, said = state_of(client, t, 1)
    assert state == "called"
    assert said == f"You&#x27;re up: table {first.table} against Ørjan Berg"
    play(first, [gin("A")])
    state, said = state_of(client, t, 1)
    assert (state, said) == ("playing", f"Playing at table {first.table} against Ørjan Berg")
    play_match(first, "A", lambda w: quick_match(w)[1:])  # the hand above was the first
    state, said = state_of(client, t, 1)
    assert (state, said) == ("done", "Your match is over: next, Final")
    # The region the page polls says the same.
    html = page(client, player_url(t, entry(t, 1)) + "?region=view", **HTMX)
    assert states(html) == ("done", "Your match is over: next, Final")


def test_waiting_for_a_table_then_called_when_one_frees(client):
    t = field(NAMES[:4], tables=1)
    queued = match_of(t, 2)
    assert queued.table is None
    state, said = state_of(client, t, 2)
    assert (state, said) == ("waiting", "Wait: your next match starts when a table frees")
    play_match(match_of(t, 1), "A", quick_match)  # table 1 frees
    queued.refresh_from_db()
    assert queued.table == 1
    assert state_of(client, t, 2) == ("called", "You&#x27;re up: table 1 against María Núñez")


def test_waiting_for_a_table_says_which_table_and_about_when(client):
    """Once table 1 has a hand, the queued players are told it is theirs next and about
    when (the time tables.json gives the queue)."""
    from django.urls import reverse

    from tests.public.test_projector_estimates import clock
    from tests.public.test_tables_json import paced

    t = field(NAMES[:4], tables=1)
    paced(match_of(t, 1), 3, 4, ago=1)
    (queued,) = client.get(reverse("public:tables-json", kwargs={"slug": t.slug})).json()["queue"]
    at = clock(queued["estimated_start"])
    state, said = state_of(client, t, 2)
    assert state == "waiting"
    assert said == f"Wait: your next match starts when table 1 finishes (about {at})"
    client.cookies["django_language"] = "es"
    with translation.override("es"):
        at = clock(queued["estimated_start"])  # Spanish clocks: 24 hours
    assert f"cuando termine la mesa 1 (hacia las {at})" in state_of(client, t, 2)[1]


def test_waiting_for_an_opponent_before_the_first_match(client):
    t = field(NAMES[:3])  # three players: the top seed waits for the winner of 2 v 3
    state, said = state_of(client, t, 1)
    assert (state, said) == ("waiting", "Wait: your opponent is not known yet")


def test_out_while_it_goes_on_then_finished_with_place_and_field_and_champion(client):
    t = field(NAMES[:4])
    play_match(match_of(t, 1), "A", quick_match)  # seed 4 is out of the semifinal
    assert state_of(client, t, 4) == ("out", "You&#x27;re out: place 3–4 of 4")
    t = play_out(t, winner=better_seed, hands=quick_match)
    assert state_of(client, t, 1) == ("champion", "Champion")
    # Once the tournament is finished, a finisher is told their place, not that they are out.
    assert state_of(client, t, 2) == ("out", "Finished: place 2 of 4")
    assert state_of(client, t, 4) == ("out", "Finished: place 3–4 of 4")


@pytest.mark.parametrize(
    ("language", "finished", "out"),
    [
        ("en", "Finished: place 2 of 4", "You&#x27;re out: place 3–4 of 4"),
        ("es", "Torneo terminado: puesto 2 de 4", "Estás eliminado: puesto 3–4 de 4"),
        ("af", "Klaar: plek 2 van 4", "Jy is uit: plek 3–4 van 4"),
    ],
)
def test_the_runner_up_is_told_their_place_in_every_language(client, language, finished, out):
    t = field(NAMES[:4])
    Tournament.objects.filter(pk=t.pk).update(language=language)
    play_match(match_of(t, 1), "A", quick_match)
    with translation.override(language):
        assert state_of(client, t, 4) == ("out", out)
        t = play_out(t, winner=better_seed, hands=quick_match)
        assert state_of(client, t, 2) == ("out", finished)


def test_the_round_robin_player_with_every_match_played_is_done_until_it_ends(client):
    t = field(NAMES[:3], bracket_kind=Tournament.BracketKind.ROUND_ROBIN, tables=3)
    for match in Match.objects.filter(tournament=t, is_bye=False).order_by("round", "pk"):
        if match.side_a is not None and entry(t, 1).pk in (match.side_a_id, match.side_b_id):
            match.refresh_from_db()
            if match.status == Match.Status.READY:
                play_match(match, better_seed(match), quick_match)
    state, _said = state_of(client, t, 1)
    assert state == "done"
    t = play_out(t, winner=better_seed, hands=quick_match)
    assert state_of(client, t, 1)[0] == "champion"
    assert state_of(client, t, 3)[0] == "out"


# -- being called is noticed (static/js/companion.js) ----------------------------------------


def test_the_call_carries_its_title_and_the_page_its_script_and_sound_switch(client):
    t = field(NAMES[:4])
    html = page(client, player_url(t, entry(t, 1)))
    table = match_of(t, 1).table
    assert f'data-call="▶ Table {table} — You\'re up"' in html
    assert re.search(r'<script src="/static/js/companion\.js" defer></script>', html)
    # The switch is hidden until the script shows it: without JavaScript it does nothing.
    switch = re.search(r'<p class="pv-sound" hidden><label><input type="checkbox" [^>]+>', html)
    assert switch and 'data-src="/static/sounds/called.wav"' in switch.group(0)
    assert "<script>" not in html and "onclick" not in html  # CSP: no inline script
    play(match_of(t, 1), [gin("A")])
    assert "data-call=" not in page(client, player_url(t, entry(t, 1)))


def test_the_sound_is_a_short_wav():
    import wave

    from django.conf import settings

    with wave.open(str(settings.BASE_DIR / "static" / "sounds" / "called.wav")) as sound:
        seconds = sound.getnframes() / sound.getframerate()
        assert sound.getnchannels() == 1 and 0.2 < seconds < 1.0
