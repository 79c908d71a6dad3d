"""Making a stage's matches: a Swiss round from the standings (:mod:`pairing.swiss`),
round-robin pools and knockouts (:mod:`pairing.brackets`), stored and routed like a
one-bracket tournament's (byes settled, tables given around the tables other matches
hold). Called inside the transactions of :mod:`tournaments.stages.services`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pairing import brackets, cut
from pairing.swiss import SwissPlayer, pair_round

from ..models import Entry, Match, Stage, Tournament
from ..movement import Board, Route, store_matches
from .results import stage_results

Kind = Stage.Kind
Status = Match.Status
FINAL = "final"
"""A knockout's final, in a stage's match length per round: its round is known at the cut."""


def begin(stage: Stage, entrants: list[int], user: Any) -> list[Match]:
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
        return pair_swiss(stage, [], 1, user)
    if stage.kind == Kind.ROUND_ROBIN:
        return _make_pools(stage, user)
    return _make_knockout(stage, entrants, user)


def pair_swiss(stage: Stage, mine: list[Match], round_: int, user: Any) -> list[Match]:
    tournament = stage.tournament
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    if stage.number == 1:
        # Late entries join the stage with the points the director gave them (or none).
        known = {int(pk) for pk in stage.entrants}
        late = [pk for pk, e in entries.items() if pk not in known and not e.withdrawn]
        if late:
            stage.entrants = [*stage.entrants, *sorted(late)]
            stage.save(update_fields=["entrants"])
    rows = stage_results(stage, mine).tables[0]
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
    return _store_new(tournament, matches, {}, user)


def _make_pools(stage: Stage, user: Any) -> list[Match]:
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
    return _store_new(stage.tournament, matches, routes, user)


def _make_knockout(stage: Stage, entrants: list[int], user: Any) -> list[Match]:
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
    if FINAL in (stage.round_rules or {}) and stage.kind == Kind.SINGLE_ELIMINATION:
        # The final's match length, now that the bracket says which round is the final.
        # A double elimination keeps it as "final": its grand final's (Stage.rules_for_round).
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
    return _store_new(stage.tournament, matches, routes, user)


def _store_new(
    tournament: Tournament, matches: list[Match], routes: dict[str, Route], user: Any
) -> list[Match]:
    """Settle byes, give tables (around the tables other matches hold) and insert; the
    byes are decisions of ``user``'s (the pairing, the cut)."""
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
    store_matches(matches, routes)
    board.user = user
    board.save_decisions()
    return matches
