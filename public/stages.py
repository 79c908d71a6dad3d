"""What the public pages and ``standings.json`` show of a tournament's stages.

Each stage is shown with its standings (ranked by the stage's tiebreaks, each value
printed; a knockout's placings as the one-bracket page gives them) and its rounds of
pairings. A tournament of one bracket is one stage: its own format, no tiebreaks, the
standings of the page. Like :mod:`public.standings`, everything here works on matches
and stages already loaded and makes no queries.

What this module does not do: load anything or rank players by itself (the tiebreaks
are :mod:`tournaments.tiebreaks`', the placings :mod:`public.standings`').
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring.engine import MatchSheet
from tournaments.models import Match, Stage, Tournament
from tournaments.stages import current_stage, stage_standings

from .standings import Standing, Standings, elimination_rows, place_label, round_robin_rows
from .stats import player_stats

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

    @property
    def tiebreak_labels(self) -> list[str]:
        return [tiebreak_label(name) for name in self.tiebreaks]

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "tiebreaks": list(self.tiebreaks),
            "standings": [row.as_json() for row in self.rows],
            "rounds": [[pairing_json(m) for m in matches] for _title, matches in self.rounds],
        }


def tiebreak_label(name: str) -> str:
    return {
        "match_points": _("Match points"),
        "buchholz": _("Opponents' match wins"),
        "games_won": _("Games won"),
        "point_margin": _("Point margin"),
        "head_to_head": _("Head to head"),
        "total_points": _("Total points"),
    }.get(name, name)


def pairing_json(match: Match) -> dict[str, Any]:
    a, b = match.side_a, match.side_b
    winner = match.winner_side.lower() if match.winner_side else None
    if a is None and b is not None:  # a bye on the upper line: its player is "a"
        a, b = b, None
        winner = "a" if winner else None
    return {
        "table": match.table,
        "a": a.player.name if a is not None else None,
        "b": b.player.name if b is not None else None,
        "winner": winner,
    }


def overall(
    tournament: Tournament,
    stages: Sequence[Stage],
    matches: Sequence[Match],
    sheets: dict[int, MatchSheet],
) -> Standings:
    """The page's standings of a staged tournament: its current stage's."""
    stage = current_stage(stages)
    mine = [m for m in matches if stage is not None and m.stage_id == stage.pk]
    stats = player_stats(mine, sheets)
    if stage is not None and stage.is_knockout:
        rows, complete = elimination_rows(
            mine, stats, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        complete = complete and stage.number == len(stages)
    else:
        rows, complete = round_robin_rows(mine, stats)
        complete = False
    champion = rows[0].stats if complete and rows and rows[0].place == 1 else None
    kind = stage.kind if stage is not None else tournament.bracket_kind
    return Standings(kind, tuple(rows), sheets, complete, champion)


def stage_views(
    tournament: Tournament,
    stages: Sequence[Stage],
    matches: Sequence[Match],
    standings: Standings,
) -> list[StageView]:
    """Every stage in order; a tournament without stages as its one stage."""
    if not stages:
        return [
            StageView(
                number=1,
                name=tournament.name,
                kind=tournament.bracket_kind,
                kind_label=str(tournament.get_bracket_kind_display()),
                status=tournament.status,
                tiebreaks=(),
                rows=tuple(StageRow(row) for row in standings.rows),
                rounds=_rounds(matches),
            )
        ]
    return [_view(stage, matches, standings.sheets) for stage in stages]


def _view(stage: Stage, matches: Sequence[Match], sheets: dict[int, MatchSheet]) -> StageView:
    mine = [m for m in matches if m.stage_id == stage.pk]
    stats = player_stats(mine, sheets)
    tables = stage_standings(stage, mine) if stage.entrants else []
    values = {row.player: row.as_dict() for rows in tables for row in rows}
    rows: list[StageRow] = []
    if stage.is_knockout:
        placed, _complete = elimination_rows(
            mine, stats, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        rows = [StageRow(s, values.get(s.stats.entry_id, {})) for s in placed]
    else:
        pooled = len(tables) > 1
        for number, table in enumerate(tables, start=1):
            for row in table:
                player = stats.get(row.player)
                if player is None:
                    continue  # entered but not paired yet
                last = row.place + sum(1 for r in table if r.place == row.place) - 1
                standing = Standing(row.place, place_label(row.place, last), "", player)
                rows.append(StageRow(standing, row.as_dict(), number if pooled else None))
    return StageView(
        number=stage.number,
        name=stage.name,
        kind=stage.kind,
        kind_label=str(stage.get_kind_display()),
        status=stage.status,
        tiebreaks=tuple(stage.tiebreak_names),
        rows=tuple(rows),
        rounds=_rounds(mine),
        stage=stage,
    )


def _rounds(matches: Sequence[Match]) -> tuple[tuple[str, tuple[Match, ...]], ...]:
    """Pairings round by round (sections apart, in playing order); nobody's byes left out."""
    grouped: dict[tuple[int, str], list[Match]] = {}
    for match in matches:
        if match.side_a_id is None and match.side_b_id is None and match.status == "complete":
            continue
        grouped.setdefault((match.round, match.section), []).append(match)
    rounds = []
    for (round_, section), group in sorted(grouped.items(), key=lambda item: item[0]):
        label = Match.Section(section).label if section != "swiss" else ""
        title = _("Round %(round)d") % {"round": round_}
        if label and section not in ("winners", "round_robin"):
            title = f"{label} · {title}"
        rounds.append((title, tuple(sorted(group, key=lambda m: (m.position, m.pk)))))
    return tuple(rounds)
