"""Checking stored match summaries against the hands (SPEC 9), for
``manage.py verify_tournament`` and for restoring a backup (``ginclub restore``).

Hands are the source of truth; a match row keeps a summary (games won, points, winner,
status) that each hand write rewrites in the same transaction. :func:`verify` checks the
shape of the bracket (:mod:`archive.structure`: routes, byes, tokens, who sits where),
then replays every match's hands through the engine and compares. It changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.engine import HandInput, RuleSet, ScoringError, score_played
from scoring.services import first_dealer, load_inputs
from tournaments.models import Entry, Match, Stage, Tournament

from .stage_structure import stage_problems
from .structure import Problem, check_bracket

Status = Match.Status


@dataclass(frozen=True, slots=True)
class Difference:
    match: str
    field: str
    stored: object
    computed: object

    def __str__(self) -> str:
        stored, computed = _show(self.stored), _show(self.computed)
        return f"{self.match}  {self.field}: stored {stored}, computed {computed}"


def _show(value: object) -> str:
    return "none" if value in ("", None) else str(value)


def check_match(match: Match, hands: Sequence[HandInput], rules: RuleSet) -> list[Difference]:
    """How the stored summary of ``match`` differs from what its hands (as engine input,
    :mod:`scoring.services`) say."""
    found: list[Difference] = []

    def differ(field: str, stored: object, computed: object) -> None:
        found.append(Difference(match.key, field, stored, computed))

    if match.is_bye:
        if hands:
            differ("hands", len(hands), "none (a bye is not played)")
        return found
    if hands and not match.has_both_sides:
        differ("hands", len(hands), "none (the players are not known)")
        return found
    try:
        summary = score_played(rules, hands, first_dealer(match)).match
    except ScoringError as error:
        differ("hands", f"{len(hands)} hands", f"refused by the engine ({error})")
        return found
    for field, computed in (
        ("score_a", summary.won.a),
        ("score_b", summary.won.b),
        ("total_a", summary.total.a),
        ("total_b", summary.total.b),
    ):
        if getattr(match, field) != computed:
            differ(field, getattr(match, field), computed)
    if match.forfeit:
        # A walkover decides the match whatever the hands so far say.
        if match.status != Status.COMPLETE or match.winner_side not in ("A", "B"):
            differ("status", f"{match.status}, winner {_show(match.winner_side)}", "a walkover")
        return found
    winner = summary.winner.value if summary.winner else ""
    if match.winner_side != winner:
        differ("winner_side", match.winner_side, winner)
    if winner:
        expected: tuple[str, ...] = (Status.AWAITING, Status.COMPLETE)
    elif hands:
        expected = (Status.IN_PLAY,)
    else:
        expected = (Status.WAITING, Status.READY)
    if match.status not in expected:
        differ("status", match.status, " or ".join(expected))
    return found


def check_structure(tournament: Tournament, matches: Sequence[Match]) -> list[Problem]:
    """The shape of the stored bracket (:mod:`archive.structure`), and that its routes
    and players all belong to ``tournament``."""
    key_of = {match.pk: match.key for match in matches}
    ids = {pk for match in matches for pk in (match.side_a_id, match.side_b_id) if pk}
    entries = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "tournament_id"))
    withdrawn = set(Entry.objects.filter(pk__in=ids, withdrawn=True).values_list("pk", flat=True))
    found: list[Problem] = []
    routes: dict[str, tuple[str | None, str | None]] = {}
    for match in matches:
        for name, pk in (("side_a", match.side_a_id), ("side_b", match.side_b_id)):
            if pk is not None and entries.get(pk) != tournament.pk:
                found.append(Problem(match.key, name, "is a player of another tournament"))
        targets = []
        for name in ("next_match", "loser_next_match"):
            pk = getattr(match, f"{name}_id")
            if pk is not None and pk not in key_of:
                found.append(Problem(match.key, name, "leads to a match of another tournament"))
            targets.append(key_of.get(pk) if pk is not None else None)
        routes[match.key] = (targets[0], targets[1])
    sides = {match.key: (match.side_a_id, match.side_b_id) for match in matches}
    return found + check_bracket(matches, sides, routes, withdrawn)


def check_stages(
    tournament: Tournament, stages: Sequence[Stage], matches: Sequence[Match]
) -> list[Problem]:
    """A staged tournament: every match in a stage, keyed by it; every stage's players
    entered here; stages after a running one not started."""
    found = []
    entry_ids = set(tournament.entries.values_list("pk", flat=True)) if stages else set()
    by_pk = {stage.pk: stage for stage in stages}
    for match in matches:
        if stages and match.stage_id is None:
            found.append(Problem(match.key, "stage", "a tournament in stages has no other match"))
        stage = by_pk.get(match.stage_id) if match.stage_id else None
        if stage is not None and not match.key.startswith(stage.key_prefix):
            found.append(Problem(match.key, "stage", f"not a key of {stage.key_prefix}"))
        if stage is not None and stage.status == Stage.Status.PENDING:
            found.append(Problem(match.key, "stage", "a stage not started has a match"))
    for stage in stages:
        found += stage_problems(stage, stage.entrants, stage.pools)
        strangers = [pk for pk in stage.entrants if int(pk) not in entry_ids]
        if strangers:
            found.append(Problem(stage.key_prefix, "entrants", "a player not entered here"))
    return found


def verify(tournament: Tournament) -> tuple[int, list[Difference | Problem]]:
    """(number of matches, differences and problems) for every match of ``tournament``:
    the bracket's shape, then each match's stored summary against its hands."""
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    inputs = load_inputs(match__tournament=tournament, stream=True)
    found: list[Difference | Problem] = [*check_structure(tournament, matches)]
    stages = {stage.pk: stage for stage in Stage.objects.filter(tournament=tournament)}
    found += check_stages(tournament, list(stages.values()), matches)
    for match in matches:
        match.tournament = tournament
        if match.stage_id is not None:
            match.stage = stages[match.stage_id]
        found += check_match(match, inputs.get(match.pk, []), match.ruleset)
    return len(matches), found
