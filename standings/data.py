"""A tournament's results (:class:`Results`), loaded in a fixed number of queries: the read
model every surface shows.

:func:`load` reads a tournament's matches with both players and all of its hands (through
:mod:`scoring.loading`, the one loader of hands) and computes its standings. Players are
read by name and seed only; their email and phone are not even loaded. Used by the public
pages (:mod:`public.views.tournament`), the bracket and standings PDFs
(:mod:`printing.standings_documents`), the prizes (:mod:`money.prizes`) and the club
(exports, player pages, seasons).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.translation import gettext as _

from engine import MatchSheet
from scoring.loading import load_inputs, score_matches
from standings.overall import overall
from standings.stage_views import StageView, stage_views, stages_line
from standings.standings import Standings, compute
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.stages.results import StageResults, results_of_stages

PRIVATE_PLAYER_FIELDS = ("email", "phone", "notes", "club_id", "rating")
# Never read by these pages; the timestamps cost a conversion each, ~2,300 a page at 256.
UNUSED_MATCH_FIELDS = ("token", "token_revoked", "queued_at", "started_at", "completed_at")
ENTRY_FIELDS = (
    "tournament",
    "seed",
    "checked_in",
    "withdrawn",
    "registered_at",
    "team_name",
    "player",
    "player__name",
    "player__hidden",
)
"""What the pages read of an entry that is in no match (names, seeds and whether checked
in, which a player's page says before the draw: nothing private)."""
UNUSED_ENTRY_FIELDS = ("checked_in", "paid", "registered_at", "player__created", "player__updated")


@dataclass
class Results:
    """One tournament's results as every surface shows them: its matches (both players,
    every hand), its standings, entries and stages. Built by :func:`load`."""

    tournament: Tournament
    matches: list[Match]
    standings: Standings
    entries: list[Entry] = field(default_factory=list)
    stages: list[Stage] = field(default_factory=list)
    waiting: list[Entry] = field(default_factory=list)
    """Entries of a staged tournament in no match yet: a late entry to a running Swiss
    before the next round is paired (they are in its standings, findable, with a page)."""
    planned: list[Stage] = field(default_factory=list)
    """Before the start (no match yet), the stages the tournament will be played in."""
    stage_results: list[StageResults] = field(default_factory=list)
    """Each stage's results, in order, computed once (:mod:`tournaments.stages.results`):
    what the overall standings, every stage's view and the stage PDFs read."""

    @cached_property
    def stage_views(self) -> list[StageView]:
        """Every stage as the pages show it, built once however many regions read it."""
        return stage_views(self.tournament, self.stage_results, self.matches, self.standings)

    @property
    def sheets(self) -> dict[int, MatchSheet]:
        return self.standings.sheets

    @property
    def format_line(self) -> str:
        """What the event's format is: its stages in order for a staged tournament
        ("Qualifying (Swiss, 3 rounds, top 4 advance) → Knockout (Single elimination)"),
        before the start as after it, else its bracket's format."""
        stages = self.stages or self.planned
        return stages_line(stages) if stages else format_line(self.tournament)

    @property
    def double(self) -> bool:
        return self.tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION

    @property
    def round_robin(self) -> bool:
        return self.tournament.bracket_kind == Tournament.BracketKind.ROUND_ROBIN


def load(tournament: Tournament) -> Results:
    """Two queries (three before the bracket exists: its entries and stages; one when every
    match was scored at its current version already), whatever the number of players."""
    private = [
        f"{side}__player__{name}" for side in ("side_a", "side_b") for name in PRIVATE_PLAYER_FIELDS
    ]
    unused = [f"{side}__{name}" for side in ("side_a", "side_b") for name in UNUSED_ENTRY_FIELDS]
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("side_a__player", "side_b__player")
        .defer(*private, *unused, *UNUSED_MATCH_FIELDS)
        .order_by("round", "section", "position", "pk")
    )
    entries: list[Entry] = []
    sheets: dict[int, MatchSheet] = {}
    stages: list[Stage] = []
    planned: list[Stage] = []
    if matches:
        stages = attach_stages(tournament, matches)
        sheets = _sheets(tournament, matches)
    else:
        entries = list(
            tournament.entries.filter(withdrawn=False).select_related("player").only(*ENTRY_FIELDS)
        )
        planned = list(Stage.objects.filter(tournament=tournament))
    waiting: list[Entry] = []
    by_stage: list[StageResults] = []
    if stages:
        waiting = _waiting(tournament, stages, matches)
        by_stage = results_of_stages(stages, matches)
        result = overall(tournament, by_stage, matches, sheets, waiting)
    else:
        result = compute(tournament, matches, sheets)
    return Results(tournament, matches, result, entries, stages, waiting, planned, by_stage)


