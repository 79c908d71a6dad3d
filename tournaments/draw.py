"""Making the bracket (the draw): registered players become matches, and back again.

:func:`generate_bracket` takes the players in seed order (withdrawn and, when check-in is
used, absent players left out), builds the pure bracket of :mod:`pairing.brackets`
and stores its matches, routes and tables in one transaction; a preview builds the same
without saving. :func:`clear_bracket` undoes it while nothing has been played. Like
:mod:`tournaments.services`, each write records its audit row and a user's mistake
raises ``ValidationError`` with a translated message, changing nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairing import brackets
from tournaments import audit, registration

from .models import Entry, Match, Tournament
from .movement import Board, Route, lock_tournament, store_matches
from .public_version import changed

Status = Match.Status


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
            ngettext(
                "A %(kind)s bracket takes at most %(limit)d players; %(count)d can play.",
                "A %(kind)s bracket takes at most %(limit)d players; %(count)d can play.",
                players,
            )
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
            ngettext(
                "This bracket cannot be made for %(count)d player: %(problem)s",
                "This bracket cannot be made for %(count)d players: %(problem)s",
                players,
            )
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
        playing, left_out = _players_for_bracket(tournament)
        if tournament.random_draw and tournament.draw_seed is None:
            tournament.draw_seed = brackets.new_draw_seed()
            if not preview:
                tournament.save(update_fields=["draw_seed", "updated"])
        bracket = _build_bracket(tournament, len(playing))
        matches, routes, board = _plan_matches(tournament, bracket, playing)
        plan = BracketPlan(bracket=bracket, entries=playing, left_out=left_out, matches=matches)
        if preview:
            return plan

        store_matches(matches, routes)
        board.user = user
        board.save_decisions()  # the byes, now that their matches exist
        _renumber_seeds(playing, left_out)
        start_running(
            tournament,
            action="bracket generated",
            obj=tournament,
            after={
                "bracket_kind": tournament.bracket_kind,
                "players": len(playing),
                "matches": len(matches),
                "draw_seed": tournament.draw_seed if tournament.random_draw else None,
                "seeds": {e.seed: e.name for e in playing},
            },
            user=user,
        )
        changed(tournament)
    return plan


def _players_for_bracket(tournament: Tournament) -> tuple[list[Entry], list[Entry]]:
    """:func:`playing_entries`, refused if there is a bracket already, the tournament is
    finished, or fewer than two can play."""
    if tournament.matches.exists():
        raise ValidationError(_("The bracket has already been generated."))
    if tournament.stages.exists():
        raise ValidationError(
            _("This tournament is played in stages: start it on the Stages page.")
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("This tournament is finished."))
    playing, left_out = playing_entries(tournament)
    registration.check_field(tournament, playing)
    check_enough_players(playing)
    return playing, left_out


def _plan_matches(
    tournament: Tournament, bracket: brackets.Bracket, playing: list[Entry]
) -> tuple[list[Match], dict[str, Route], Board]:
    """The bracket's matches, unsaved, with byes settled and tables assigned, their
    routes by key, and the board that settled them (holding the byes' decisions)."""
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
    return matches, routes, board


def check_enough_players(playing: list[Entry]) -> None:
    """A bracket, or a first stage, needs two players who can play."""
    if len(playing) < brackets.MIN_PLAYERS:
        raise ValidationError(
            ngettext(
                "A bracket needs at least two players; %(count)d can play.",
                "A bracket needs at least two players; %(count)d can play.",
                len(playing),
            )
            % {"count": len(playing)}
        )


def start_running(
    tournament: Tournament, *, action: str, obj: Any, after: dict[str, Any], user: Any
) -> None:
    """The tournament starts running (its bracket drawn, or its first stage begun); one
    audit row, ``action``, records the status and how it started (``after``)."""
    before_status = tournament.status
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status", "updated"])
    audit.record(
        tournament=tournament,
        action=action,
        obj=obj,
        before={"status": before_status},
        after={"status": tournament.status, **after},
        user=user,
    )


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


def first_played(matches: Iterable[Match]) -> Match | None:
    """The first match played into (in play, awaiting confirmation, or complete other than
    as a bye): while there is one, the bracket cannot be cleared."""
    return next(
        (
            m
            for m in matches
            if m.status in (Status.IN_PLAY, Status.AWAITING)
            or (m.status == Status.COMPLETE and not m.is_bye)
        ),
        None,
    )


def clear_bracket(*, tournament: Tournament, user: Any) -> int:
    """Delete a bracket nobody has played in yet (to change the format or the field).

    Refused once any match is in play, awaiting confirmation, or complete other than as
    a bye. Returns the number of matches deleted.
    """
    with transaction.atomic():
        lock_tournament(tournament)
        # Locked, so that a hand being entered in a ready match is waited for and seen.
        matches = list(
            Match.objects.filter(tournament=tournament)
            .order_by("pk")
            .select_for_update(no_key=True)
        )
        if not matches:
            raise ValidationError(_("There is no bracket to clear."))
        started = first_played(matches)
        if started:
            raise ValidationError(
                _("The bracket cannot be cleared: %(match)s has already been played into.")
                % {"match": started.label}
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
        changed(tournament)
    return len(matches)
