"""Public pages of a team tournament: team names everywhere, members on the team's page
and in standings.json, and a player finds their team by their own name."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.teams import first_match, knock, play_deals, team_bracket

pytestmark = pytest.mark.django_db


def test_the_public_page_projector_and_json_show_teams(client):
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)]])
    page = client.get(reverse("public:tournament", kwargs={"slug": tournament.slug}))
    text = page.content.decode()
    assert "Team 1" in text and "Team 4" in text
    assert "Team 1 player 1" not in text  # the bracket names teams, not their players
    display = client.get(f"/t/{tournament.slug}/display/").content.decode()
    assert "Team 1" in display
    data = json.loads(client.get(f"/t/{tournament.slug}/standings.json").content)
    assert data["tournament"]["team_size"] == 2
    names = {row["name"]: row["members"] for row in data["standings"]}
    assert names["Team 3"] == ["Team 3 player 1", "Team 3 player 2"]


def test_a_player_finds_their_team_and_its_page_lists_the_members(client):
    tournament = team_bracket(teams=4)
    find = reverse("public:find", kwargs={"slug": tournament.slug})
    text = client.get(find, {"q": "Team 2 player 2"}).content.decode()
    assert "Team 2" in text and "Team 2 player 1, Team 2 player 2" in text
    entry = tournament.entries.get(team_name="Team 2")
    page = client.get(
        reverse("public:player", kwargs={"slug": tournament.slug, "entry_id": entry.pk})
    )
    text = page.content.decode()
    # Each member's name links to their club page (a team's own name links nowhere).
    members = [m.player for m in entry.members.select_related("player").order_by("seat")]
    links = [
        f'<bdi><a class="player-link" href="{club_page}">{p.name}</a></bdi>'
        for p in members
        for club_page in [reverse("club:player", args=[p.pk])]
    ]
    assert f"Team: {links[0]}, {links[1]}" in text
    assert "against <strong><bdi>Team 3</bdi></strong>" in text
    members[1].hidden = True
    members[1].save()
    from django.core.cache import cache

    from public.live import forget

    cache.clear()  # the save above is not a service's: nothing moved the public version
    forget()
    page = client.get(
        reverse("public:player", kwargs={"slug": tournament.slug, "entry_id": entry.pk})
    )
    assert f"Team: {links[0]}, <bdi>Team 2 player 2</bdi>" in page.content.decode()


def test_the_head_to_head_json_is_unchanged(client):
    from tests.factories import make_bracket

    tournament = make_bracket(players=4)
    data = json.loads(client.get(f"/t/{tournament.slug}/standings.json").content)
    assert "team_size" not in data["tournament"]
    assert all("members" not in row for row in data["standings"])


def test_team_statistics_count_deals_won_and_no_board_figures(client):
    tournament = team_bracket(teams=4)
    match = first_match(tournament)
    play_deals(
        match, [[knock("A", 2, 18), knock("B", 3, 15)], [knock("B", 1, 30), knock("B", 2, 30)]]
    )
    data = json.loads(client.get(f"/t/{tournament.slug}/standings.json").content)
    rows = {row["name"]: row for row in data["standings"]}
    assert rows["Team 1"]["hands_won"] == 1 and rows["Team 4"]["hands_won"] == 1
    assert rows["Team 1"]["average_knock_deadwood"] is None


def test_a_team_has_no_club_rating_though_its_players_have_one(client):
    # The club rates players in head-to-head matches; a team's row is not its first
    # player's: standings.json gives it no rating, and the page no rating column.
    from tests.factories import make_bracket, make_director
    from tests.standings.test_standings import play_match, playable, quick_match
    from tournaments.models import Entry

    tournament = team_bracket(teams=4)
    first_players = [e.player for e in tournament.entries.select_related("player")]
    solo = make_bracket(players=2, user=make_director())
    Entry.objects.filter(tournament=solo, seed=1).update(player=first_players[0])
    play_match(playable(solo)[0], "A", quick_match)  # the first team's first player is rated
    rows = json.loads(client.get(f"/t/{tournament.slug}/standings.json").content)["standings"]
    assert rows and all(row["rating"] is None and row["rating_change"] is None for row in rows)
    page = client.get(reverse("public:tournament", kwargs={"slug": tournament.slug}))
    assert "Club rating" not in page.content.decode()