def _waiting(tournament: Tournament, stages: list[Stage], matches: list[Match]) -> list[Entry]:
    """The entries in no match yet (one query; none unless the first stage is a Swiss, the
    only stage a player can join late)."""
    if stages[0].kind != Stage.Kind.SWISS:
        return []
    sides = {pk for m in matches for pk in (m.side_a_id, m.side_b_id) if pk is not None}
    return list(
        tournament.entries.filter(withdrawn=False)
        .exclude(pk__in=sides)
        .select_related("player")
        .only(*ENTRY_FIELDS)
        .order_by("seed", "pk")
    )


# The engine's sheets of the matches this process scored lately, by what decides a sheet:
# the match, its version (which every write of its hands moves on), who dealt first and
# the rules. A live page rendered again after a hand re-reads and re-scores only the
# matches whose version moved: at 256 players that is most of a render's load.
_scored: OrderedDict[tuple[int, int, str, tuple], MatchSheet | None] = OrderedDict()
_scored_lock = threading.Lock()
SCORED_SHEETS = 8192


def _sheets(tournament: Tournament, matches: list[Match]) -> dict[int, MatchSheet]:
    """Every match's sheet: the ones this process scored at the same version as they were,
    the others from their hands (one query for all of them, streamed)."""
    rules = tuple(sorted((name, repr(value)) for name, value in tournament.rules.items()))
    keys = {m.pk: (m.pk, m.version, m.first_dealer or "", _rules_key(m, rules)) for m in matches}
    with _scored_lock:
        known = {pk: _scored[key] for pk, key in keys.items() if key in _scored}
    sheets = {pk: sheet for pk, sheet in known.items() if sheet is not None}
    stale = [match for match in matches if match.pk not in known]
    if stale:
        # A 256-player field has ~15,000 hands: streamed, as plain rows.
        if len(stale) == len(matches):
            inputs = load_inputs(match__tournament=tournament, stream=True)
        else:
            inputs = load_inputs(match__in=[match.pk for match in stale], stream=True)
        fresh: dict[int, MatchSheet] = {}
        by_rules: dict[tuple, list[Match]] = {}
        for match in stale:
            by_rules.setdefault(keys[match.pk][3], []).append(match)
        for group in by_rules.values():
            first = group[0]
            rules_set = first.ruleset if first.stage_id else tournament.ruleset
            fresh.update(score_matches(rules_set, group, inputs))
        sheets.update(fresh)
        with _scored_lock:
            for match in stale:  # None: no hands, no sheet
                _scored[keys[match.pk]] = fresh.get(match.pk)
            while len(_scored) > SCORED_SHEETS:
                _scored.popitem(last=False)
    return sheets


def _rules_key(match: Match, tournament_rules: tuple) -> tuple:
    if match.stage_id is None:
        return tournament_rules
    spec = match.stage.rules_for_round(match.round, match.section)
    return tuple(sorted((name, repr(value)) for name, value in spec.items()))


def attach_stages(tournament: Tournament, matches: list[Match]) -> list[Stage]:
    """The tournament's stages (one query, none without staged matches), each match given
    its own so that its rules need no further query."""
    if not any(m.stage_id for m in matches):
        return []
    stages = list(Stage.objects.filter(tournament=tournament))
    by_pk = {stage.pk: stage for stage in stages}
    for stage in stages:
        stage.tournament = tournament
    for match in matches:
        match.tournament = tournament
        if match.stage_id:
            match.stage = by_pk[match.stage_id]
    return stages


def forget_sheets() -> None:
    """Drop this process's scored sheets (tests and the bench's cold measurements)."""
    with _scored_lock:
        _scored.clear()


def format_line(tournament: Tournament) -> str:
    """ "Single elimination · third-place match" and the like."""
    parts = [str(tournament.get_bracket_kind_display())]
    if tournament.bracket_kind == Tournament.BracketKind.SINGLE_ELIMINATION:
        if tournament.third_place:
            parts.append(_("third-place match"))
        if tournament.consolation:
            parts.append(_("consolation bracket"))
    elif tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION:
        parts.append(_("bracket reset") if tournament.bracket_reset else _("no bracket reset"))
    return " · ".join(parts)


def team_members(tournament: Tournament) -> dict[int, tuple[str, ...]]:
    """Each team's players' names in seat order, by entry id (one query; none for a
    head-to-head tournament). Names only: nothing private."""
    return {
        entry_id: tuple(name for name, _page in roster)
        for entry_id, roster in team_rosters(tournament).items()
    }


def team_rosters(tournament: Tournament) -> dict[int, tuple[tuple[str, int | None], ...]]:
    """Each team's players in seat order, by entry id: (name, the club player page the
    name links to, None for a hidden player). One query; none for a head-to-head
    tournament."""
    if not tournament.ruleset.is_team:
        return {}
    from tournaments.models import TeamMember

    rosters: dict[int, tuple[tuple[str, int | None], ...]] = {}
    rows = (
        TeamMember.objects.filter(tournament=tournament)
        .order_by("entry_id", "seat")
        .values_list("entry_id", "player__name", "player_id", "player__hidden")
    )
    for entry_id, name, player_id, hidden in rows:
        rosters[entry_id] = (*rosters.get(entry_id, ()), (name, None if hidden else player_id))
    return rosters
