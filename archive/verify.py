"""Checking stored match summaries against the hands (SPEC 9), for
``manage.py verify_tournament`` and for restoring a backup (``ginclub restore``).

Hands are the source of truth; a match row keeps a summary (games won, points, winner,
status) that each hand write rewrites in the same transaction. :func:`verify` checks the
shape of the bracket (:mod:`archive.structure`: routes, byes, tokens, who sits where),
then replays every match's hands through the engine, plus its decisions
(:class:`tournaments.models.Decision`: on time, a ruling, a walkover, a bye, a lucky
loser; :mod:`archive.decisions_check`), and compares. It changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import HandInput, MatchSheet, RuleSet, ScoringError, score_played, time_leader
from scoring.loading import first_dealer, load_inputs
from tournaments.models import Decision, Entry, Match, Stage, Tournament

from .decisions_check import Difference, check_decisions, show
from .stage_structure import stage_problems
from .structure import Problem, check_bracket

Status = Match.Status


def check_match(
    match: Match,
    hands: Sequence[HandInput],
    rules: RuleSet,
    decisions: Sequence[Decision] = (),
) -> list[Difference]:
    """How the stored summary of ``match`` differs from what its hands (as engine input,
    :mod:`scoring.loading`) and its ``decisions`` say."""
    found: list[Difference] = []

    def differ(field: str, stored: object, computed: object) -> None:
        found.append(Difference(match.key, field, stored, computed))

    if match.is_bye:
        if hands:
            differ("hands", len(hands), "none (a bye is not played)")
        return found + check_decisions(match, None, decisions)
    if hands and not match.has_both_sides:
        differ("hands", len(hands), "none (the players are not known)")
        return found
    try:
        sheet = score_played(rules, hands, first_dealer(match))
    except ScoringError as error:
        differ("hands", f"{len(hands)} hands", f"refused by the engine ({error})")
        return found
    summary = sheet.match
    for field, computed in (
        ("score_a", summary.won.a),
        ("score_b", summary.won.b),
        ("total_a", summary.total.a),
        ("total_b", summary.total.b),
    ):
        if getattr(match, field) != computed:
            differ(field, getattr(match, field), computed)
    if any(d.kind in Decision.RESULTS for d in decisions):
        # Decided by a decision the hands are replayed against (on time, a ruling, a walkover).
        return found + check_decisions(match, sheet, decisions, len(hands))
    found += check_decisions(match, sheet, decisions, len(hands))  # a lucky loser
    if match.forfeit:
        # A walkover from before decisions were stored: it decides the match whatever the
        # hands so far say.
        if match.status != Status.COMPLETE or match.winner_side not in ("A", "B"):
            differ("status", f"{match.status}, winner {show(match.winner_side)}", "a walkover")
        return found
    if match.decided_on_time:
        # Decided on time before decisions were stored: the leader on all its hands.
        return found + _on_time_without_decision(match, sheet)
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


def _on_time_without_decision(match: Match, sheet: MatchSheet) -> list[Difference]:
    found = []
    leader = time_leader(sheet)
    computed = f"{leader.value} (on time)" if leader else "none (level on time)"
    if match.winner_side != (leader.value if leader else None):
        found.append(Difference(match.key, "winner_side", match.winner_side, computed))
    if match.status != Status.COMPLETE:
        found.append(Difference(match.key, "status", match.status, Status.COMPLETE))
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
    decisions: dict[int, list[Decision]] = {}
    for decision in Decision.objects.filter(tournament=tournament).select_related(
        "entry__player", "replaced__player"
    ):
        decisions.setdefault(decision.match_id, []).append(decision)
    for match in matches:
        match.tournament = tournament
        if match.stage_id is not None:
            match.stage = stages[match.stage_id]
        mine = decisions.pop(match.pk, [])
        found += check_match(match, inputs.get(match.pk, []), match.ruleset, mine)
    return len(matches), found
