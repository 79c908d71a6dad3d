"""Every write to tournaments, matches and the registry goes through these functions.

Each is keyword-only, runs inside ``transaction.atomic`` and records one audit row per
change. A user's mistake raises :class:`django.core.exceptions.ValidationError` with a
translated message and changes nothing; views show the message. Routing (who plays whom
next, byes, tables) lives in :mod:`tournaments.routing`.

What this module does not do: permission checks (views do them, see
:mod:`tournaments.permissions`) or anything about hands (the scoring app calls
:func:`set_match_progress` and :func:`lock_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from . import audit, brackets
from .models import Entry, Match, Tournament
from .routing import OTHER, Board, Route, copy_state, lock_tournament

Status = Match.Status

MATCH_AUDIT_FIELDS = ("status", "winner_side", "side_a", "side_b", "table", "forfeit")


def _match_state(match: Match) -> dict[str, Any]:
    return audit.snapshot(match, MATCH_AUDIT_FIELDS)


def _finish_or_resume(board: Board) -> None:
    tournament = board.tournament
    if board.all_complete():
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
            match.save(update_fields=["score_a", "score_b", "total_a", "total_b"])
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


def confirm_match(*, match: Match, user: Any = None, via: str = "") -> Match:
    """AWAITING → COMPLETE: the result is signed off and both players move on."""
    with transaction.atomic():
        board = Board.load(match.tournament)
        current = board.get(match)
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
    with transaction.atomic():
        board = Board.load(match.tournament)
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
        if current.table is not None and any(
            m.table == current.table and m.status in (Status.READY, Status.IN_PLAY, Status.AWAITING)
            for m in board.matches.values()
            if m is not current
        ):
            current.table = None
        board.touch(current)
        _settle_move(board, current, match, "match reopened", before, user=user, via=via)
    return match


def forfeit(*, match: Match, winner_side: str, user: Any, via: str = "") -> Match:
    """A walkover: ``winner_side`` wins without (further) play and moves on."""
    if winner_side not in ("A", "B"):
        raise ValidationError(_("Choose side A or side B as the winner."))
    with transaction.atomic():
        board = Board.load(match.tournament)
        current = board.get(match)
        if current.status == Status.COMPLETE:
            raise ValidationError(_("This match is already complete."))
        if not current.has_both_sides:
            raise ValidationError(_("Both players must be known to award a walkover."))
        before = _match_state(current)
        board.complete(current, winner_side, forfeit=True)
        _settle_move(board, current, match, "walkover", before, user=user, via=via)
    return match


def withdraw(*, entry: Entry, user: Any, via: str = "") -> Entry:
    """Take a player out. Once the bracket exists, each unfinished match of theirs with a
    known opponent is a walkover for the opponent; later opponents get one on arrival."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
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
        board = Board.load(tournament)
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
) -> None:
    """After a match moved players on: tables, save, audit, and the caller's copy updated."""
    _after_routing(board)
    audit.record(
        tournament=board.tournament,
        action=action,
        obj=current,
        before=before,
        after=_match_state(current),
        user=user,
        via=via,
    )
    copy_state(current, match)


def _after_routing(board: Board) -> None:
    board.assign_tables()
    board.save()
    _finish_or_resume(board)


def assign_tables(*, tournament: Tournament, user: Any = None) -> list[Match]:
    """Give every playable match without a table the next free one. Idempotent: returns
    the matches that changed (none on a second call)."""
    with transaction.atomic():
        board = Board.load(tournament)
        board.assign_tables()
        changed = board.save()
        if changed:
            audit.record(
                tournament=tournament,
                action="tables assigned",
                after={m.key: m.table for m in changed},
                user=user,
            )
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


# -- bracket generation ---------------------------------------------------------------------


