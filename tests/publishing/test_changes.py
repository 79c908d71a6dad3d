"""After the first, what the venue sends is only what changed (issue 34): a part with the
hands and decisions of the matches that changed, applied at the club in place, every
row keeping its id, so a link to a match on the mirror stays valid through the night.

Through the club's real receiving view (:class:`tests.publishing.test_sending.Club`)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from publishing.models import Destination, Mirror, Publication
from publishing.sending import Publisher, changes_of
from publishing.tokens import make_token
from scoring.models import Hand
from scoring.services import delete_hand
from tests.factories import make_bracket, make_director
from tests.public.test_tables_json import seated
from tests.publishing import test_sending
from tests.publishing.test_receiving import standings
from tests.publishing.test_sending import Club, hands
from tests.scoring.helpers import knock, named, play
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament
from tournaments.services import forfeit, withdraw

pytestmark = pytest.mark.django_db

night = test_sending.night  # four players at two tables, publishing as friday-club


def ids(slug: str) -> dict[str, object]:
    """The ids of a tournament's rows, by what names them in the archive."""
    t = Tournament.objects.get(slug=slug)
    return {
        "tournament": t.pk,
        "entries": list(Entry.objects.filter(tournament=t).order_by("pk").values_list("pk")),
        "matches": dict(Match.objects.filter(tournament=t).values_list("key", "pk")),
        "hands": {
            (key, number): pk
            for pk, key, number in Hand.objects.filter(match__tournament=t).values_list(
                "pk", "match__key", "number"
            )
        },
    }


def audit(slug: str) -> list[tuple]:
    return list(
        AuditEntry.objects.filter(tournament__slug=slug)
        .order_by("at", "pk")
        .values_list("action", "via", "at")
    )


def same(venue: Tournament) -> None:
    """The mirror is the venue: its hands, standings, audit and number."""
    assert hands("friday-club") == hands(venue.slug)
    assert standings("friday-club") == standings(venue.slug)
    assert audit("friday-club") == audit(venue.slug)
    assert Mirror.objects.get().applied_through == changes_of([venue])[venue.pk]


@pytest.fixture
def club(night):
    club = Club()
    publisher = Publisher(club)
    assert publisher.publish_once() == 1
    assert club.bodies[0]["since"] is None  # the first time: all of it
    return club, publisher


def test_a_hand_sends_only_its_match_and_keeps_every_id(night, club):
    club, publisher = club
    before = ids("friday-club")
    acknowledged = changes_of([night])[night.pk]
    match = seated(night)[1]
    play(match, [knock("B", 2, 20)])
    assert publisher.publish_once() == 1
    body = club.bodies[-1]
    assert body["since"] == acknowledged and body["hands_of"] == [match.key]
    assert {hand["match"] for hand in body["archive"]["hands"]} == {match.key}
    new_rows = changes_of([night])[night.pk] - acknowledged
    assert len(body["archive"]["audit"]) == new_rows + min(acknowledged, 10)
    same(night)
    after = ids("friday-club")
    assert {k: v for k, v in after.items() if k != "hands"} == {
        k: v for k, v in before.items() if k != "hands"
    }
    assert before["hands"].items() <= after["hands"].items()
    assert len(after["hands"]) == len(before["hands"]) + 1


def test_a_players_page_on_the_mirror_keeps_its_address(night, club):
    _club, publisher = club
    match = seated(night)[0]
    entry = Entry.objects.filter(tournament__slug="friday-club").order_by("pk").first()
    page = f"/t/friday-club/players/{entry.pk}/"
    assert Client().get(page).status_code == 200
    for score in (10, 20, 30):
        play(match, [knock("A", 2, score)])
        publisher.publish_once()
    assert Client().get(page).status_code == 200
    same(night)


def test_corrections_deletions_and_decisions_arrive(night, club):
    _club, publisher = club
    first, second = seated(night)
    play(second, [knock("A", 2, 20), knock("B", 3, 25)])
    publisher.publish_once()
    delete_hand(match=second, **named(second, 2))
    play(first, [knock("B", 2, 40)])
    publisher.publish_once()
    same(night)
    forfeit(match=Match.objects.get(pk=second.pk), winner_side="B", user=night.owner)
    publisher.publish_once()
    same(night)
    mirror_match = Match.objects.get(tournament__slug="friday-club", key=second.key)
    assert (mirror_match.status, mirror_match.winner_side, mirror_match.forfeit) == (
        "complete",
        "B",
        True,
    )


