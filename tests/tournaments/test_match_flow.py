"""Match lifecycle services on hand-made bracket fragments (no bracket generator needed):
progress, confirmation and routing, tables and queueing, walkovers, withdrawals, reopening."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import make_entries, make_match, make_tournament
from tournaments import services
from tournaments.models import AuditEntry, Match, Tournament

pytestmark = pytest.mark.django_db

Status = Match.Status


def progress(match, *, winner=None, hands=True):
    return services.set_match_progress(
        match=match,
        score_a=2 if winner == "A" else 0,
        score_b=2 if winner == "B" else 0,
        total_a=300,
        total_b=200,
        decided_winner=winner,
        has_hands=hands,
    )


def play(match, winner="A"):
    match.refresh_from_db()
    progress(match, winner=winner)
    return services.confirm_match(match=match)


def four_player_bracket(*, tables=8, third_place=True):
    """Semi-finals 1v4 and 2v3, a final, and a third-place match."""
    t = make_tournament(tables=tables, status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=4)
    final = make_match(tournament=t, key="W2-1", round=2, position=1, status=Status.WAITING)
    third = None
    if third_place:
        third = make_match(
            tournament=t,
            key="3P",
            section=Match.Section.THIRD_PLACE,
            round=2,
            position=2,
            status=Status.WAITING,
        )
    semi1 = make_match(
        tournament=t,
        key="W1-1",
        a=e[0],
        b=e[3],
        round=1,
        position=1,
        table=1,
        next_match=final,
        next_slot="A",
        loser_next_match=third,
        loser_next_slot="A" if third else "",
    )
    semi2 = make_match(
        tournament=t,
        key="W1-2",
        a=e[1],
        b=e[2],
        round=1,
        position=2,
        table=2,
        next_match=final,
        next_slot="B",
        loser_next_match=third,
        loser_next_slot="B" if third else "",
    )
    return t, e, semi1, semi2, final, third


def fresh(match):
    match.refresh_from_db()
    return match


# -- set_match_progress -----------------------------------------------------------------------


def test_progress_moves_ready_to_in_play_to_awaiting_and_back():
    _t, _e, semi1, *_ = four_player_bracket()
    progress(semi1, hands=True)
    assert fresh(semi1).status == Status.IN_PLAY
    assert semi1.started_at is not None
    progress(semi1, winner="B")
    assert fresh(semi1).status == Status.AWAITING
    assert semi1.winner_side == "B"
    assert (semi1.score_b, semi1.total_a) == (2, 300)
    progress(semi1, hands=False)
    assert fresh(semi1).status == Status.READY
    assert semi1.winner_side == ""
    assert semi1.started_at is None


def test_progress_refused_while_players_unknown():
    _t, _e, _s1, _s2, final, _third = four_player_bracket()
    with pytest.raises(ValidationError, match="not known yet"):
        progress(final)
    assert fresh(final).status == Status.WAITING


def test_progress_on_complete_match_keeping_the_winner_only_updates_the_summary():
    _t, _e, semi1, _s2, final, _third = four_player_bracket()
    play(semi1, "A")
    services.set_match_progress(
        match=semi1,
        score_a=3,
        score_b=0,
        total_a=999,
        total_b=1,
        decided_winner="A",
        has_hands=True,
    )
    assert fresh(semi1).status == Status.COMPLETE
    assert semi1.total_a == 999
    assert fresh(final).side_a == semi1.side_a


def test_progress_changing_the_winner_of_a_complete_match_reopens_it():
    _t, _e, semi1, _s2, final, third = four_player_bracket()
    play(semi1, "A")
    progress(fresh(semi1), winner="B")
    assert fresh(semi1).status == Status.AWAITING
    assert semi1.winner_side == "B"
    assert fresh(final).side_a is None
    assert fresh(third).side_a is None


# -- confirm_match ----------------------------------------------------------------------------


def test_confirm_routes_winner_and_loser_and_readies_the_next_match():
    t, e, semi1, semi2, final, third = four_player_bracket()
    play(semi1, "B")
    assert fresh(semi1).status == Status.COMPLETE
    assert semi1.completed_at is not None
    assert fresh(final).side_a == e[3]
    assert fresh(third).side_a == e[0]
    assert final.status == Status.WAITING
    play(semi2, "A")
    assert fresh(final).side_b == e[1]
    assert final.status == Status.READY
    assert fresh(third).status == Status.READY
    assert {final.table, third.table} == {1, 2}
    assert AuditEntry.objects.filter(tournament=t, action="match confirmed").count() == 2


def test_confirm_refused_unless_awaiting():
    _t, _e, semi1, *_ = four_player_bracket()
    with pytest.raises(ValidationError, match="awaiting confirmation"):
        services.confirm_match(match=semi1)
    assert fresh(semi1).status == Status.READY


def test_caller_instance_is_updated():
    _t, _e, semi1, *_ = four_player_bracket()
    progress(semi1, winner="A")
    services.confirm_match(match=semi1)
    assert semi1.status == Status.COMPLETE


def test_tournament_finishes_with_its_last_match_and_resumes_on_reopen():
    t, _e, semi1, semi2, final, third = four_player_bracket()
    for match in (semi1, semi2, final):
        play(match)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    play(third)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    services.reopen_match(match=fresh(third))
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


# -- tables -----------------------------------------------------------------------------------


def test_queued_match_gets_the_next_free_table():
    t = make_tournament(tables=1, status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=4)
    first = make_match(tournament=t, key="RR1-1", a=e[0], b=e[1], round=1, position=1)
    second = make_match(tournament=t, key="RR1-2", a=e[2], b=e[3], round=1, position=2)
    services.assign_tables(tournament=t)
    assert (fresh(first).table, fresh(second).table) == (1, None)
    assert second.queued_at is not None
    assert services.assign_tables(tournament=t) == []
    play(first)
    assert fresh(first).table == 1  # kept as the record of where it was played
    assert fresh(second).table == 1


def test_queue_order_is_lowest_round_then_position():
    t = make_tournament(tables=2, status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=8)
    late = make_match(tournament=t, key="M4", a=e[0], b=e[1], round=2, position=1)
    second = make_match(tournament=t, key="M3", a=e[2], b=e[3], round=1, position=2)
    first = make_match(tournament=t, key="M2", a=e[4], b=e[5], round=1, position=1)
    services.assign_tables(tournament=t)
    assert (fresh(first).table, fresh(second).table, fresh(late).table) == (1, 2, None)


def test_table_constraint_one_unfinished_match_per_table():
    from django.db import IntegrityError, transaction

    t = make_tournament()
    e = make_entries(tournament=t, count=4)
    make_match(tournament=t, a=e[0], b=e[1], table=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_match(tournament=t, a=e[2], b=e[3], table=3)
    make_match(tournament=t, a=e[2], b=e[3], table=3, status=Status.COMPLETE, winner_side="A")


# -- walkovers and withdrawals ---------------------------------------------------------------


def test_forfeit_advances_the_named_side():
    t, e, semi1, _s2, final, third = four_player_bracket()
    services.forfeit(match=semi1, winner_side="B", user=t.owner)
    assert fresh(semi1).status == Status.COMPLETE
    assert semi1.forfeit and semi1.winner_side == "B"
    assert fresh(final).side_a == e[3]
    assert fresh(third).side_a == e[0]
    entry = AuditEntry.objects.get(tournament=t, action="walkover")
    assert entry.user == t.owner
    assert entry.after["winner_side"] == "B"


@pytest.mark.parametrize("side", ["", "C", None])
def test_forfeit_needs_a_side(side):
    _t, _e, semi1, *_ = four_player_bracket()
    with pytest.raises(ValidationError):
        services.forfeit(match=semi1, winner_side=side, user=None)
    assert fresh(semi1).status == Status.READY


def test_forfeit_refused_on_complete_or_unknown_players():
    _t, _e, semi1, _s2, final, _third = four_player_bracket()
    with pytest.raises(ValidationError, match="Both players"):
        services.forfeit(match=final, winner_side="A", user=None)
    play(semi1)
    with pytest.raises(ValidationError, match="already complete"):
        services.forfeit(match=fresh(semi1), winner_side="B", user=None)


def test_withdrawal_gives_the_opponent_a_walkover_now_and_later():
    t, e, semi1, semi2, final, third = four_player_bracket()
    services.withdraw(entry=e[0], user=t.owner)
    assert fresh(semi1).status == Status.COMPLETE
    assert semi1.forfeit and semi1.winner == e[3]
    # Player 2 withdraws before their opponent in the final is known.
    play(semi2, "A")
    services.withdraw(entry=e[1], user=t.owner)
    assert fresh(final).status == Status.COMPLETE
    assert final.winner == e[3]
    # Player 1 lost semi 1 by withdrawing: the third-place match is a walkover too.
    assert fresh(third).status == Status.COMPLETE
    assert third.forfeit and third.winner == e[2]
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert AuditEntry.objects.filter(tournament=t, action="entry withdrawn").count() == 2


def test_withdrawn_player_arriving_later_loses_by_walkover():
    t, e, semi1, semi2, final, _third = four_player_bracket(third_place=False)
    play(semi1, "A")
    services.withdraw(entry=e[0], user=t.owner)
    assert fresh(final).status == Status.WAITING
    play(semi2, "B")
    assert fresh(final).status == Status.COMPLETE
    assert final.forfeit and final.winner == e[2]


def test_withdraw_twice_is_refused():
    t, e, *_ = four_player_bracket()
    services.withdraw(entry=e[0], user=t.owner)
    with pytest.raises(ValidationError, match="already withdrawn"):
        services.withdraw(entry=e[0], user=t.owner)


# -- reopening and blocking ------------------------------------------------------------------


def test_reopen_takes_players_back_out_and_frees_the_table():
    _t, _e, semi1, semi2, final, third = four_player_bracket(tables=2)
    play(semi1, "A")
    play(semi2, "A")
    assert fresh(final).status == Status.READY
    assert services.blocking_match(fresh(semi1)) is None
    services.reopen_match(match=semi1)
    assert fresh(semi1).status == Status.AWAITING
    assert fresh(final).side_a is None and final.status == Status.WAITING
    assert final.table is None
    assert fresh(third).side_a is None and third.table is None
    assert semi1.table == 1  # free again, so it keeps its table


def test_reopen_refused_naming_the_match_that_started():
    _t, e, semi1, semi2, final, _third = four_player_bracket()
    play(semi1, "A")
    play(semi2, "A")
    progress(fresh(final))
    assert services.blocking_match(fresh(semi1)) == final
    with pytest.raises(ValidationError, match="Round 2 · Match 1") as info:
        services.reopen_match(match=semi1)
    assert e[0].player.name in str(info.value)
    assert fresh(semi1).status == Status.COMPLETE
    with pytest.raises(ValidationError, match="already started"):
        progress(fresh(semi1), winner="B")
    assert fresh(semi1).winner_side == "A"


def test_reopen_looks_through_byes():
    t = make_tournament(status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=3)
    final = make_match(tournament=t, key="W3-1", round=3, position=1, status=Status.WAITING)
    bye_round = make_match(
        tournament=t,
        key="W2-1",
        round=2,
        position=1,
        status=Status.WAITING,
        next_match=final,
        next_slot="A",
    )
    first = make_match(
        tournament=t,
        key="W1-1",
        a=e[0],
        b=e[1],
        round=1,
        position=1,
        next_match=bye_round,
        next_slot="A",
    )
    other = make_match(
        tournament=t,
        key="W2-2",
        a=e[2],
        b=None,
        round=2,
        position=2,
        next_match=final,
        next_slot="B",
        status=Status.WAITING,
    )
    services.assign_tables(tournament=t)
    # W2-2 has an empty slot nobody feeds: assign_tables does not settle; confirm does.
    play(first, "A")
    assert fresh(bye_round).status == Status.COMPLETE and bye_round.is_bye
    assert fresh(final).side_a == e[0]
    assert services.blocking_match(fresh(first)) is None
    services.reopen_match(match=first)
    assert fresh(bye_round).status == Status.WAITING
    assert fresh(final).side_a is None
    assert fresh(other).side_a == e[2]


def test_blocking_is_none_for_unfinished_matches():
    _t, _e, semi1, *_ = four_player_bracket()
    assert services.blocking_match(semi1) is None


def test_reopen_refused_for_unfinished_match():
    _t, _e, semi1, *_ = four_player_bracket()
    with pytest.raises(ValidationError):
        services.reopen_match(match=semi1)


def test_reopen_drops_a_table_taken_meanwhile():
    t = make_tournament(tables=1, status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=4)
    first = make_match(tournament=t, key="RR1-1", a=e[0], b=e[1], round=1, position=1)
    second = make_match(tournament=t, key="RR1-2", a=e[2], b=e[3], round=1, position=2)
    services.assign_tables(tournament=t)
    play(first)
    assert fresh(second).table == 1
    services.reopen_match(match=fresh(first))
    assert fresh(first).status == Status.AWAITING and first.table is None


# -- grand final and reset --------------------------------------------------------------------


def grand_final(*, t=None):
    """Winners' final → GF side A, losers' final → GF side B, GF → GF2 (conditional)."""
    t = t or make_tournament(status=Tournament.Status.RUNNING)
    e = make_entries(tournament=t, count=4)
    gf2 = make_match(
        tournament=t,
        key="GF2",
        section=Match.Section.RESET,
        round=9,
        position=1,
        conditional=True,
        status=Status.WAITING,
    )
    gf = make_match(
        tournament=t,
        key="GF",
        section=Match.Section.FINAL,
        round=8,
        position=1,
        status=Status.WAITING,
        next_match=gf2,
        next_slot="A",
        loser_next_match=gf2,
        loser_next_slot="B",
    )
    wf = make_match(
        tournament=t,
        key="W2-1",
        a=e[0],
        b=e[1],
        round=2,
        position=1,
        next_match=gf,
        next_slot="A",
    )
    lf = make_match(
        tournament=t,
        key="L2-1",
        section=Match.Section.LOSERS,
        a=e[2],
        b=e[3],
        round=2,
        position=1,
        next_match=gf,
        next_slot="B",
    )
    return t, e, wf, lf, gf, gf2


def test_reset_is_skipped_when_the_winners_champion_wins_the_final():
    t, _e, wf, lf, gf, gf2 = grand_final()
    play(wf, "A")
    play(lf, "A")
    play(fresh(gf), "A")
    assert fresh(gf2).status == Status.COMPLETE
    assert gf2.is_skipped and gf2.side_a is None
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_reset_is_played_when_the_losers_champion_wins_the_final():
    t, e, wf, lf, gf, gf2 = grand_final()
    play(wf, "A")
    play(lf, "A")
    play(fresh(gf), "B")
    assert fresh(gf2).status == Status.READY
    assert (gf2.side_a, gf2.side_b) == (e[2], e[0])
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_reopening_the_final_brings_a_skipped_reset_back():
    _t, _e, wf, lf, gf, gf2 = grand_final()
    play(wf, "A")
    play(lf, "A")
    play(fresh(gf), "A")
    services.reopen_match(match=fresh(gf))
    assert fresh(gf2).status == Status.WAITING and not gf2.is_bye
    progress(fresh(gf), winner="B")
    services.confirm_match(match=fresh(gf))
    assert fresh(gf2).status == Status.READY


# -- rules lock -------------------------------------------------------------------------------


def test_lock_rules_once():
    t = make_tournament()
    services.lock_rules(tournament=t)
    first = t.rules_locked_at
    assert first is not None
    services.lock_rules(tournament=t)
    t.refresh_from_db()
    assert t.rules_locked_at == first
    assert AuditEntry.objects.filter(tournament=t, action="rules locked").count() == 1


def test_a_bracket_move_puts_back_nothing_it_did_not_change():
    # A confirmation reads the board, then a hand is written to a queued match (its row
    # was not locked: the move decides on another match). Giving it the freed table must
    # not put its old status back over the hand's.
    from django.utils import timezone

    from tournaments.movement import Board

    t, _e, semi1, semi2, _final, _third = four_player_bracket(tables=1)
    Match.objects.filter(pk=semi2.pk).update(table=None)
    progress(fresh(semi1), winner="A")
    board = Board.load(t, focus=semi1)
    started = timezone.now()
    Match.objects.filter(pk=semi2.pk).update(status=Status.IN_PLAY, started_at=started)
    board.complete(board.get(semi1), "A")
    board.assign_tables()
    board.save()
    semi2 = fresh(semi2)
    assert semi2.table == 1
    assert (semi2.status, semi2.started_at) == (Status.IN_PLAY, started)