@dataclass
class BracketPlan:
    """What :func:`generate_bracket` made (or, for a preview, would make).

    ``entries`` are the players in bracket-seed order (seed 1 first); ``left_out`` are
    the entries not in the bracket (withdrawn, or not checked in when check-in is used);
    ``matches`` are Match objects in playing order, unsaved for a preview.
    """

    bracket: brackets.Bracket
    entries: list[Entry]
    left_out: list[Entry] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)

    def rounds(self) -> list[tuple[str, int, list[Match]]]:
        """(section, round, matches) groups in playing order, for display."""
        groups: dict[tuple[str, int], list[Match]] = {}
        for match in self.matches:
            groups.setdefault((match.section, match.round), []).append(match)
        return [(section, round_, group) for (section, round_), group in groups.items()]


def playing_entries(tournament: Tournament) -> tuple[list[Entry], list[Entry]]:
    """(in the bracket, left out). Withdrawn players are left out; once anyone is checked
    in, so is everyone who is not. Order: seed (unseeded last), then registration."""
    entries = list(tournament.entries.select_related("player"))
    checking_in = any(e.checked_in and not e.withdrawn for e in entries)
    playing = [e for e in entries if not e.withdrawn and (e.checked_in or not checking_in)]
    left_out = [e for e in entries if e not in playing]
    return playing, left_out


def _build_bracket(tournament: Tournament, players: int) -> brackets.Bracket:
    kind = tournament.bracket_kind
    draw_seed = tournament.draw_seed if tournament.random_draw else None
    if kind == Tournament.BracketKind.ROUND_ROBIN:
        limit = brackets.MAX_ROUND_ROBIN_PLAYERS
    else:
        limit = brackets.MAX_PLAYERS
    if players > limit:
        raise ValidationError(
            _("A %(kind)s bracket takes at most %(limit)d players; %(count)d can play.")
            % {"kind": tournament.get_bracket_kind_display(), "limit": limit, "count": players}
        )
    try:
        if kind == Tournament.BracketKind.SINGLE_ELIMINATION:
            return brackets.single_elimination(
                players,
                third_place=tournament.third_place,
                consolation=tournament.consolation,
                draw_seed=draw_seed,
            )
        if kind == Tournament.BracketKind.DOUBLE_ELIMINATION:
            return brackets.double_elimination(
                players, reset=tournament.bracket_reset, draw_seed=draw_seed
            )
        if kind == Tournament.BracketKind.ROUND_ROBIN:
            return brackets.round_robin(players)
    except ValueError as error:
        raise ValidationError(
            _("This bracket cannot be made for %(count)d players: %(problem)s")
            % {"count": players, "problem": error}
        ) from error
    raise ValidationError(_("Unknown bracket format %(kind)s.") % {"kind": kind})


def generate_bracket(*, tournament: Tournament, user: Any, preview: bool = False) -> BracketPlan:
    """Turn the registered players into matches.

    Entries are taken in seed order (withdrawn and, when check-in is used, absent players
    left out) and renumbered 1..n. Byes complete by themselves and their players move on;
    matches with both players known become ready and get tables, the rest queue. The
    tournament starts running. With ``preview`` nothing is saved and the returned plan
    holds unsaved matches showing exactly what would be stored.
    """
    with transaction.atomic():
        if not preview:
            # Serialises two directors pressing "generate" at once.
            lock_tournament(tournament)
        if tournament.matches.exists():
            raise ValidationError(_("The bracket has already been generated."))
        if tournament.status == Tournament.Status.FINISHED:
            raise ValidationError(_("This tournament is finished."))
        playing, left_out = playing_entries(tournament)
        if len(playing) < brackets.MIN_PLAYERS:
            raise ValidationError(
                _("A bracket needs at least two players; %(count)d can play.")
                % {"count": len(playing)}
            )
        if tournament.random_draw and tournament.draw_seed is None:
            tournament.draw_seed = brackets.new_draw_seed()
            if not preview:
                tournament.save(update_fields=["draw_seed", "updated"])
        bracket = _build_bracket(tournament, len(playing))
        matches = [
            Match(
                tournament=tournament,
                key=spec.key,
                section=spec.section.value,
                round=spec.round,
                position=spec.position,
                side_a=playing[spec.a.seed - 1] if spec.a.seed is not None else None,
                side_b=playing[spec.b.seed - 1] if spec.b.seed is not None else None,
                conditional=spec.conditional,
            )
            for spec in bracket.matches
        ]
        routes = {
            spec.key: Route(winner_to=spec.winner_to, loser_to=spec.loser_to)
            for spec in bracket.matches
        }
        board = Board(tournament, matches, routes, withdrawn=set())
        board.settle_all()
        board.assign_tables()
        plan = BracketPlan(bracket=bracket, entries=playing, left_out=left_out, matches=matches)
        if preview:
            return plan

        _store(matches, routes)
        _renumber_seeds(playing, left_out)
        before_status = tournament.status
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated"])
        audit.record(
            tournament=tournament,
            action="bracket generated",
            obj=tournament,
            before={"status": before_status},
            after={
                "status": tournament.status,
                "bracket_kind": tournament.bracket_kind,
                "players": len(playing),
                "matches": len(matches),
                "draw_seed": tournament.draw_seed if tournament.random_draw else None,
                "seeds": {e.seed: e.player.name for e in playing},
            },
            user=user,
        )
    return plan


