"""Standings and per-player statistics of one tournament, from rows already loaded.

:func:`compute` takes the tournament, all of its matches (sides and players loaded with
``select_related``) and the engine's sheet of every match that has hands (from
:func:`scoring.loading.score_matches`), and returns plain dataclasses: each player's
statistics and the standings.

* Elimination: final placings 1, 2, 3–4, 5–8 … come from the stage of the bracket in
  which a player went out (a third-place match splits 3 and 4); players still in the
  running have no place yet, only their progress. The place ranges follow from the
  bracket's shape, so byes and double elimination need no special cases: the players
  who go out in a stage share the places below everybody who gets further.
* Round robin: match wins, then head-to-head among the tied players (applied again to
  any smaller group it leaves tied), then games won, then point margin.
* Statistics come from :mod:`standings.stats`.

What this module does not do: query the database (every loop here is linear in what it
is given, so a page built on it costs the same queries whatever the field size), render
anything, or show personal data (it reads names and seeds only).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import MatchSheet
from standings.stats import COMPLETE, PlayerStats, player_stats, seed_key
from tournaments.match_names import round_title

if TYPE_CHECKING:
    from tournaments.models import Match, Tournament


MAIN_SECTIONS = frozenset({"winners", "losers", "final", "reset"})
"""Sections that decide the title; third place and consolation only refine places."""
FINAL_SECTIONS = frozenset({"final", "reset"})


# -- standings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    ``place`` is the best place of the player's group (3 for "3–4"), None while the
    player is still in the running; ``place_label`` is what people read ("3–4", "2").
    ``progress`` says in words where the player stands (champion, out in the
    semifinals, playing at table 4 …). ``stage_reached``: in a tournament played in
    stages, the name of the last stage the player played in ("" for one bracket).
    """

    place: int | None
    place_label: str
    progress: str
    stats: PlayerStats
    stage_reached: str = ""

    def as_json(self) -> dict[str, Any]:
        s = self.stats
        return {
            "place": self.place,
            "place_label": self.place_label,
            "name": s.name,
            "seed": s.seed,
            "progress": self.progress,
            "stage_reached": self.stage_reached or None,
            "matches_won": s.matches_won,
            "matches_played": s.matches_played,
            "games_won": s.games_won,
            "games_lost": s.games_lost,
            "points_for": s.points_for,
            "points_against": s.points_against,
            "hands_won": s.hands_won,
            "gins": s.gins,
            "undercuts": s.undercuts,
            "shutouts": s.shutouts,
            "average_knock_deadwood": s.average_knock_deadwood,
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """The tournament's standings, best first, and the sheets they were computed from."""

    kind: str
    rows: tuple[Standing, ...]
    sheets: dict[int, MatchSheet] = field(default_factory=dict)
    complete: bool = False
    champion: PlayerStats | None = None

    @property
    def places(self) -> list[tuple[int, int | None]]:
        """(entry id, final place or None) of each row, best first."""
        return [(row.stats.entry_id, row.place) for row in self.rows]


def compute(
    tournament: Tournament, matches: Sequence[Match], sheets: dict[int, MatchSheet]
) -> Standings:
    """Standings of ``tournament`` from its loaded ``matches`` and their engine sheets
    (:func:`scoring.loading.score_matches`); no queries."""
    stats = player_stats(matches, sheets)
    kind = tournament.bracket_kind
    if kind == "round_robin":
        rows, complete = round_robin_rows(matches, stats)
    else:
        rows, complete = elimination_rows(matches, stats, double=kind == "double_elimination")
    champion = rows[0].stats if complete and rows and rows[0].place == 1 else None
    if champion is not None and len(rows) > 1 and rows[1].place == 1:
        champion = None  # a round robin tied at the top all the way down
    return Standings(kind, tuple(rows), sheets, complete, champion)


def place_label(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


# -- elimination -----------------------------------------------------------------------------


def last_rounds(matches: Iterable[Match]) -> dict[str, int]:
    """The highest round number of each section."""
    found: dict[str, int] = {}
    for match in matches:
        found[match.section] = max(found.get(match.section, 0), match.round)
    return found


def _stage(match: Match) -> tuple[int, int]:
    """How far into the bracket a match is; grand final and reset are one stage."""
    if match.section in FINAL_SECTIONS:
        return (1, 0)
    return (0, match.round)


def _routes_on(match: Match, by_id: dict[int, Match]) -> bool:
    """Whether the loser of ``match`` goes on to another main-bracket match."""
    target = by_id.get(match.loser_next_match_id) if match.loser_next_match_id else None
    return target is not None and target.section in MAIN_SECTIONS


def _continues(match: Match, entry_id: int, by_id: dict[int, Match], *, won: bool) -> bool:
    """Whether ``entry_id`` went on from ``match`` to another main-bracket match."""
    target_id = match.next_match_id if won else match.loser_next_match_id
    target = by_id.get(target_id) if target_id is not None else None
    return (
        target is not None
        and target.section in MAIN_SECTIONS
        and entry_id in (target.side_a_id, target.side_b_id)
    )


def elimination_rows(
    matches: Sequence[Match], stats: dict[int, PlayerStats], *, double: bool
) -> tuple[list[Standing], bool]:
    """Placings of a single or double elimination; returns (rows, title decided)."""
    by_id = {m.pk: m for m in matches}
    main = [m for m in matches if m.section in MAIN_SECTIONS]
    last = last_rounds(matches)
    places, running = _stage_places(main, by_id)
    out_at, current, champion_id = _exits(main, by_id, stats)
    third = next((m for m in matches if m.section == "third_place"), None)
    third_places = _third_places(third)
    rows: list[Standing] = []
    for entry_id, player in stats.items():
        if entry_id == champion_id:
            rows.append(Standing(1, "1", _("Champion"), player))
        elif entry_id in out_at:
            match = out_at[entry_id]
            first, last_place = places.get(_stage(match), (running, running))
            progress = _out_text(match, first, last, double=double)
            if entry_id in third_places:
                first = last_place = third_places[entry_id]
                progress = _("Third place") if first == 3 else _("Fourth place")
            elif third is not None and first == 3 and third.status != COMPLETE:
                progress = _("Plays for third place")
            if player.withdrawn:
                progress = _("%(progress)s (withdrew)") % {"progress": progress}
            rows.append(Standing(first, place_label(first, last_place), progress, player))
        else:
            progress = _alive_text(current.get(entry_id), last, double)
            rows.append(Standing(None, "", progress, player))
    rows.sort(key=lambda row: _elimination_order(row, current))
    return rows, champion_id is not None


def _stage_places(
    main: list[Match], by_id: dict[int, Match]
) -> tuple[dict[tuple[int, int], tuple[int, int]], int]:
    """The places (first, last) shared by the players out in each stage, and the last one."""
    # Each stage can put out this many players (a grand final and its reset, one).
    capacity: dict[tuple[int, int], int] = defaultdict(int)
    for match in main:
        stage = _stage(match)
        if stage[0] == 1:
            capacity[stage] = 1
        elif not match.is_bye and not _routes_on(match, by_id):
            capacity[stage] += 1
    places: dict[tuple[int, int], tuple[int, int]] = {}
    running = 1  # the champion's place
    for stage in sorted(capacity, reverse=True):
        if capacity[stage]:
            places[stage] = (running + 1, running + capacity[stage])
            running += capacity[stage]
    return places, running


def _exits(
    main: list[Match], by_id: dict[int, Match], stats: dict[int, PlayerStats]
) -> tuple[dict[int, Match], dict[int, Match], int | None]:
    """By entry id: where each player went out, where each player still in plays next; the
    champion (None until the title is decided)."""
    out_at: dict[int, Match] = {}
    champion_id: int | None = None
    current: dict[int, Match] = {}
    last_main: dict[int, Match] = {}
    for match in main:
        for entry_id in (match.side_a_id, match.side_b_id):
            if entry_id is None:
                continue
            last_main[entry_id] = match
            if match.status != COMPLETE and entry_id not in current:
                current[entry_id] = match
        if match.status != COMPLETE or not match.winner_side:
            continue
        winner_id = match.entry_id(match.winner_side)
        loser_id = match.entry_id(match.loser_side)
        if loser_id is not None and not _continues(match, loser_id, by_id, won=False):
            out_at[loser_id] = match
        if winner_id is not None and not _continues(match, winner_id, by_id, won=True):
            champion_id = winner_id
    for entry_id, player in stats.items():
        # Out without a loss: withdrawn players who met each other in a void match.
        settled = entry_id in out_at or entry_id in current or entry_id == champion_id
        if not settled and player.withdrawn and entry_id in last_main:
            out_at[entry_id] = last_main[entry_id]
    return out_at, current, champion_id


def _third_places(third: Match | None) -> dict[int, int]:
    """Places 3 and 4 by entry id, once the third-place match is decided."""
    if third is None or third.status != COMPLETE or not third.winner_side:
        return {}
    places = ((third.entry_id(third.winner_side), 3), (third.entry_id(third.loser_side), 4))
    return {entry_id: place for entry_id, place in places if entry_id is not None}


def _elimination_order(row: Standing, current: dict[int, Match]) -> tuple[Any, ...]:
    """Sort key: place (players still in first, furthest first), wins, games, margin, seed."""
    s = row.stats
    depth = (0, 0)
    if row.place is None and row.stats.entry_id in current:
        depth = _stage(current[row.stats.entry_id])
    return (
        row.place if row.place is not None else 0,
        (-depth[0], -depth[1]),
        -s.matches_won,
        -(s.games_won - s.games_lost),
        -s.margin,
        seed_key(s),
    )


def _out_text(match: Match, first: int, last: dict[str, int], *, double: bool) -> str:
    if first == 2:
        return _("Runner-up")
    title = round_title(match.section, match.round, last.get(match.section, 0), double=double)
    return _("Out in: %(round)s") % {"round": title}


def _alive_text(match: Match | None, last: dict[str, int], double: bool) -> str:
    if match is None:
        return _("Still in")
    title = round_title(match.section, match.round, last.get(match.section, 0), double=double)
    params = {"round": title, "table": match.table}
    if match.status in ("in_play", "awaiting_confirmation"):
        if match.table:
            return _("Playing: %(round)s, table %(table)s") % params
        return _("Playing: %(round)s") % params
    if match.status == "ready" and match.table:
        return _("Next: %(round)s, table %(table)s") % params
    return _("Next: %(round)s") % params


# -- round robin -----------------------------------------------------------------------------


def round_robin_rows(
    matches: Sequence[Match], stats: dict[int, PlayerStats]
) -> tuple[list[Standing], bool]:
    """Ordered by match wins, head-to-head, games won, point margin; ties share a place."""
    beat: dict[int, set[int]] = defaultdict(set)
    beaten: dict[tuple[int, int], int] = defaultdict(int)
    to_play: dict[int, int] = defaultdict(int)
    total: dict[int, int] = defaultdict(int)
    for match in matches:
        if match.side_a_id is None or match.side_b_id is None or match.is_bye:
            continue
        for entry_id in (match.side_a_id, match.side_b_id):
            total[entry_id] += 1
            if match.status != COMPLETE:
                to_play[entry_id] += 1
        if match.status == COMPLETE and match.winner_side:
            winner = match.entry_id(match.winner_side)
            loser = match.entry_id(match.loser_side)
            if winner is not None and loser is not None:
                beat[winner].add(loser)
                beaten[(winner, loser)] += 1

    by_wins: dict[int, list[PlayerStats]] = defaultdict(list)
    for player in stats.values():
        by_wins[player.matches_won].append(player)
    tiers: list[list[PlayerStats]] = []
    for wins in sorted(by_wins, reverse=True):
        tiers += _break_ties(by_wins[wins], beaten)

    complete = bool(total) and not any(to_play.values())
    rows: list[Standing] = []
    place = 1
    for tier in tiers:
        label = place_label(place, place + len(tier) - 1)
        for player in sorted(tier, key=seed_key):
            played = total[player.entry_id] - to_play[player.entry_id]
            progress = (
                ""
                if complete
                else ngettext(
                    "%(played)d of %(total)d match played",
                    "%(played)d of %(total)d matches played",
                    total[player.entry_id],
                )
                % {"played": played, "total": total[player.entry_id]}
            )
            rows.append(Standing(place, label, progress, player))
        place += len(tier)
    return rows, complete


def _break_ties(
    group: list[PlayerStats], beaten: dict[tuple[int, int], int]
) -> list[list[PlayerStats]]:
    """Split players level on match wins into tiers, best first (full ties stay together).

    Head-to-head (wins among the tied players only), then games won, then point margin:
    the first that separates anybody splits the group, and each smaller group left level
    starts again from head-to-head, as a two-way tie would.
    """
    if len(group) == 1:
        return [group]
    ids = [p.entry_id for p in group]
    h2h = {p.entry_id: sum(beaten.get((p.entry_id, other), 0) for other in ids) for p in group}
    criteria: tuple[Callable[[PlayerStats], int], ...] = (
        lambda p: h2h[p.entry_id],
        attrgetter("games_won"),
        attrgetter("margin"),
    )
    for criterion in criteria:
        split: dict[int, list[PlayerStats]] = defaultdict(list)
        for player in group:
            split[criterion(player)].append(player)
        if len(split) > 1:
            return [
                tier
                for value in sorted(split, reverse=True)
                for tier in _break_ties(split[value], beaten)
            ]
    return [group]