def test_new_matches_and_a_withdrawal_arrive_in_place(night, club):
    _club, publisher = club
    before = ids("friday-club")
    for match in seated(night):
        play(match, [knock("A", 10, 90)] * 3)  # decides both semifinals: the final is made
    entry = Entry.objects.filter(tournament=night).order_by("pk").last()
    withdraw(entry=entry, user=night.owner)
    publisher.publish_once()
    same(night)
    after = ids("friday-club")
    assert after["entries"] == before["entries"]
    assert before["matches"].items() <= after["matches"].items()
    venue_withdrawn = list(
        Entry.objects.filter(tournament=night).order_by("pk").values_list("withdrawn")
    )
    assert (
        list(
            Entry.objects.filter(tournament__slug="friday-club")
            .order_by("pk")
            .values_list("withdrawn")
        )
        == venue_withdrawn
    )


def test_a_part_the_club_cannot_take_brings_all_of_it(night, club):
    club, publisher = club
    mirror = Tournament.objects.get(slug="friday-club")  # its entries are not the venue's
    mirror.entries.create(player=Player.objects.create(name="Stray"))
    play(seated(night)[1], [knock("B", 2, 20)])
    assert publisher.publish_once() == 2  # the part, refused; then all of it
    assert club.bodies[-2]["since"] is not None and club.bodies[-1]["since"] is None
    same(night)


def test_a_gap_asks_for_all_of_it(night, club):
    club, publisher = club
    Mirror.objects.update(applied_through=1)  # the club restored an older backup
    play(seated(night)[1], [knock("B", 2, 20)])
    assert publisher.publish_once() == 2
    assert club.bodies[-1]["since"] is None
    same(night)


def test_a_part_twice_or_after_a_newer_one_is_applied_once(night, club):
    club, publisher = club
    play(seated(night)[1], [knock("B", 2, 20)])
    publisher.publish_once()
    older = club.bodies[-1]
    play(seated(night)[1], [knock("A", 3, 40)])
    publisher.publish_once()
    newer = club.bodies[-1]
    for body in (newer, older, newer):
        club.replay(body)
    same(night)


def test_an_answer_lost_is_sent_again_and_applied_once(night, club):
    club, publisher = club
    club.lose_answers = 1  # the club applies it; the venue never hears
    play(seated(night)[1], [knock("B", 2, 20)])
    publisher.publish_once()
    publication = Publication.objects.get(tournament=night)
    assert publication.acknowledged_through < changes_of([night])[night.pk]
    play(seated(night)[0], [knock("A", 2, 20)])
    publisher.not_before.clear()  # the retry: a part since the same number, and more
    publisher.publish_once()
    assert club.bodies[-1]["since"] == club.bodies[-2]["since"]
    same(night)


def part_queries(players: int, secret: str) -> int:
    """The queries of one pass at the venue and its apply at the club, for one hand at one
    table of a night of ``players`` at every table."""
    t = make_bracket(players=players, tables=players // 2, slug=f"big-{players}")
    for match in seated(t):
        play(match, [knock("A", 5, 30)])
    Publication.objects.create(tournament=t, slug=f"big-{players}-club")
    Destination.objects.all().delete()
    Destination.objects.create(url="http://club.example/", token=secret, venue="Riverside")
    club = Club()
    publisher = Publisher(club)
    publisher.publish_once()
    last = seated(t)[-1]
    play(last, [knock("B", 2, 20)])
    with CaptureQueriesContext(connection) as counted:
        assert publisher.publish_once() == 1
    assert club.bodies[-1]["hands_of"] == [last.key]
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.DRAFT)  # not again
    return len(counted)


def test_a_parts_cost_does_not_grow_with_the_night():
    """One hand's part costs the same queries, at both ends, at 4 tables as at 16."""
    secret = make_token(user=make_director(username="clubdora"))[1]
    assert part_queries(8, secret) == part_queries(32, secret)
