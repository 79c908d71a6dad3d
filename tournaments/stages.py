"""Running a tournament in stages: adding stages, starting the first, pairing Swiss rounds,
closing a stage and cutting its top players into the next, a lucky loser.

A tournament with no :class:`~tournaments.models.Stage` rows is one bracket, run by
:mod:`tournaments.draw` as always. Once it has stages, :func:`start` begins stage 1 with
the registered players (seed order), and :func:`close_stage` ranks a finished stage by
its tiebreaks (:mod:`tournaments.tiebreaks`), takes the top K overall or of each pool
(:mod:`tournaments.cut`) and begins the next stage with them: a Swiss stage is paired
round by round (:mod:`tournaments.swiss`, from a recorded seed), pools and knockouts are
generated whole (:mod:`tournaments.brackets`). The matches are stored and moved through
by the same :class:`~tournaments.routing.Board` as a one-bracket tournament's, so hand
entry, table links, confirmations, walkovers and withdrawals are unchanged.

Like the other services, each function is keyword-only, atomic and audited, and a
user's mistake raises ``ValidationError`` with a translated message, changing nothing.

What this module does not do: permission checks (views), scoring (the scoring app), or
deciding matches on time (:mod:`scoring.timing`, which needs the engine's sheets).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import ScoringError, resolve_rules

from . import audit, brackets, cut
from .changes import changed
from .draw import _store, playing_entries
from .models import Entry, Match, Stage, Tournament
from .routing import Board, Route, lock_tournament
from .swiss import SwissPlayer, pair_round
from .tiebreaks import MatchResult, StandingRow, Tiebreak, standings

Kind = Stage.Kind
Status = Match.Status

FINAL = "final"


# -- reading ---------------------------------------------------------------------------------


def stage_results(matches: Iterable[Match]) -> list[MatchResult]:
    """The finished matches of a stage as the tiebreaks read them (skipped byes left out)."""
    results = []
    for m in matches:
        if m.status != Status.COMPLETE or not m.winner_side:
            continue
        winner = m.entry_id(m.winner_side)
        if m.is_bye or not m.has_both_sides:
            results.append(MatchResult(a=winner, b=None, winner=winner))
            continue
        results.append(
            MatchResult(
                a=m.side_a_id,
                b=m.side_b_id,
                winner=winner,
                games_a=0 if m.forfeit else m.score_a,
                games_b=0 if m.forfeit else m.score_b,
                points_a=0 if m.forfeit else m.total_a,
                points_b=0 if m.forfeit else m.total_b,
            )
        )
    return results


def stage_players(stage: Stage, matches: Iterable[Match]) -> list[int]:
    """Everyone in the stage, in seed order: its entrants, then anyone else who played."""
    players = [int(pk) for pk in stage.entrants]
    known = set(players)
    for m in matches:
        for pk in (m.side_a_id, m.side_b_id):
            if pk is not None and pk not in known:
                players.append(pk)
                known.add(pk)
    return players


def stage_standings(stage: Stage, matches: Sequence[Match]) -> list[list[StandingRow]]:
    """The stage's standings by its tiebreaks: one list, or one per pool."""
    order = [Tiebreak(name) for name in stage.tiebreak_names]
    mine = [m for m in matches if m.stage_id == stage.pk]
    if stage.kind == Kind.ROUND_ROBIN and stage.pools:
        tables = []
        for pool in stage.pools:
            members = [int(pk) for pk in pool]
            inside = set(members)
            pool_matches = [m for m in mine if m.side_a_id in inside or m.side_b_id in inside]
            tables.append(standings(members, stage_results(pool_matches), order))
        return tables
    rows = standings(stage_players(stage, mine), stage_results(mine), order)
    if stage.start_points:
        rows = _with_start_points(stage, rows, mine, order)
    return [rows]


