"""Team matches: deals entered, corrected and deleted through the services and the pages,
the winner confirmed and advancing, the sheet's query count."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from engine import ScoringError
from scoring import deals
from scoring.models import Hand
from scoring.services import HandConflict, record_hand
from scoring.versions import HandChanged
from tests.teams import deal_post, draw, first_match, gin, knock, play_deals, team_bracket
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db


def _points(match: Match) -> tuple[int, int]:
    """The running game's points (the match total counts closed games only)."""
    from scoring.loading import sheet_for

    game = sheet_for(match).games[-1]
    return game.points.a, game.points.b


def test_a_deal_is_its_boards_netted_into_one_score():
    tournament = team_bracket()
    match = first_match(tournament)
    # The books' example: A beats B by 16, C beats D by 12: A/C score 28 (+ one box).
    play_deals(match, [[knock("A", 2, 18), knock("A", 3, 15)]])
    match.refresh_from_db()
    assert list(match.hands.values_list("number", "kind", "by")) == [
        (1, "knock", "A"),
        (2, "knock", "A"),
    ]
    assert _points(match) == (28, 0)
    assert match.status == Match.Status.IN_PLAY
    # Next deal: A beats B by 7, D beats C by 13: B/D score 6.
    play_deals(match, [[knock("A", 3, 10), knock("B", 2, 15)]])
    match.refresh_from_db()
    assert _points(match) == (28, 6)
    assert AuditEntry.objects.filter(action="deal entered").count() == 2


def test_a_drawn_board_counts_nothing_and_the_other_still_counts():
    match = first_match(team_bracket())
    play_deals(match, [[draw(), knock("B", 4, 14)]])
    match.refresh_from_db()
    assert _points(match) == (0, 10)


def test_a_deal_is_refused_whole_when_a_board_is_wrong():
    match = first_match(team_bracket())
    with pytest.raises(ScoringError) as refused:
        deals.record_deal(match=match, number=1, boards=[knock("A", 2, 18), knock("A", 12, 30)])
    assert refused.value.board == 2
    assert not Hand.objects.filter(match=match).exists()


def test_deal_numbers_are_checked_and_single_hands_refused():
    match = first_match(team_bracket())
    play_deals(match, [[knock(), knock()]])
    with pytest.raises(HandConflict, match="already entered"):
        deals.record_deal(match=match, number=1, boards=[knock(), knock()])
    with pytest.raises(HandConflict, match="cannot be entered yet"):
        deals.record_deal(match=match, number=3, boards=[knock(), knock()])
    with pytest.raises(HandConflict, match="2 boards"):
        deals.record_deal(match=match, number=2, boards=[knock()])
    with pytest.raises(ScoringError, match="enter the match deal by deal"):
        record_hand(match=match, number=3, data=knock())
    assert match.hands.count() == 2


def _version(match: Match, number: int) -> str:
    hands = list(Hand.objects.filter(match=match).order_by("number"))
    return deals.deal_version(deals.deal_rows(hands, 2)[number - 1])


def test_a_correction_rescores_and_is_audited_and_a_stale_one_is_refused():
    match = first_match(team_bracket())
    play_deals(match, [[knock("A", 2, 18), knock("A", 3, 15)], [knock("B", 1, 11), draw()]])
    old = _version(match, 1)
    deals.correct_deal(
        match=match, number=1, version=old, boards=[knock("A", 2, 18), knock("B", 3, 15)]
    )
    match.refresh_from_db()
    # Deal 1 is now 16 v 12 for A: A scores 4; deal 2 still gives B 10.
    assert _points(match) == (4, 10)
    entry = AuditEntry.objects.get(action="deal corrected")
    assert entry.before["boards"][1]["by"] == "A" and entry.after["boards"][1]["by"] == "B"
    with pytest.raises(HandChanged):
        deals.correct_deal(match=match, number=1, version=old, boards=[knock(), knock()])
    match.refresh_from_db()
    assert _points(match) == (4, 10)


