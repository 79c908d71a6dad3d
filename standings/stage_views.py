"""What the public pages, ``standings.json`` and the stage PDFs show of a tournament's
stages: each stage as shown (:class:`StageView`), with its standings (ranked by the
stage's tiebreaks, each value printed; a knockout's placings as the one-bracket page gives
them) and its rounds of pairings. A tournament of one bracket is one stage: its own
format, no tiebreaks, the standings of the page. Like :mod:`standings.standings`,
everything here works on matches and stages already loaded and makes no queries.

What this module does not do: load anything, or rank players within a stage (each stage's
:class:`~tournaments.stages.results.StageResults` has, once per request, in
:mod:`standings.data`), or rank a staged event's every entrant (:mod:`standings.overall`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from engine import MatchSheet
from standings.match_rows import pairing_json
from standings.standings import Standing, Standings, elimination_rows, place_label
from standings.stats import player_stats
from tournaments.match_names import RoundNames, play_order
from tournaments.models import Match, Stage, Tournament
from tournaments.stages.results import StageResults

QUALIFYING = ("swiss", "round_robin")
"""Stages shown as standings by tiebreaks and pairings (knockouts are drawn as brackets)."""


def stages_line(stages: Sequence[Stage]) -> str:
    """ "Qualifying (Swiss, 4 rounds, top 8 advance) → Knockout (Single elimination)"."""
    parts = []
    for stage in stages:
        details = [str(stage.get_kind_display())]
        if stage.kind == Stage.Kind.SWISS and stage.rounds:
            details.append(_("%(rounds)d rounds") % {"rounds": stage.rounds})
        if stage.kind == Stage.Kind.ROUND_ROBIN and stage.pool_size:
            details.append(_("pools of %(size)d") % {"size": stage.pool_size})
        if stage.advance and stage.number < len(stages):
            if stage.kind == Stage.Kind.ROUND_ROBIN:
                details.append(_("top %(count)d of each pool advance") % {"count": stage.advance})
            else:
                details.append(_("top %(count)d advance") % {"count": stage.advance})
        parts.append(f"{stage.name} ({', '.join(details)})")
    return " → ".join(parts)


@dataclass(frozen=True, slots=True)
class StageRow:
    standing: Standing
    tiebreaks: dict[str, int | None] = field(default_factory=dict)
    pool: int | None = None

    def as_json(self) -> dict[str, Any]:
        row = self.standing.as_json()
        row.update(self.tiebreaks)
        if self.pool is not None:
            row["pool"] = self.pool
        return row


@dataclass(frozen=True, slots=True)
class StageView:
    number: int
    name: str
    kind: str
    kind_label: str
    status: str
    tiebreaks: tuple[str, ...]
    rows: tuple[StageRow, ...]
    rounds: tuple[tuple[str, tuple[Match, ...]], ...]
    stage: Stage | None = None
    names: RoundNames = field(default_factory=lambda: RoundNames(()))
    sheets: dict[int, MatchSheet] = field(default_factory=dict)

    @property
    def tiebreak_labels(self) -> list[str]:
        return [tiebreak_label(name) for name in self.tiebreaks]

    def as_json(self, withdrawals: frozenset[int] | set[int] = frozenset()) -> dict[str, Any]:
        """``withdrawals``: the matches walked over for a withdrawal (their "decided")."""
        return {
            "name": self.name,
            "kind": self.kind,
            "tiebreaks": list(self.tiebreaks),
            "standings": [row.as_json() for row in self.rows],
            "rounds": [
                [self._pairing(m, withdrawals) for m in matches] for _title, matches in self.rounds
            ],
        }

    def _pairing(self, match: Match, withdrawals: frozenset[int] | set[int]) -> dict[str, Any]:
        return pairing_json(match, self.names, self.sheets.get(match.pk), withdrawals)


def tiebreak_label(name: str) -> str:
    return {
        "match_points": _("Match points"),
        "buchholz": _("Opponents' match wins"),
        "games_won": _("Games won"),
        "point_margin": _("Point margin"),
        "head_to_head": _("Head to head"),
        "total_points": _("Total points"),
    }.get(name, name)


def stage_views(
    tournament: Tournament,
    results: Sequence[StageResults],
    matches: Sequence[Match],
    standings: Standings,
) -> list[StageView]:
    """Every stage in order (``results``: each stage's); a tournament without stages as its
    one stage."""
    double = tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION
    names = RoundNames(matches, double=double)
    if not results:
        return [
            StageView(
                number=1,
                name=tournament.name,
                kind=tournament.bracket_kind,
                kind_label=str(tournament.get_bracket_kind_display()),
                status=tournament.status,
                tiebreaks=(),
                rows=tuple(StageRow(row) for row in standings.rows),
                rounds=_rounds(matches, names),
                names=names,
                sheets=standings.sheets,
            )
        ]
    return [_view(stage_results, standings.sheets, names) for stage_results in results]


def _view(results: StageResults, sheets: dict[int, MatchSheet], names: RoundNames) -> StageView:
    stage, mine = results.stage, results.matches
    stats = player_stats(mine, sheets)
    placings = results.placings if stage.entrants else ()
    rows: list[StageRow] = []
    if stage.is_knockout:
        placed, _complete = elimination_rows(
            mine, stats, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        values = {placing.entry_id: placing.row.as_dict() for placing in placings}
        rows = [StageRow(s, values.get(s.stats.entry_id, {})) for s in placed]
    else:
        for placing in placings:
            player = stats.get(placing.entry_id)
            if player is None:
                continue  # entered but not paired yet
            label = place_label(placing.place, placing.last)
            standing = Standing(placing.place, label, "", player)
            rows.append(StageRow(standing, placing.row.as_dict(), placing.pool))
    return StageView(
        number=stage.number,
        name=stage.name,
        kind=stage.kind,
        kind_label=str(stage.get_kind_display()),
        status=stage.status,
        tiebreaks=tuple(stage.tiebreak_names),
        rows=tuple(rows),
        rounds=_rounds(mine, names),
        stage=stage,
        names=names,
        sheets=sheets,
    )


def _rounds(
    matches: Sequence[Match], names: RoundNames
) -> tuple[tuple[str, tuple[Match, ...]], ...]:
    """Pairings round by round (sections apart, in playing order), each named as the pages
    name it ("Round 2", "Semifinals"); nobody's byes left out."""
    grouped: dict[tuple[int, str], list[Match]] = {}
    for match in matches:
        if match.side_a_id is None and match.side_b_id is None and match.status == "complete":
            continue
        grouped.setdefault((match.round, match.section), []).append(match)
    rounds = []
    for key in sorted(grouped, key=lambda key: play_order(key[1], key[0])):
        group = sorted(grouped[key], key=lambda m: (m.position, m.pk))
        rounds.append((names.round(group[0]), tuple(group)))
    return tuple(rounds)
