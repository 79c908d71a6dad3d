"""The club's history counts a mirrored tournament (issue 34) exactly as if it had been
played there: the club ratings, a season that includes it and the players' pages show
the same numbers for the mirror of a night as for the night played on this site, and
``verify_tournament`` finds the mirror clean. A night still running counts as a local
running one does (``club.ratings.RATED``: every completed match of a tournament that is
not a draft), so the mirror of one counts the same way.

The venue and the club share the test database here: the night is played locally,
what the club shows of it read, the tournament deleted, and its archive received as a
mirror at the same slug; what the club shows is then read again."""

from __future__ import annotations

import datetime
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from archive.export import export_tournament
from club import ratings, services
from club.models import Season
from publishing import protocol
from publishing.models import Mirror
from publishing.receiving import receive
from publishing.tokens import make_token
from scoring.models import Hand
from tests.club.helpers import by_rank, open_matches, play_match, run_tournament
from tests.factories import make_director, make_player, make_tournament
from tournaments.draw import generate_bracket
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament

pytestmark = pytest.mark.django_db

JAN = datetime.date(2026, 1, 5)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def club():
    """The club's director, eight players, a night already played here, and a season."""
    director = make_director(username="clubdora")
    players = [make_player(name=name) for name in NAMES]
    week1 = run_tournament(
        players, owner=director, date=JAN, winner=by_rank(players), name="Week 1"
    )
    season = services.save_season(
        season=Season(name="Winter league", owner=director, placing_points=[10, 6, 4, 2]),
        tournaments=[week1],
        user=director,
    )
    return director, players, season


def upset(players: list[Player]) -> list[Player]:
    """The order of the second night: the last seeds win."""
    return list(reversed(players))


def running_night(director: Any, players: list[Player]) -> Tournament:
    """The second night with its first round played, the rest still to play."""
    night = make_tournament(owner=director, preset="modern", date=JAN + datetime.timedelta(7))
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(tournament=night, player=player, seed=seed)
    generate_bracket(tournament=night, user=director)
    winner = by_rank(upset(players))
    for match in open_matches(night):
        a, b = match.side_a.player, match.side_b.player
        play_match(match, "A" if winner(a, b) == a else "B", user=director)
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    return night


def page(client: Client, url: str) -> str:
    """The page as text, without what differs between any two renderings (the CSRF
    token) or between two databases (a match's id in its link)."""
    text = client.get(url).content.decode()
    text = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', r"\1-", text)
    return re.sub(r"/matches/\d+/", "/matches/N/", text)


def shown(players: list[Player], season: Season, night: Tournament) -> dict[str, Any]:
    """What the club's server shows: every player's club rating, the night's rating
    changes, the season's standings, each player's page, the night's ratings page."""
    client = Client()
    ratings.ensure_current()
    ids = [p.pk for p in players]
    return {
        "ratings": ratings.current_ratings(ids),
        "night": sorted(ratings.tournament_ratings(night.pk, ids).values(), key=str),
        "season": client.get(reverse("club:season-csv", args=[season.slug])).content,
        "pages": [page(client, reverse("club:player", args=[pk])) for pk in ids],
        "night page": page(client, reverse("club:tournament-ratings", args=[night.slug])),
    }


def mirrored(night: Tournament, director: Any) -> Tournament:
    """``night`` deleted here and received again as a mirror from a venue."""
    archive, slug = export_tournament(night), night.slug
    through = AuditEntry.objects.filter(tournament=night).count()
    # Deleted as archive.restore clears one: the matches first (they hold the entries).
    matches = Match.objects.filter(tournament=night)
    matches.update(next_match=None, loser_next_match=None)
    Hand.objects.filter(match__tournament=night).delete()
    matches.delete()
    night.delete()
    token, _secret = make_token(user=director)
    body = {
        "format": protocol.FORMAT,
        "version": protocol.VERSION,
        "venue": "Riverside laptop",
        "slug": slug,
        "through": through,
        "archive": archive,
    }
    answer = receive(token, body)
    assert answer.status == 200, answer.body
    mirror = Mirror.objects.get(tournament__slug=slug).tournament
    return mirror


def verified(slug: str) -> str:
    out = io.StringIO()
    call_command("verify_tournament", slug, stdout=out)
    return out.getvalue()


def finished_night(director: Any, players: list[Player]) -> Tournament:
    """The second night played to its end."""
    night = run_tournament(
        players,
        owner=director,
        date=JAN + datetime.timedelta(7),
        winner=by_rank(upset(players)),
        name="Week 2",
    )
    night.refresh_from_db()
    return night


@pytest.mark.parametrize(
    ("play_night", "status"),
    [(finished_night, Tournament.Status.FINISHED), (running_night, Tournament.Status.RUNNING)],
    ids=["finished", "running"],
)
def test_a_mirror_counts_as_the_night_played_here(club, play_night, status):
    director, players, season = club
    night = play_night(director, players)
    assert night.status == status
    season.tournaments.add(night)
    here = shown(players, season, night)
    assert any(row.matches and row.change for row in here["night"])  # it is rated

    mirror = mirrored(night, director)
    assert mirror.status == status
    season.tournaments.add(mirror)
    assert shown(players, season, mirror) == here
    assert "agree with their hands" in verified(mirror.slug)


def test_without_the_night_the_club_shows_other_numbers(club):
    """The comparisons above can fail: the club without the second night differs."""
    director, players, season = club
    before = shown(players, season, Tournament.objects.get(name="Week 1"))
    season.tournaments.add(finished_night(director, players))
    after = shown(players, season, Tournament.objects.get(name="Week 1"))
    for key in ("ratings", "season", "pages"):
        assert after[key] != before[key]