def _store(matches: list[Match], routes: dict[str, Route]) -> None:
    """Insert the matches so every route points at a row that already exists: layer by
    layer from the final backwards, one INSERT per layer (no second pass of UPDATEs)."""
    depth: dict[str, int] = {}
    for match in reversed(matches):  # playing order: every target comes later
        route = routes[match.key]
        targets = [t[0] for t in (route.winner_to, route.loser_to) if t is not None]
        depth[match.key] = 1 + max((depth[key] for key in targets), default=-1)
    by_key = {m.key: m for m in matches}
    for layer in range(max(depth.values(), default=-1) + 1):
        batch = [m for m in matches if depth[m.key] == layer]
        for match in batch:
            route = routes[match.key]
            if route.winner_to:
                match.next_match = by_key[route.winner_to[0]]
                match.next_slot = route.winner_to[1]
            if route.loser_to:
                match.loser_next_match = by_key[route.loser_to[0]]
                match.loser_next_slot = route.loser_to[1]
        Match.objects.bulk_create(batch, batch_size=500)


def _renumber_seeds(playing: list[Entry], left_out: list[Entry]) -> None:
    """Seeds become the bracket's 1..n; players left out lose theirs."""
    wanted = {e.pk: n for n, e in enumerate(playing, start=1)} | {e.pk: None for e in left_out}
    changing = [e for e in playing + left_out if e.seed != wanted[e.pk]]
    if not changing:
        return
    # Clear first: seeds are unique per tournament and may be swapping places.
    Entry.objects.filter(pk__in=[e.pk for e in changing]).update(seed=None)
    for entry in changing:
        entry.seed = wanted[entry.pk]
        if entry.seed is not None:
            Entry.objects.filter(pk=entry.pk).update(seed=entry.seed)


def clear_bracket(*, tournament: Tournament, user: Any) -> int:
    """Delete a bracket nobody has played in yet (to change the format or the field).

    Refused once any match is in play, awaiting confirmation, or complete other than as
    a bye. Returns the number of matches deleted.
    """
    with transaction.atomic():
        lock_tournament(tournament)
        matches = list(Match.objects.filter(tournament=tournament))
        if not matches:
            raise ValidationError(_("There is no bracket to clear."))
        started = [
            m
            for m in matches
            if m.status in (Status.IN_PLAY, Status.AWAITING)
            or (m.status == Status.COMPLETE and not m.is_bye)
        ]
        if started:
            raise ValidationError(
                _("The bracket cannot be cleared: %(match)s has already been played into.")
                % {"match": started[0].label}
            )
        # Routes point at other matches of the same bracket: unlink, then delete.
        Match.objects.filter(tournament=tournament).update(next_match=None, loser_next_match=None)
        Match.objects.filter(tournament=tournament).delete()
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save(update_fields=["status", "updated"])
        audit.record(
            tournament=tournament,
            action="bracket cleared",
            obj=tournament,
            before={"matches": len(matches)},
            after={"status": tournament.status},
            user=user,
        )
    return len(matches)
