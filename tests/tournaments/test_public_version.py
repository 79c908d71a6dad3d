"""Every kind of write that changes what the public sees adds to the public version.

The public pages are cached and answered with 304 by that version (public.live): a write
that changed a page without counting would leave every follower on a stale page. Each
scenario below makes one write through the services (as the views do) and compares what
an anonymous visitor gets, rendered afresh with an empty cache, before and after: the
page, ``standings.json`` and the projector. Whenever that changed, the version must have
moved (and it must move for these writes at all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.core.cache import cache
from django.db import transaction
from django.test import Client, RequestFactory
from django.urls import reverse

from players import registry
from public.live import forget
from scoring import services as scoring
from scoring.models import Hand
from tables import table_links
from tests.factories import (
    make_bracket,
    make_entries,
    make_player,
    make_registrar,
    make_tournament,
)
from tests.scoring.helpers import gin, knock, named, play
from tests.standings.test_standings import playable, quick_match
from tournaments import draw, organising, registration, services
from tournaments.models import Entry, Match, PublicVersion, Tournament
from tournaments.public_version import changed, changing

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def version(tournament: Tournament) -> int:
    return PublicVersion.objects.get(tournament=tournament).number


def seen(tournament: Tournament) -> list[str]:
    """What an anonymous visitor gets from the public URLs, rendered afresh."""
    cache.clear()
    forget()
    slug = Tournament.objects.get(pk=tournament.pk).slug
    client = Client()
    shown = []
    for name in ("public:tournament", "public:standings-json", "public:display"):
        response = client.get(reverse(name, args=[slug]))
        shown.append(f"{response.status_code} {TOKEN.sub('', response.content.decode())}")
    return shown


def registering() -> Tournament:
    t = make_tournament(name="Registration night")
    make_entries(tournament=t, count=4)
    return t


def running() -> Tournament:
    return make_bracket(players=8, name="Bracket night")


def rated() -> Tournament:
    t = registering()
    for entry in t.entries.select_related("player"):
        entry.player.rating = 1000 + 10 * entry.seed  # the last seed is the best rated
        entry.player.save()
    return t


def withdrawn() -> Tournament:
    t = registering()
    withdraw_first(t)
    return t


def short_of_tables() -> Tournament:
    return make_bracket(players=8, name="Two tables", tables=2)


def correct_first_hand(t: Tournament) -> None:
    match = played_match(t)
    scoring.correct_hand(match=match, **named(match, 1), data=gin("B"), user=t.owner)


def delete_first_hand(t: Tournament) -> None:
    match = played_match(t)
    scoring.delete_hand(match=match, **named(match, 1), user=t.owner)


def first_ready(t: Tournament) -> Match:
    return playable(t)[0]


def played_match(t: Tournament) -> Match:
    match = first_ready(t)
    play(match, quick_match("A"))
    match.refresh_from_db()
    return match


def rename_player(t: Tournament) -> None:
    entry = t.entries.select_related("player").first()
    registry.update_player(
        player=entry.player, data={"name": "Renamed Player"}, user=make_registrar()
    )


def edit_hand_in_admin(t: Tournament) -> None:
    match = first_ready(t)
    play(match, [knock("A", 3, 40)])
    hand = Hand.objects.get(match=match, number=1)
    hand.defender_deadwood = 55
    request = RequestFactory().post("/admin/")
    request.user = t.owner
    admin.site._registry[Hand].save_model(request, hand, None, True)


def withdraw_first(t: Tournament) -> None:
    entry = t.entries.order_by("seed").first()
    services.withdraw(entry=entry, user=t.owner)


# (name, set-up, write): each write is one service call, as a view makes it.
SCENARIOS: list[tuple[str, Callable[[], Tournament], Callable[[Tournament], Any]]] = [
    (
        "entry added",
        registering,
        lambda t: registration.add_entry(tournament=t, player=make_player(), user=t.owner),
    ),
    (
        "new player registered",
        registering,
        lambda t: registration.register_new_player(
            tournament=t, data={"name": "Walk-in Player"}, user=t.owner
        ),
    ),
    (
        "seed changed",
        registering,
        lambda t: registration.set_seed(entry=t.entries.get(seed=4), seed=1, user=t.owner),
    ),
    (
        "seeded by rating",
        rated,
        lambda t: registration.seed_by_rating(tournament=t, user=t.owner),
    ),
    (
        "entry removed",
        registering,
        lambda t: registration.remove_entry(entry=t.entries.get(seed=2), user=t.owner),
    ),
    ("withdrawn before the draw", registering, withdraw_first),
    (
        "reinstated",
        withdrawn,
        lambda t: registration.reinstate_entry(entry=t.entries.get(withdrawn=True), user=t.owner),
    ),
    (
        "tournament details",
        registering,
        lambda t: organising.update_tournament(
            tournament=t, data={"name": "Spring Open", "venue": "Back room"}, user=t.owner
        ),
    ),
    (
        "rules",
        registering,
        lambda t: organising.update_tournament(
            tournament=t, data={"rules": {**t.rules, "game_target": 150}}, user=t.owner
        ),
    ),
    (
        "status",
        registering,
        lambda t: organising.set_status(tournament=t, status=Tournament.Status.DRAFT, user=t.owner),
    ),
    ("bracket generated", registering, lambda t: draw.generate_bracket(tournament=t, user=t.owner)),
    ("bracket cleared", running, lambda t: draw.clear_bracket(tournament=t, user=t.owner)),
    ("hand entered", running, lambda t: play(first_ready(t), [knock("A", 3, 40)])),
    ("hand corrected", running, correct_first_hand),
    ("hand deleted", running, delete_first_hand),
    (
        "result confirmed",
        running,
        lambda t: scoring.confirm_result(match=played_match(t), user=t.owner),
    ),
    (
        "walkover",
        running,
        lambda t: services.forfeit(match=first_ready(t), winner_side="B", user=t.owner),
    ),
    ("withdrawn from the bracket", running, withdraw_first),
    (
        "tables",
        short_of_tables,
        lambda t: organising.update_tournament(tournament=t, data={"tables": 4}, user=t.owner),
    ),
    ("player renamed", running, rename_player),
    ("hand fixed in the admin", running, edit_hand_in_admin),
]


@pytest.mark.parametrize(
    ("setup_", "write"), [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS]
)
def test_each_public_write_moves_the_version(setup_, write):
    tournament = setup_()
    before_version, before = version(tournament), seen(tournament)
    write(tournament)
    after_version, after = version(tournament), seen(tournament)
    assert after != before, "the scenario should change what the public sees"
    assert after_version > before_version


def test_reopening_a_result_moves_the_version():
    t = running()
    match = played_match(t)
    scoring.confirm_result(match=match, user=t.owner)
    before_version, before = version(t), seen(t)
    services.reopen_match(match=match, user=t.owner)
    assert seen(t) != before and version(t) > before_version


def test_a_refused_write_counts_nothing():
    t = running()
    match = first_ready(t)
    before = version(t)
    with pytest.raises(Exception, match="Only a match awaiting confirmation"):
        scoring.confirm_result(match=match, user=t.owner)
    with pytest.raises(Exception, match="cannot be entered yet"):
        scoring.record_hand(match=match, number=3, data=knock("A", 3, 40))
    assert version(t) == before


def test_writes_the_public_does_not_see_leave_it_alone():
    """The paid flag and table links show on no public page: followers keep their 304s."""
    t = running()
    entry = t.entries.first()
    before, shown = version(t), seen(t)
    registration.set_entry_flag(entry=entry, field="paid", value=True, user=t.owner)
    table_links.set_table_link(match=first_ready(t), action="renew", user=t.owner)
    assert version(t) == before and seen(t) == shown


def test_a_check_in_counts_for_the_players_page():
    t = registering()
    entry = t.entries.first()
    before = version(t)
    registration.set_entry_flag(entry=entry, field="checked_in", value=True, user=t.owner)
    assert version(t) == before + 1
    registration.set_entry_flag(entry=entry, field="checked_in", value=True, user=t.owner)
    assert version(t) == before + 1  # nothing changed: nothing counted


def test_a_renamed_player_moves_every_tournament_they_play_in():
    first, second = running(), registering()
    entry = first.entries.select_related("player").first()
    Entry.objects.create(tournament=second, player=entry.player, seed=9)
    other = make_tournament()
    counts = {t.pk: version(t) for t in (first, second, other)}
    registry.update_player(player=entry.player, data={"name": "Everywhere"}, user=make_registrar())
    assert version(first) == counts[first.pk] + 1
    assert version(second) == counts[second.pk] + 1
    assert version(other) == counts[other.pk]


def test_hiding_a_player_moves_their_tournaments_a_team_members_too():
    # Public pages link a player's name to their club page unless hidden: hiding one
    # changes what every tournament they play in shows, a partnership they sit in too.
    from tests.teams import team_bracket

    solo = running()
    teams = team_bracket(teams=4)
    entry = solo.entries.select_related("player").first()
    partner = teams.team_members.select_related("player").get(seat=2, entry__seed=1).player
    counts = {t.pk: version(t) for t in (solo, teams)}
    registry.update_player(player=entry.player, data={"hidden": True}, user=make_registrar())
    assert version(solo) == counts[solo.pk] + 1 and version(teams) == counts[teams.pk]
    registry.update_player(player=partner, data={"hidden": True}, user=make_registrar())
    assert version(teams) == counts[teams.pk] + 1
    registry.update_player(player=partner, data={"name": "New Name"}, user=make_registrar())
    assert version(teams) == counts[teams.pk] + 2


@pytest.mark.django_db(transaction=True)
def test_changed_belongs_inside_the_transaction():
    t = make_tournament()
    with pytest.raises(RuntimeError, match="inside the write's transaction"):
        changed(t)
    with changing(t):
        pass
    assert version(t) == 2
    with transaction.atomic():
        changed(t.pk, t)  # the same tournament twice counts once
    assert version(t) == 3


def test_a_tournament_without_a_version_row_gets_one():
    t = make_tournament()
    PublicVersion.objects.filter(tournament=t).delete()
    with changing(t):
        pass
    assert version(t) == 2
    gone = Tournament.objects.create(owner=t.owner, name="Short-lived")
    pk = gone.pk
    gone.delete()
    with changing(pk):  # a deleted tournament: nothing to count, no error
        pass
    assert not PublicVersion.objects.filter(tournament_id=pk).exists()