def test_deleting_a_deal_moves_the_later_ones_up():
    match = first_match(team_bracket())
    play_deals(match, [[knock("A", 2, 18), knock("A", 3, 15)], [knock("B", 1, 11), draw()]])
    deals.delete_deal(match=match, number=1, version=_version(match, 1))
    match.refresh_from_db()
    assert list(match.hands.values_list("number", "by")) == [(1, "B"), (2, "")]
    assert _points(match) == (0, 10)
    assert AuditEntry.objects.filter(action="deal deleted").exists()
    with pytest.raises(HandChanged):
        deals.delete_deal(match=match, number=2, version="0" * 16)


def _win_game_for(side: str) -> list[list]:
    """Two deals of double gin: 2 x (25 + 20) a deal = 90, then the rest to pass 125."""
    return [[gin(side, 20), gin(side, 20)], [gin(side, 20), gin(side, 20)]]


def test_the_decided_match_is_confirmed_and_the_winning_team_advances():
    tournament = team_bracket()
    match = first_match(tournament)
    play_deals(match, _win_game_for("B"))
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    assert match.winner_side == "B"
    with pytest.raises(ScoringError, match="already complete"):
        deals.record_deal(match=match, number=3, boards=[knock(), knock()])
    from scoring.services import confirm_result

    confirm_result(match=match, version=match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    following = match.next_match
    assert following is not None
    assert following.entry(match.next_slot) == match.side_b


def test_a_correction_that_changes_a_confirmed_winner_behind_a_started_match_is_refused():
    tournament = team_bracket()
    one, two = tournament.matches.filter(round=1).order_by("position")[:2]
    for match in (one, two):
        play_deals(match, _win_game_for("A"))
        match.refresh_from_db()
        from scoring.services import confirm_result

        confirm_result(match=match, version=match.version)
    final = Match.objects.get(pk=one.next_match_id)
    play_deals(final, [[knock(), knock()]])
    with pytest.raises(ValidationError):
        deals.correct_deal(
            match=one,
            number=2,
            version=_version(one, 2),
            boards=[gin("B", 20), gin("B", 20)],
        )
    one.refresh_from_db()
    assert one.status == Match.Status.COMPLETE and one.winner_side == "A"


# -- pages ------------------------------------------------------------------------------


def _url(match: Match, name: str, **kwargs) -> str:
    return reverse(
        f"scoring:{name}",
        kwargs={"slug": match.tournament.slug, "match_id": match.pk, **kwargs},
    )


def test_the_team_sheet_shows_teams_members_boards_and_one_form(client):
    tournament = team_bracket()
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)]])
    client.force_login(tournament.owner)
    page = client.get(_url(match, "match-sheet")).content.decode()
    assert "Team 1" in page and "Team 4" in page
    assert "Team 1 player 1" in page and "Team 4 player 2" in page
    assert 'name="b1-kind"' in page and 'name="b2-kind"' in page
    assert "Enter deal 2" in page


def test_a_team_match_decided_on_time_says_so_on_its_sheet(client):
    tournament = team_bracket()
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)]])
    client.force_login(tournament.owner)
    assert "Decided on time" not in client.get(_url(match, "match-sheet")).content.decode()
    Match.objects.filter(pk=match.pk).update(decided_on_time=True, winner_side="A")
    page = client.get(_url(match, "match-sheet")).content.decode()
    assert "Decided on time: Team 1 led when time was called." in page