def _with_start_points(
    stage: Stage, rows: list[StandingRow], mine: Sequence[Match], order: list[Tiebreak]
) -> list[StandingRow]:
    """Late entries' starting points: counted as byes won before they came (a bye adds to
    match points and nothing else, as the director's score should)."""
    players = stage_players(stage, mine)
    extra = [
        MatchResult(a=int(pk), b=None, winner=int(pk))
        for pk, points in stage.start_points.items()
        for _n in range(int(points))
    ]
    return standings(players, [*stage_results(mine), *extra], order)


def current_round(matches: Iterable[Match]) -> int:
    return max((m.round for m in matches), default=0)


def current_stage(stages: Sequence[Stage]) -> Stage | None:
    """The stage being played: the running one, else the last closed, else the first."""
    for stage in stages:
        if stage.status == Stage.Status.RUNNING:
            return stage
    closed = [s for s in stages if s.status == Stage.Status.CLOSED]
    if closed:
        return closed[-1]
    return stages[0] if stages else None


def finished(tournament: Tournament, matches: Sequence[Match]) -> bool:
    """Whether a staged tournament has played its last stage to the end."""
    last = Stage.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None or last.status == Stage.Status.PENDING:
        return False
    mine = [m for m in matches if m.stage_id == last.pk]
    if not mine or any(m.status != Status.COMPLETE for m in mine):
        return False
    return last.kind != Kind.SWISS or current_round(mine) >= (last.rounds or 0)


def late_entries_open(tournament: Tournament) -> bool:
    """Players may still join: the first stage is a running Swiss stage."""
    first = Stage.objects.filter(tournament=tournament, number=1).first()
    return (
        first is not None
        and first.kind == Kind.SWISS
        and first.status == Stage.Status.RUNNING
        and Stage.objects.filter(tournament=tournament, number=2, status="running").count() == 0
    )


# -- setting stages up -----------------------------------------------------------------------


