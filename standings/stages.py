"""What the public pages and ``standings.json`` show of a tournament's stages.

Each stage is shown with its standings (ranked by the stage's tiebreaks, each value
printed; a knockout's placings as the one-bracket page gives them) and its rounds of
pairings. A tournament of one bracket is one stage: its own format, no tiebreaks, the
standings of the page. :func:`overall` gives a staged tournament's standings, every
entrant ranked: the last stage's places, then those out in earlier stages by their
place there. Like :mod:`standings.standings`, everything here works on matches and stages
already loaded and makes no queries.

What this module does not do: load anything, or rank players within a stage by itself
(the tiebreaks are :mod:`pairing.tiebreaks`', the placings :mod:`standings.standings`').
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import MatchSheet
from standings.match_rows import pairing_json
from standings.standings import Standing, Standings, elimination_rows, place_label
from standings.stats import PlayerStats, player_stats, stats_for
from tournaments.match_names import RoundNames, play_order
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.stages.standings import current_round, current_stage, stage_standings

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


def overall(
    tournament: Tournament,
    stages: Sequence[Stage],
    matches: Sequence[Match],
    sheets: dict[int, MatchSheet],
    waiting: Sequence[Entry] = (),
) -> Standings:
    """The final standings of a staged tournament: every entrant, best first.

    The last stage played's places come first (its knockout placings, or its standings
    by its tiebreaks), then the players out in each earlier stage, stage by stage
    backwards, by their place there (pools: by pool place, then across pools by the
    stage's tiebreaks); players level there share a place here ("9–10"). ``waiting``, the
    entries in no match yet (a late entry before the next Swiss round), belong to the
    first stage and have played nothing there. While a stage
    is being played, its players have no final place yet (their progress says how far
    they are); the players out before it have theirs as soon as the cut is made. Each
    row's numbers are the whole event's; ``stage_reached`` names the player's last
    stage."""
    stats = player_stats(matches, sheets)
    for entry in waiting:
        stats.setdefault(entry.pk, stats_for(entry))
    by_stage: dict[int, list[Match]] = {}
    for match in matches:
        if match.stage_id is not None:
            by_stage.setdefault(match.stage_id, []).append(match)
    played = [s for s in stages if s.status != Stage.Status.PENDING and s.pk in by_stage]
    reached: dict[int, Stage] = {}
    for stage in played:
        members = [*stage.entrants, *_sides(by_stage[stage.pk])]
        if stage.number == 1:
            members += [entry.pk for entry in waiting]
        for entry_id in members:
            if int(entry_id) in stats:
                reached[int(entry_id)] = stage
    rows: list[Standing] = []
    complete = False
    for stage in reversed(played):
        mine = by_stage[stage.pk]
        members = {entry_id: stats[entry_id] for entry_id, s in reached.items() if s is stage}
        if stage is played[-1]:
            found, complete = _last_stage_rows(stage, mine, members, len(rows), stages)
        else:
            found = _out_rows(stage, mine, members, len(rows))
        rows += [replace(row, stage_reached=stage.name) for row in found]
    champion = rows[0].stats if complete and rows and rows[0].place == 1 else None
    if champion is not None and len(rows) > 1 and rows[1].place == 1:
        champion = None
    current = current_stage(stages)
    kind = current.kind if current is not None else tournament.bracket_kind
    return Standings(kind, tuple(rows), sheets, complete, champion)


def _sides(matches: Sequence[Match]) -> list[int]:
    return [pk for m in matches for pk in (m.side_a_id, m.side_b_id) if pk is not None]


def _last_stage_rows(
    stage: Stage,
    mine: Sequence[Match],
    members: dict[int, PlayerStats],
    offset: int,
    stages: Sequence[Stage],
) -> tuple[list[Standing], bool]:
    """The rows of the players of the last stage played; whether the event is decided."""
    last = stage.number == max(s.number for s in stages)
    if stage.is_knockout:
        rows, decided = elimination_rows(
            mine, members, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        return rows, decided and last
    groups = _ranked(stage, mine, members)
    if stage.status == Stage.Status.CLOSED or (last and _played_out(stage, mine)):
        return _placed(groups, members, offset, lambda _entry, _label, _pool: ""), last
    progress = _in_play(stage, mine, groups, members)
    rows = [
        Standing(None, "", progress[entry_id], members[entry_id])
        for group in groups
        for entry_id, _label, _pool in group
    ]
    return rows, False


def _out_rows(
    stage: Stage, mine: Sequence[Match], members: dict[int, PlayerStats], offset: int
) -> list[Standing]:
    """The players whose last stage this was, though a later one is played: their places
    follow everybody who got further."""
    if stage.is_knockout:
        placed, _decided = elimination_rows(
            mine, members, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        groups = _groups(
            [(row.stats.entry_id, row.place_label, None) for row in placed],
            [row.place or 0 for row in placed],
        )
        progress = {row.stats.entry_id: row.progress for row in placed}
        return _placed(groups, members, offset, lambda entry, _label, _pool: progress[entry])

    def out_text(entry: int, label: str, pool: int | None) -> str:
        params = {"stage": stage.name, "place": label, "pool": pool}
        if not label:  # entered late, and the stage ended before they were paired
            text = _("Out in %(stage)s: did not play") % params
        elif pool is not None:
            text = _("Out in %(stage)s: place %(place)s in pool %(pool)d") % params
        else:
            text = _("Out in %(stage)s: place %(place)s") % params
        if members[entry].withdrawn:
            text = _("%(progress)s (withdrew)") % {"progress": text}
        return text

    return _placed(_ranked(stage, mine, members), members, offset, out_text)


Group = list[tuple[int, str, int | None]]
"""Players level in a stage: (entry id, their place there, their pool or None)."""


def _ranked(stage: Stage, mine: Sequence[Match], members: dict[int, PlayerStats]) -> list[Group]:
    """``members`` in the order of the stage's standings, in groups of players level on
    every tiebreak (pools: by pool place, then across pools by the tiebreaks' values)."""
    tables = stage_standings(stage, mine)
    pooled = len(tables) > 1
    found: list[tuple[tuple[Any, ...], tuple[int, str, int | None]]] = []
    for number, table in enumerate(tables, start=1):
        sharing = Counter(row.place for row in table)
        for row in table:
            if row.player not in members:
                continue
            last = row.place + sharing[row.place] - 1
            values = tuple(-(value or 0) for _name, value in row.values)
            key = (row.place, *values) if pooled else (row.place,)
            found.append(
                (key, (row.player, place_label(row.place, last), number if pooled else None))
            )
    found.sort(key=lambda item: item[0])
    seen = {entry_id for _key, (entry_id, _label, _pool) in found}
    missing = [entry_id for entry_id in members if entry_id not in seen]
    groups = _groups([item for _key, item in found], [key for key, _item in found])
    return groups + ([[(entry_id, "", None) for entry_id in missing]] if missing else [])


def _groups(items: list[tuple[int, str, int | None]], keys: Sequence[Any]) -> list[Group]:
    groups: list[Group] = []
    for index, item in enumerate(items):
        if index and keys[index] == keys[index - 1]:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _placed(
    groups: list[Group],
    members: dict[int, PlayerStats],
    offset: int,
    progress: Callable[[int, str, int | None], str],
) -> list[Standing]:
    rows = []
    first = offset + 1
    for group in groups:
        label = place_label(first, first + len(group) - 1)
        for entry_id, stage_label, pool in group:
            text = progress(entry_id, stage_label, pool)
            rows.append(Standing(first, label, text, members[entry_id]))
        first += len(group)
    return rows


def _played_out(stage: Stage, mine: Sequence[Match]) -> bool:
    if any(m.status != Match.Status.COMPLETE for m in mine):
        return False
    return stage.kind != Stage.Kind.SWISS or current_round(mine) >= (stage.rounds or 0)


def _in_play(
    stage: Stage, mine: Sequence[Match], groups: list[Group], members: dict[int, PlayerStats]
) -> dict[int, str]:
    """How far each player still in the running is in a Swiss or pools stage: the place
    there so far, once they have played, and the rounds played of the Swiss's rounds (a
    bye is a round played), or the matches of their pool."""
    swiss = stage.kind == Stage.Kind.SWISS
    done: Counter[int] = Counter()
    total: Counter[int] = Counter()
    for match in mine:
        if not swiss and (match.is_bye or not match.has_both_sides):
            continue
        for entry_id in (match.side_a_id, match.side_b_id):
            if entry_id is not None:
                total[entry_id] += 1
                done[entry_id] += match.status == Match.Status.COMPLETE
    rounds = stage.rounds or current_round(mine)
    found = {}
    for group in groups:
        for entry_id, label, pool in group:
            count = rounds if swiss else total[entry_id]
            params = {"played": done[entry_id], "total": count, "place": label, "pool": pool}
            if swiss:
                text = ngettext(
                    "%(played)d of %(total)d round played",
                    "%(played)d of %(total)d rounds played",
                    count,
                )
            else:
                text = ngettext(
                    "%(played)d of %(total)d match played",
                    "%(played)d of %(total)d matches played",
                    count,
                )
            text = text % params
            if label and done[entry_id]:
                if pool is not None:
                    so_far = _("Place %(place)s in pool %(pool)d so far") % params
                else:
                    so_far = _("Place %(place)s so far") % params
                text = f"{so_far} · {text}"
            if members[entry_id].withdrawn:
                text = _("%(progress)s (withdrew)") % {"progress": text}
            found[entry_id] = text
    return found


def stage_views(
    tournament: Tournament,
    stages: Sequence[Stage],
    matches: Sequence[Match],
    standings: Standings,
) -> list[StageView]:
    """Every stage in order; a tournament without stages as its one stage."""
    double = tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION
    names = RoundNames(matches, double=double)
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
                rounds=_rounds(matches, names),
                names=names,
                sheets=standings.sheets,
            )
        ]
    return [_view(stage, matches, standings.sheets, names) for stage in stages]


def _view(
    stage: Stage, matches: Sequence[Match], sheets: dict[int, MatchSheet], names: RoundNames
) -> StageView:
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