def test_entering_a_deal_through_the_page_without_javascript(client):
    tournament = team_bracket()
    match = first_match(tournament)
    client.force_login(tournament.owner)
    response = client.post(
        _url(match, "deal-create"), deal_post(1, [knock("A", 2, 18), knock("A", 3, 15)])
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert _points(match) == (28, 0)
    # The same deal again (a double tap, the other team's phone): nothing doubled; the
    # sheet as it is now says why.
    again = client.post(
        _url(match, "deal-create"),
        deal_post(1, [knock("A", 2, 18), knock("A", 3, 15)]),
        follow=True,
    )
    assert "Deal 1 was already entered from a scorer's or the director's screen." in (
        again.content.decode().replace("&#x27;", "'")
    )
    assert "Enter deal 2" in again.content.decode()
    assert match.hands.count() == 2
    # A board missing its count: nothing saved, the form says which field.
    response = client.post(_url(match, "deal-create"), {"number": 2, "b1-kind": "gin"})
    assert response.status_code == 400
    assert match.hands.count() == 2
    assert "Say who went out." in response.content.decode()


def test_the_table_link_enters_deals_and_the_losing_team_confirms(client):
    tournament = team_bracket()
    match = first_match(tournament)
    base = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
    assert client.get(base).status_code == 200
    for number, boards in enumerate(_win_game_for("A"), start=1):
        response = client.post(base + "deals/", deal_post(number, boards))
        assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    page = client.get(base).content.decode()
    assert "We, Team 4, confirm the result" in page
    client.post(base + "confirm/", {"version": match.version})
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE


def test_the_deal_edit_and_delete_pages(client):
    tournament = team_bracket()
    match = first_match(tournament)
    play_deals(match, [[knock("A", 2, 18), knock("A", 3, 15)]])
    client.force_login(tournament.owner)
    page = client.get(_url(match, "deal-edit", number=1))
    assert page.status_code == 200
    version = _version(match, 1)
    response = client.post(
        _url(match, "deal-edit", number=1),
        {**deal_post(1, [knock("A", 2, 18), knock("B", 3, 15)]), "version": version},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert _points(match) == (4, 0)
    # The old version again: nothing changed, the deal shown as it is now.
    response = client.post(
        _url(match, "deal-edit", number=1),
        {**deal_post(1, [gin(), gin()]), "version": version},
    )
    assert response.status_code == 409
    assert client.get(_url(match, "deal-delete", number=1)).status_code == 200
    response = client.post(_url(match, "deal-delete", number=1), {"version": _version(match, 1)})
    assert response.status_code == 302
    assert match.hands.count() == 0
    assert client.get(_url(match, "deal-edit", number=1)).status_code == 404


def test_the_team_sheet_reads_a_fixed_number_of_queries(client, django_assert_num_queries):
    """The match, its boards, the teams' players and its round's name (the rounds of its
    section): four queries through the table link, whatever the number of deals (a
    signed-in director adds the session and the user)."""
    tournament = team_bracket()
    match = first_match(tournament)
    url = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
    client.get(url)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)]])
    with django_assert_num_queries(4):
        client.get(url)
    play_deals(match, [[knock("A", 2, 18), knock("B", 3, 15)]] * 4)
    with django_assert_num_queries(4):
        assert "Enter deal 6" in client.get(url).content.decode()
    client.force_login(tournament.owner)
    director = _url(match, "match-sheet")
    client.get(director)
    # 6, and the header's director links read the account's permissions (2, once a request)
    with django_assert_num_queries(8):
        client.get(director)


def test_a_second_phone_is_told_which_phone_entered_the_deal_first():
    """Issue 32 for team nights: two phones at the table send deal 1 with other values; the
    second is told it was entered from the first phone, and nothing of its own is kept."""
    from django.test import Client

    from tables import devices

    match = first_match(team_bracket())
    base = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
    first, second = Client(), Client()
    for phone in (first, second):
        assert phone.get(base).status_code == 200
    label = first.cookies[devices.COOKIE].value
    assert first.post(base + "deals/", deal_post(1, [knock("A", 2, 18), knock("A", 3, 15)]))
    refused = second.post(base + "deals/", deal_post(1, [gin(), gin()]), follow=True)
    page = refused.content.decode()
    table = match.table or "?"
    assert f"Deal 1 was already entered from phone {label} at table {table}." in page
    assert "Yours was not saved" in page and "Enter deal 2" in page
    assert list(match.hands.values_list("kind", "device")) == [("knock", label)] * 2
    # The first phone itself, sending another deal 1, is told it was this phone.
    again = first.post(base + "deals/", deal_post(1, [gin(), gin()]), follow=True)
    assert "Deal 1 was already entered from this phone." in again.content.decode()
