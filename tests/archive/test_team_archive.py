"""A team tournament's archive round trip (export.json, then import_tournament) and
verify_tournament on team matches."""

from __future__ import annotations

import json

import pytest

from archive import api as archive
from archive.verify import verify
from scoring.models import Hand
from tests.teams import draw, first_match, gin, knock, play_deals, team_bracket
from tournaments.models import Match, Player, TeamMember, Tournament

pytestmark = pytest.mark.django_db


def played_team_tournament() -> Tournament:
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)], [gin("A", 30), gin("A", 30)]])
    return tournament


def played_match(tournament: Tournament) -> Match:
    return Match.objects.get(tournament=tournament, status="in_play")


def test_a_team_tournament_survives_export_and_import():
    tournament = played_team_tournament()
    document = json.loads(archive.dumps(archive.export_tournament(tournament)))
    assert len(document["players"]) == 8
    teams = [entry for entry in document["entries"] if "team_name" in entry]
    assert [entry["team_name"] for entry in teams] == ["Team 1", "Team 2", "Team 3", "Team 4"]
    assert all(len(entry["members"]) == 2 for entry in teams)
    assert all(entry["members"][0] == entry["player"] for entry in teams)

    report = archive.import_archive(document, slug="teams-again")
    copy = Tournament.objects.get(slug="teams-again")
    assert report.new_players == 0  # the same registry: every player matched
    assert [e.name for e in copy.entries.order_by("seed")] == [
        e.name for e in tournament.entries.order_by("seed")
    ]
    members = TeamMember.objects.filter(tournament=copy).order_by("entry__seed", "seat")
    assert [m.player.name for m in members][:2] == ["Team 1 player 1", "Team 1 player 2"]
    assert Hand.objects.filter(match__tournament=copy).count() == 4
    original = played_match(tournament)
    played = Match.objects.get(tournament=copy, key=original.key)
    assert (played.total_a, played.score_a, played.status) == (
        original.total_a,
        original.score_a,
        original.status,
    )
    matches, problems = verify(copy)
    assert matches and problems == []


def test_a_team_archive_into_another_installation_creates_every_member():
    tournament = played_team_tournament()
    document = json.loads(archive.dumps(archive.export_tournament(tournament)))
    Hand.objects.filter(match__tournament=tournament).delete()
    Match.objects.filter(tournament=tournament).update(next_match=None, loser_next_match=None)
    Match.objects.filter(tournament=tournament).delete()
    tournament.delete()
    Player.objects.all().delete()
    report = archive.import_archive(document)
    assert report.new_players == 8
    assert TeamMember.objects.count() == 8


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["entries"][0].pop("members"), "not a team"),
        (lambda d: d["entries"][0].update(members=[0]), "must name 2 players"),
        (lambda d: d["entries"][0].update(members=[1, 0]), "must start with the entry's player"),
        (lambda d: d["hands"].pop(), "deal 2"),
    ],
)
def test_a_broken_team_archive_is_refused(change, message):
    tournament = played_team_tournament()
    document = json.loads(archive.dumps(archive.export_tournament(tournament)))
    change(document)
    with pytest.raises(archive.ArchiveError, match=message):
        archive.import_archive(document, slug="broken")


def test_verify_finds_a_team_match_whose_summary_disagrees_with_its_deals():
    tournament = played_team_tournament()
    _matches, problems = verify(tournament)
    assert problems == []
    Match.objects.filter(pk=played_match(tournament).pk).update(score_a=1)
    _matches, problems = verify(tournament)
    assert [str(problem).split()[1] for problem in problems] == ["score_a:"]


def test_a_drawn_deal_scores_nothing_and_verifies():
    tournament = team_bracket(teams=2)
    match = first_match(tournament)
    play_deals(match, [[draw(), draw()]])
    assert verify(tournament)[1] == []