def add_stage(
    *,
    tournament: Tournament,
    user: Any,
    kind: str,
    name: str = "",
    rounds: int | None = None,
    pool_size: int | None = None,
    advance: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    rules: dict[str, Any] | None = None,
    round_rules: dict[str, dict[str, Any]] | None = None,
    third_place: bool = False,
    bracket_reset: bool = True,
) -> Stage:
    """Add a stage after the others. Refused once the tournament is finished or was
    generated as one bracket."""
    with transaction.atomic():
        lock_tournament(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise ValidationError(_("This tournament is finished."))
        if Match.objects.filter(tournament=tournament, stage__isnull=True).exists():
            raise ValidationError(
                _("The bracket has been generated as one stage: clear it to play in stages.")
            )
        if kind not in Kind.values:
            raise ValidationError(_("Unknown stage kind %(kind)s.") % {"kind": kind})
        if kind == Kind.SWISS and not rounds:
            raise ValidationError(_("A Swiss stage needs a number of rounds."))
        if kind == Kind.ROUND_ROBIN and not pool_size:
            raise ValidationError(_("Round-robin pools need a pool size."))
        order = _check_tiebreaks(tiebreaks)
        rules = _check_rules(tournament, rules or {})
        round_rules = {
            _round_key(r): _check_rules(tournament, {**rules, **knobs})
            for r, knobs in (round_rules or {}).items()
        }
        number = (tournament.stages.aggregate(n=Max("number"))["n"] or 0) + 1
        stage = Stage.objects.create(
            tournament=tournament,
            number=number,
            name=name or str(Kind(kind).label),
            kind=kind,
            rounds=rounds if kind == Kind.SWISS else None,
            pool_size=pool_size if kind == Kind.ROUND_ROBIN else None,
            advance=advance,
            tiebreaks=order,
            rules=rules,
            round_rules={r: _changed_knobs(rules, knobs) for r, knobs in round_rules.items()},
            third_place=third_place,
            bracket_reset=bracket_reset,
        )
        audit.record(
            tournament=tournament,
            action="stage added",
            obj=stage,
            after=_stage_state(stage),
            user=user,
        )
        changed(tournament)
    return stage


def remove_stage(*, stage: Stage, user: Any) -> None:
    """Remove the last stage while it has not started."""
    with transaction.atomic():
        lock_tournament(stage.tournament)
        last = stage.tournament.stages.order_by("-number").first()
        if stage.status != Stage.Status.PENDING or last is None or last.pk != stage.pk:
            raise ValidationError(_("Only the last stage can be removed, before it starts."))
        audit.record(
            tournament=stage.tournament,
            action="stage removed",
            before=_stage_state(stage),
            user=user,
        )
        stage.delete()
        changed(stage.tournament)


def _round_key(round_: object) -> str:
    """A round number, or "final": a knockout's final, its round known only at the cut."""
    if round_ == FINAL:
        return FINAL
    try:
        number = int(str(round_))
    except ValueError:
        number = 0
    if number < 1:
        raise ValidationError(_("A round is a number from 1."))
    return str(number)


def _check_tiebreaks(names: Sequence[str] | None) -> list[str]:
    names = list(names) if names else list(Stage().tiebreak_names)
    known = set(Tiebreak)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValidationError(_("Unknown tiebreak %(name)s.") % {"name": unknown[0]})
    if len(set(names)) != len(names):
        raise ValidationError(_("A tiebreak is chosen twice."))
    return names


def _check_rules(tournament: Tournament, knobs: dict[str, Any]) -> dict[str, Any]:
    try:
        resolve_rules({**tournament.rules, **knobs})
    except ScoringError as error:
        raise ValidationError(str(error)) from error
    return dict(knobs)


def _changed_knobs(base: dict[str, Any], knobs: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in knobs.items() if base.get(name) != value}


def _stage_state(stage: Stage) -> dict[str, Any]:
    return {
        "number": stage.number,
        "name": stage.name,
        "kind": stage.kind,
        "rounds": stage.rounds,
        "pool_size": stage.pool_size,
        "advance": stage.advance,
        "tiebreaks": stage.tiebreaks,
        "rules": stage.rules,
        "round_rules": stage.round_rules,
    }


# -- playing ---------------------------------------------------------------------------------


def start(*, tournament: Tournament, user: Any) -> Stage:
    """Begin stage 1 with the registered players (seed order; withdrawn and, when check-in
    is used, absent players left out)."""
    with transaction.atomic():
        lock_tournament(tournament)
        first = tournament.stages.order_by("number").first()
        if first is None:
            raise ValidationError(_("Add a stage first."))
        if first.status != Stage.Status.PENDING:
            raise ValidationError(_("The first stage has already started."))
        if Match.objects.filter(tournament=tournament).exists():
            raise ValidationError(_("The bracket has already been generated."))
        playing, _left_out = playing_entries(tournament)
        if len(playing) < brackets.MIN_PLAYERS:
            raise ValidationError(
                _("A bracket needs at least two players; %(count)d can play.")
                % {"count": len(playing)}
            )
        matches = _begin(first, [e.pk for e in playing], user)
        before = tournament.status
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated"])
        audit.record(
            tournament=tournament,
            action="stage started",
            obj=first,
            before={"status": before},
            after={
                "status": tournament.status,
                "stage": first.name,
                "players": len(playing),
                "matches": len(matches),
                "pairing_seed": first.pairing_seed,
            },
            user=user,
        )
        changed(tournament)
    return first


def pair_next_round(*, stage: Stage, user: Any) -> list[Match]:
    """Pair the next round of a running Swiss stage once every match of the last is done."""
    with transaction.atomic():
        lock_tournament(stage.tournament)
        stage.refresh_from_db()
        if stage.kind != Kind.SWISS or stage.status != Stage.Status.RUNNING:
            raise ValidationError(_("Only a running Swiss stage is paired round by round."))
        mine = list(Match.objects.filter(stage=stage))
        played = current_round(mine)
        if played >= (stage.rounds or 0):
            raise ValidationError(
                _("All %(rounds)d rounds of this stage are paired.") % {"rounds": stage.rounds}
            )
        _require_complete(mine)
        matches = _pair_swiss(stage, mine, played + 1)
        audit.record(
            tournament=stage.tournament,
            action="round paired",
            obj=stage,
            after={"round": played + 1, "matches": len(matches), "seed": stage.pairing_seed},
            user=user,
        )
        changed(stage.tournament)
    return matches


def close_stage(*, stage: Stage, user: Any) -> Stage | None:
    """Close a finished stage and begin the next with its top players; returns the next
    stage (``None`` when this was the last)."""
    tournament = stage.tournament
    with transaction.atomic():
        lock_tournament(tournament)
        stage.refresh_from_db()
        if stage.status != Stage.Status.RUNNING:
            raise ValidationError(_("This stage is not running."))
        mine = list(Match.objects.filter(stage=stage))
        _require_complete(mine)
        if stage.kind == Kind.SWISS and current_round(mine) < (stage.rounds or 0):
            raise ValidationError(
                _("Round %(round)d of %(rounds)d has been played: pair the next round first.")
                % {"round": current_round(mine), "rounds": stage.rounds}
            )
        following = tournament.stages.filter(number=stage.number + 1).first()
        qualified: list[int] = []
        if following is not None:
            qualified = advancing(stage, mine)
        stage.status = Stage.Status.CLOSED
        stage.save(update_fields=["status"])
        audit.record(
            tournament=tournament,
            action="stage closed",
            obj=stage,
            after={"qualified": _names(qualified)},
            user=user,
        )
        if following is not None:
            _begin(following, qualified, user)
            audit.record(
                tournament=tournament,
                action="stage started",
                obj=following,
                after={"stage": following.name, "players": len(qualified)},
                user=user,
            )
        elif tournament.status != Tournament.Status.FINISHED:
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
            tournament.status = Tournament.Status.FINISHED
        changed(tournament)
    return following


def advancing(stage: Stage, matches: Sequence[Match]) -> list[int]:
    """Who goes on from ``stage``, in the next stage's seed order; refused when the stage
    says no number or has too few players."""
    if not stage.advance:
        raise ValidationError(_("Say how many players advance from %(stage)s.") % {"stage": stage})
    withdrawn = set(
        Entry.objects.filter(tournament=stage.tournament, withdrawn=True).values_list(
            "pk", flat=True
        )
    )
    ranked = stage_standings(stage, matches)
    if len(ranked) > 1:
        # Pools in the order of their winners, compared by their own tiebreak values
        # (pool winners never met one another).
        ranked.sort(
            key=lambda rows: tuple(value or 0 for _name, value in rows[0].values) if rows else (),
            reverse=True,
        )
    tables = [[row.player for row in rows if row.player not in withdrawn] for rows in ranked]
    try:
        return cut.qualifiers(tables, stage.advance)
    except ValueError as error:
        raise ValidationError(
            _("%(count)d cannot advance from %(stage)s: %(problem)s")
            % {"count": stage.advance, "stage": stage, "problem": error}
        ) from error


def lucky_loser(*, match: Match, side: str, entry: Entry, user: Any) -> Match:
    """Put ``entry`` (a player of the previous stage who did not qualify) into ``side`` of a
    knockout match nobody has played into, in place of a player who did not come."""
    tournament = match.tournament
    with transaction.atomic():
        board = Board.load(tournament, focus=match)
        current = board.get(match)
        stage = current.stage
        if stage is None or not stage.is_knockout:
            raise ValidationError(_("A lucky loser comes into a knockout stage's match."))
        if current.status != Status.READY or side not in ("A", "B"):
            raise ValidationError(_("A lucky loser can only replace a player before play."))
        previous = tournament.stages.filter(number=stage.number - 1).first()
        in_stage = {int(pk) for pk in stage.entrants}
        if (
            previous is None
            or entry.pk in in_stage
            or entry.withdrawn
            or entry.pk not in {int(pk) for pk in previous.entrants}
        ):
            raise ValidationError(
                _("%(player)s did not play the previous stage or is already in this one.")
                % {"player": entry}
            )
        replaced = current.entry_id(side)
        board.set_slot(current, side, entry.pk)
        board.save()
        stage.entrants = [entry.pk if int(pk) == replaced else pk for pk in stage.entrants]
        stage.save(update_fields=["entrants"])
        audit.record(
            tournament=tournament,
            action="lucky loser",
            obj=current,
            before={"side": side, "player": _names([replaced])[0] if replaced else None},
            after={"side": side, "player": entry.player.name},
            user=user,
        )
        changed(tournament)
        match.side_a_id, match.side_b_id = current.side_a_id, current.side_b_id
    return match


def start_clock(*, stage: Stage, minutes: int, user: Any) -> Stage:
    """Start the current round's clock now, running ``minutes``."""
    if not 1 <= minutes <= 600:
        raise ValidationError(_("A round lasts 1 to 600 minutes."))
    with transaction.atomic():
        lock_tournament(stage.tournament)
        stage.clock_started_at = timezone.now()
        stage.clock_minutes = minutes
        stage.save(update_fields=["clock_started_at", "clock_minutes"])
        audit.record(
            tournament=stage.tournament,
            action="round clock started",
            obj=stage,
            after={"minutes": minutes, "started": stage.clock_started_at},
            user=user,
        )
        changed(stage.tournament)
    return stage


def lock_stage_rules(match: Match) -> None:
    """The stage's rules lock with its first hand (the scoring app calls this)."""
    if match.stage_id is not None:
        Stage.objects.filter(pk=match.stage_id, rules_locked_at__isnull=True).update(
            rules_locked_at=timezone.now()
        )


def _names(entry_ids: Sequence[int]) -> list[str]:
    names = dict(Entry.objects.filter(pk__in=entry_ids).values_list("pk", "player__name"))
    return [names.get(pk, "") for pk in entry_ids]


# -- making matches --------------------------------------------------------------------------


def _require_complete(matches: Iterable[Match]) -> None:
    unfinished = [m for m in matches if m.status != Status.COMPLETE]
    if unfinished:
        raise ValidationError(_("%(match)s is not finished yet.") % {"match": unfinished[0].label})


def _begin(stage: Stage, entrants: list[int], user: Any) -> list[Match]:
    stage.entrants = entrants
    stage.status = Stage.Status.RUNNING
    if stage.pairing_seed is None:
        stage.pairing_seed = brackets.new_draw_seed()
    if stage.kind == Kind.ROUND_ROBIN:
        try:
            stage.pools = cut.snake_pools(entrants, stage.pool_size or 2)
        except ValueError as error:
            raise ValidationError(str(error)) from error
    stage.save(update_fields=["entrants", "status", "pairing_seed", "pools"])
    if stage.kind == Kind.SWISS:
        return _pair_swiss(stage, [], 1)
    if stage.kind == Kind.ROUND_ROBIN:
        return _make_pools(stage)
    return _make_knockout(stage, entrants)


def _pair_swiss(stage: Stage, mine: list[Match], round_: int) -> list[Match]:
    tournament = stage.tournament
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    if stage.number == 1:
        # Late entries join the stage with the points the director gave them (or none).
        known = {int(pk) for pk in stage.entrants}
        late = [pk for pk, e in entries.items() if pk not in known and not e.withdrawn]
        if late:
            stage.entrants = [*stage.entrants, *sorted(late)]
            stage.save(update_fields=["entrants"])
    rows = stage_standings(stage, mine)[0]
    opponents: dict[int, set[int]] = {row.player: set() for row in rows}
    byes: set[int] = set()
    for m in mine:
        if m.has_both_sides:
            opponents[m.side_a_id].add(m.side_b_id)
            opponents[m.side_b_id].add(m.side_a_id)
        elif m.winner_side:
            byes.add(m.entry_id(m.winner_side))
    players = [
        SwissPlayer(
            id=row.player,
            score=row.won,
            rank=rank,
            opponents=frozenset(opponents[row.player]),
            had_bye=row.player in byes,
            dropped=entries[row.player].withdrawn,
        )
        for rank, row in enumerate(rows, start=1)
    ]
    paired = pair_round(players, seed=(stage.pairing_seed or 0) + round_)
    matches = [
        Match(
            tournament=tournament,
            stage=stage,
            key=f"{stage.key_prefix}R{round_}-{board}",
            section=Match.Section.SWISS,
            round=round_,
            position=board,
            side_a_id=a,
            side_b_id=b,
        )
        for board, (a, b) in enumerate(paired.pairs, start=1)
    ]
    return _store_new(tournament, matches, {})


def _make_pools(stage: Stage) -> list[Match]:
    matches: list[Match] = []
    routes: dict[str, Route] = {}
    positions: dict[int, int] = {}
    for number, pool in enumerate(stage.pools, start=1):
        bracket = brackets.round_robin(len(pool))
        for spec in bracket.matches:
            positions[spec.round] = positions.get(spec.round, 0) + 1
            key = f"{stage.key_prefix}P{number}.{spec.key}"
            matches.append(
                Match(
                    tournament=stage.tournament,
                    stage=stage,
                    key=key,
                    section=spec.section.value,
                    round=spec.round,
                    position=positions[spec.round],
                    side_a_id=pool[spec.a.seed - 1] if spec.a.seed is not None else None,
                    side_b_id=pool[spec.b.seed - 1] if spec.b.seed is not None else None,
                )
            )
            routes[key] = Route()
    return _store_new(stage.tournament, matches, routes)


def _make_knockout(stage: Stage, entrants: list[int]) -> list[Match]:
    try:
        if stage.kind == Kind.DOUBLE_ELIMINATION:
            bracket = brackets.double_elimination(len(entrants), reset=stage.bracket_reset)
        else:
            bracket = brackets.single_elimination(len(entrants), third_place=stage.third_place)
    except ValueError as error:
        raise ValidationError(
            _("This bracket cannot be made for %(count)d players: %(problem)s")
            % {"count": len(entrants), "problem": error}
        ) from error
    prefix = stage.key_prefix
    if FINAL in (stage.round_rules or {}):
        # The final's match length, now that the bracket says which round is the final
        # (of a double elimination: the winners' final).
        last = max(spec.round for spec in bracket.matches if spec.section.value == "winners")
        final = stage.round_rules[FINAL]
        stage.round_rules = {
            **{r: k for r, k in stage.round_rules.items() if r != FINAL},
            str(last): final,
        }
        stage.save(update_fields=["round_rules"])

    def slot(target: tuple[str, str] | None) -> tuple[str, str] | None:
        return (prefix + target[0], target[1]) if target else None

    matches = [
        Match(
            tournament=stage.tournament,
            stage=stage,
            key=prefix + spec.key,
            section=spec.section.value,
            round=spec.round,
            position=spec.position,
            side_a_id=entrants[spec.a.seed - 1] if spec.a.seed is not None else None,
            side_b_id=entrants[spec.b.seed - 1] if spec.b.seed is not None else None,
            conditional=spec.conditional,
        )
        for spec in bracket.matches
    ]
    routes = {
        prefix + spec.key: Route(winner_to=slot(spec.winner_to), loser_to=slot(spec.loser_to))
        for spec in bracket.matches
    }
    return _store_new(stage.tournament, matches, routes)


def _store_new(
    tournament: Tournament, matches: list[Match], routes: dict[str, Route]
) -> list[Match]:
    """Settle byes, give tables (around the tables other matches hold) and insert."""
    for match in matches:
        routes.setdefault(match.key, Route())
    withdrawn = set(
        Entry.objects.filter(tournament=tournament, withdrawn=True).values_list("pk", flat=True)
    )
    held = list(
        Match.objects.filter(tournament=tournament, table__isnull=False).exclude(
            status=Status.COMPLETE
        )
    )
    board = Board(
        tournament, [*held, *matches], {**{m.key: Route() for m in held}, **routes}, withdrawn
    )
    board.settle_all()
    board.assign_tables()
    _store(matches, routes)
    return matches
