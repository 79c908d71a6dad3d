"""Writes to matches as they are played: progress from the hands, confirmation, reopening,
walkovers, withdrawals, tables and the rules lock.

Every write of the tournaments app goes through a service module, never a view or a
model's ``save()``: this one, :mod:`tournaments.draw` (generating and clearing the
bracket), :mod:`tournaments.organising` (creating a tournament; its details, rules, status
and roles), :mod:`tournaments.registration` (entries, seeds, check-in) and
:mod:`players.registry` (the club's players). Each function is keyword-only, runs
inside ``transaction.atomic`` and records one audit row per change. A user's mistake
raises :class:`django.core.exceptions.ValidationError` with a translated message and
changes nothing; views show the message. Routing (who plays whom next, byes, tables)
lives in :mod:`tournaments.movement`, with the order in which every write takes its locks.

A confirmation or a walkover is given on a page that showed the match at some
:attr:`Match.version`; the view passes it on, and the write is refused if the hands have
changed since ("nothing is changed that the person did not see").

What this module does not do: permission checks (views do them, see
:mod:`tournaments.permissions`) or anything about hands (the scoring app calls
:func:`set_match_progress` and :func:`lock_rules`).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from . import audit
from .models import Decision, Entry, Match, Stage, Tournament
from .movement import OTHER, Board, Pending, copy_state, lock_tournament
from .public_version import changed as public_changed
from .public_version import changing
from .stages.progress import finished

Status = Match.Status

MATCH_AUDIT_FIELDS = ("status", "winner_side", "side_a", "side_b", "table", "forfeit")


def _match_state(match: Match) -> dict[str, Any]:
    return audit.snapshot(match, MATCH_AUDIT_FIELDS)


def _finish_or_resume(board: Board) -> None:
    tournament = board.tournament
    staged = any(m.stage_id for m in board.matches.values())
    if board.all_complete() and (not staged or finished(tournament, list(board.matches.values()))):
        new_status = Tournament.Status.FINISHED
    elif tournament.status == Tournament.Status.FINISHED:
        new_status = Tournament.Status.RUNNING
    else:
        return
    if tournament.status != new_status:
        Tournament.objects.filter(pk=tournament.pk).update(status=new_status)
        tournament.status = new_status


# -- match progress (called by scoring in the same transaction as each hand write) -----------


def set_match_progress(
    *,
    match: Match,
    score_a: int,
    score_b: int,
    total_a: int,
    total_b: int,
    decided_winner: str | None,
    has_hands: bool,
    user: Any = None,
    via: str = "",
) -> Match:
    """Store the match summary the engine computed from the hands.

    Status becomes READY (no hands), IN_PLAY, or AWAITING confirmation once a winner is
    decided. On a COMPLETE match a correction that keeps the winner only updates the
    summary; one that changes or removes the winner reopens the match first, which is
    refused (ValidationError naming the blocking match) if a later match has started.
    Refusals leave the caller's transaction usable.
    """
    if decided_winner not in (None, "", "A", "B"):
        raise ValueError(f"decided_winner must be 'A', 'B' or None, not {decided_winner!r}")
    summary = (score_a, score_b, total_a, total_b)
    decided = decided_winner or ""
    if match.status != Status.COMPLETE:
        return _store_progress(match, summary, decided, has_hands, user=user, via=via)
    # A correction to a confirmed match (rare): a savepoint, so that a refused reopen
    # leaves the caller's transaction as it was.
    with transaction.atomic():
        if decided and decided == match.winner_side and not match.forfeit:
            match.score_a, match.score_b, match.total_a, match.total_b = summary
            Match.objects.filter(pk=match.pk).update(
                score_a=score_a,
                score_b=score_b,
                total_a=total_a,
                total_b=total_b,
                version=F("version") + 1,
            )
            match.version += 1
            return match
        reopen_match(match=match, user=user, via=via)
        return _store_progress(match, summary, decided, has_hands, user=user, via=via)


def _store_progress(
    match: Match,
    summary: tuple[int, int, int, int],
    decided: str,
    has_hands: bool,
    *,
    user: Any,
    via: str,
) -> Match:
    if not match.has_both_sides or match.status == Status.WAITING:
        raise ValidationError(_("The players of this match are not known yet."))
    # No savepoint (this runs for every hand entered): nothing below refuses, and an
    # error rolls the caller's whole transaction back.
    with transaction.atomic(savepoint=False):
        before = match.status
        if decided:
            status = Status.AWAITING
        elif has_hands:
            status = Status.IN_PLAY
        else:
            status = Status.READY
        if has_hands and match.started_at is None:
            started_at = timezone.now()
        else:
            started_at = match.started_at if has_hands else None
        changes = {
            "status": status,
            "winner_side": decided,
            **dict(zip(("score_a", "score_b", "total_a", "total_b"), summary, strict=True)),
            "started_at": started_at,
        }
        # The caller read the row under its lock: its version is the stored one (a plain
        # value here, not F("version") + 1, which costs the hottest write a few per cent).
        changes["version"] = match.version + 1
        # One UPDATE of these columns; cheaper than Model.save on the hottest write.
        Match.objects.filter(pk=match.pk).update(**changes)
        for name, value in changes.items():
            setattr(match, name, value)
        if status != before:
            audit.record(
                tournament=match.tournament,
                action="match status",
                obj=match,
                before={"status": before},
                after={"status": status, "winner_side": decided},
                user=user,
                via=via,
            )
    return match


def _check_version(current: Match, version: int | str | None) -> None:
    """``version``: what the person's page showed (:attr:`Match.version`); None for
    callers with no page (scripts, the demo)."""
    if version is not None and str(version) != str(current.version):
        raise ValidationError(
            _(
                "The match changed since you opened this page, so nothing was done: "
                "check it, then try again."
            ),
            code="changed",
        )


def confirm_match(
    *, match: Match, user: Any = None, via: str = "", version: int | str | None = None
) -> Match:
    """AWAITING → COMPLETE: the result is signed off and both players move on. Refused if
    the hands changed since the page that confirms showed ``version``."""
    with changing(match.tournament_id):
        board = Board.load(match.tournament, focus=match)
        current = board.get(match)
        if current.status == Status.COMPLETE:
            raise ValidationError(_("This match is already complete."), code="complete")
        _check_version(current, version)
        if current.status != Status.AWAITING or not current.winner_side:
            raise ValidationError(_("Only a match awaiting confirmation can be confirmed."))
        before = _match_state(current)
        board.complete(current, current.winner_side)
        _settle_move(board, current, match, "match confirmed", before, user=user, via=via)
    return match


def blocking_match(match: Match) -> Match | None:
    """For a COMPLETE match: the next match (for its winner or loser) that has already
    started, looking through byes that completed by themselves; else None."""
    if match.status != Status.COMPLETE:
        return None
    board = Board.load(match.tournament, lock=False)
    return board.blocking(board.get(match))


def _blocked_error(blocking: Match) -> ValidationError:
    return ValidationError(
        _(
            "This result cannot change: %(match)s (%(a)s v %(b)s) has already started. "
            "Correct that match first."
        )
        % {
            "match": blocking.label,
            "a": blocking.side_name("A"),
            "b": blocking.side_name("B"),
        },
        code="blocked",
    )


def reopen_match(*, match: Match, user: Any = None, via: str = "") -> Match:
    """COMPLETE → AWAITING, taking the players it sent on back out of later matches."""
    with changing(match.tournament_id):
        board = Board.load(match.tournament, whole=True)  # its next matches decide too
        current = board.get(match)
        if current.status != Status.COMPLETE:
            raise ValidationError(_("Only a complete match can be reopened."))
        if current.is_bye:
            raise ValidationError(_("A bye has no result to reopen."))
        blocking = board.blocking(current)
        if blocking is not None:
            raise _blocked_error(blocking)
        before = _match_state(current)
        board.retract(current)
        current.status = Status.AWAITING
        current.completed_at = None
        current.forfeit = False
        board.take_back(current)  # a walkover or a decision on time no longer holds
        if current.decided_on_time:
            Match.objects.filter(pk=current.pk).update(decided_on_time=False)
            current.decided_on_time = match.decided_on_time = False
        if current.table is not None and any(
            m.table == current.table and m.status in (Status.READY, Status.IN_PLAY, Status.AWAITING)
            for m in board.matches.values()
            if m is not current
        ):
            current.table = None
        board.touch(current)
        _settle_move(board, current, match, "match reopened", before, user=user, via=via)
    return match


def forfeit(
    *,
    match: Match,
    winner_side: str,
    user: Any,
    via: str = "",
    version: int | str | None = None,
) -> Match:
    """A walkover: ``winner_side`` wins without (further) play and moves on. Refused if
    the hands changed since the page that gives it showed ``version``."""
    if winner_side not in ("A", "B"):
        raise ValidationError(_("Choose side A or side B as the winner."))
    with changing(match.tournament_id):
        board = Board.load(match.tournament, focus=match)
        current = board.get(match)
        if current.status == Status.COMPLETE:
            raise ValidationError(_("This match is already complete."), code="complete")
        _check_version(current, version)
        if not current.has_both_sides:
            raise ValidationError(_("Both players must be known to award a walkover."))
        before = _match_state(current)
        board.complete(current, winner_side, forfeit=True)
        _settle_move(board, current, match, "walkover", before, user=user, via=via)
    return match


def decide_on_time(
    *,
    match: Match,
    winner_side: str,
    user: Any,
    via: str = "",
    ruling: bool = False,
    hands: int = 0,
    basis: dict[str, Any] | None = None,
) -> Match:
    """Time was called: ``winner_side``, leading by the procedure the director chose
    (:mod:`scoring.timing` works it out from the hands), wins, or, with ``ruling``, the
    director's choice in a match level on time. The match records that it was decided on
    time, and the decision is stored with the ``hands`` it read and its ``basis`` (the
    procedure, the score at the call; a ruling's reason)."""
    if winner_side not in ("A", "B"):
        raise ValidationError(_("Choose side A or side B as the winner."))
    kind = Decision.Kind.RULING if ruling else Decision.Kind.TIME
    with changing(match.tournament_id):
        board = Board.load(match.tournament, focus=match)
        current = board.get(match)
        if current.status == Status.COMPLETE:
            raise ValidationError(_("This match is already complete."), code="complete")
        if not current.has_both_sides:
            raise ValidationError(_("Both players must be known to award a walkover."))
        before = _match_state(current)
        board.complete(current, winner_side)
        board.decided[current.key] = Pending(kind, winner_side, hands=hands, basis=basis or {})
        current.decided_on_time = True
        Match.objects.filter(pk=current.pk).update(decided_on_time=True)
        action, said = "decided on time", {}
        if ruling:  # the audit log says on what basis
            action, said = "ruling", {"reason": str((basis or {}).get("reason", ""))}
            before = {**before, "reason": ""}
        _settle_move(board, current, match, action, before, user=user, via=via, said=said)
        match.decided_on_time = True
    return match


def withdraw(*, entry: Entry, user: Any, via: str = "") -> Entry:
    """Take a player out. Once the bracket exists, each unfinished match of theirs with a
    known opponent is a walkover for the opponent; later opponents get one on arrival."""
    with changing(entry.tournament_id):
        lock_tournament(entry.tournament_id)  # before the entry row: the lock order
        entry = Entry.objects.select_for_update(no_key=True).get(pk=entry.pk)
        if entry.withdrawn:
            raise ValidationError(_("%(player)s has already withdrawn.") % {"player": entry})
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        tournament = entry.tournament
        audit.record(
            tournament=tournament,
            action="entry withdrawn",
            obj=entry,
            before={"withdrawn": False},
            after={"withdrawn": True},
            user=user,
            via=via,
        )
        board = Board.load(tournament, whole=True)  # every match of the player's may change
        board.user, board.via = user, via
        if board.matches:
            for current in sorted(board.matches.values(), key=lambda m: (m.round, m.position)):
                if current.status == Status.COMPLETE or not current.has_both_sides:
                    continue
                for side in ("A", "B"):
                    if current.entry_id(side) == entry.pk:
                        before = _match_state(current)
                        board.complete(current, OTHER[side], forfeit=True)
                        audit.record(
                            tournament=tournament,
                            action="walkover (withdrawal)",
                            obj=current,
                            before=before,
                            after=_match_state(current),
                            user=user,
                            via=via,
                        )
                        break
            _after_routing(board)
    return entry


def _settle_move(
    board: Board,
    current: Match,
    match: Match,
    action: str,
    before: dict[str, Any],
    *,
    user: Any,
    via: str,
    said: dict[str, Any] | None = None,
) -> None:
    """After a match moved players on: tables, save (with the decisions ``user`` made),
    audit (with what ``said`` adds, a ruling's reason), and the caller's copy updated."""
    board.user, board.via = user, via
    _after_routing(board)
    audit.record(
        tournament=board.tournament,
        action=action,
        obj=current,
        before=before,
        after={**_match_state(current), **(said or {})},
        user=user,
        via=via,
    )
    copy_state(current, match)


def _after_routing(board: Board) -> None:
    board.assign_tables()
    board.save()
    _finish_or_resume(board)


def assign_tables(
    *, tournament: Tournament, user: Any = None, call: bool | None = None
) -> list[Match]:
    """Give every playable match without a table the next free one (``call`` as
    :meth:`Board.assign_tables`: the director's button calls them whatever the setting).
    Idempotent: returns the matches that changed (none on a second call)."""
    with transaction.atomic():
        board = Board.load(tournament)
        board.assign_tables(call=call)
        changed = board.save()
        if changed:
            audit.record(
                tournament=tournament,
                action="tables assigned",
                after={m.key: m.table for m in changed},
                user=user,
            )
            public_changed(tournament)
    return changed


# -- rules -----------------------------------------------------------------------------------


def lock_rules(*, tournament: Tournament, user: Any = None, via: str = "") -> Tournament:
    """Freeze the rules snapshot (scoring calls this when the first hand is entered)."""
    with transaction.atomic():
        now = timezone.now()
        updated = Tournament.objects.filter(pk=tournament.pk, rules_locked_at__isnull=True).update(
            rules_locked_at=now
        )
        if updated:
            tournament.rules_locked_at = now
            audit.record(
                tournament=tournament,
                action="rules locked",
                obj=tournament,
                after={"rules_locked_at": now},
                user=user,
                via=via,
            )
        elif tournament.rules_locked_at is None:
            tournament.refresh_from_db(fields=["rules_locked_at"])
    return tournament


def lock_match_rules(match: Match, *, user: Any = None, via: str = "") -> None:
    """A hand was scored in ``match``: the tournament's rules lock with its first hand
    (:func:`lock_rules`) and the match's stage's rules with the stage's first."""
    if match.tournament.rules_locked_at is None:
        lock_rules(tournament=match.tournament, user=user, via=via)
    lock_stage_rules(match)


def lock_stage_rules(match: Match) -> None:
    """A stage's rules lock with its first hand."""
    if match.stage_id is not None and match.stage.rules_locked_at is None:
        Stage.objects.filter(pk=match.stage_id, rules_locked_at__isnull=True).update(
            rules_locked_at=timezone.now()
        )


def rules_locked_error(tournament: Tournament) -> ValidationError:
    locked_at = timezone.localtime(tournament.rules_locked_at)
    return ValidationError(
        _(
            "The rules are locked: hands have been scored under them since %(when)s, "
            "and changing them now would rewrite results."
        )
        % {"when": date_format(locked_at, "DATETIME_FORMAT")},
        code="rules_locked",
    )
