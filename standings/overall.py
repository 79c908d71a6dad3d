"""A staged tournament's standings, every entrant ranked (:func:`overall`): the last stage
played's places, then those out in earlier stages by their place there, each row's
numbers the whole event's. Like :mod:`standings.standings`, everything here works on
matches and stages already loaded and makes no queries.

What this module does not do: load anything, or rank players within a stage (each stage's
:class:`~tournaments.stages.results.StageResults` does, its knockout placings
:mod:`standings.standings`), or show a stage (:mod:`standings.stage_views`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import MatchSheet
from standings.standings import Standing, Standings, elimination_rows, place_label
from standings.stats import PlayerStats, player_stats, stats_for
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.stages.progress import current_stage
from tournaments.stages.results import StageResults


def overall(
    tournament: Tournament,
    results: Sequence[StageResults],
    matches: Sequence[Match],
    sheets: dict[int, MatchSheet],
    waiting: Sequence[Entry] = (),
) -> Standings:
    """The final standings of a staged tournament: every entrant, best first.

    ``results``: each stage's, in order (:func:`tournaments.stages.results.results_of_stages`
    of ``matches``, the tournament's). The last stage played's places come first (its
    knockout placings, or its standings by its tiebreaks), then the players out in each
    earlier stage, stage by stage backwards, by their place there (pools: by pool place,
    then across pools by the stage's tiebreaks); players level there share a place here
    ("9–10"). ``waiting``, the entries in no match yet (a late entry before the next Swiss
    round), belong to the first stage and have played nothing there. While a stage
    is being played, its players have no final place yet (their progress says how far
    they are); the players out before it have theirs as soon as the cut is made. Each
    row's numbers are the whole event's; ``stage_reached`` names the player's last
    stage."""
    stats = player_stats(matches, sheets)
    for entry in waiting:
        stats.setdefault(entry.pk, stats_for(entry))
    stages = [stage_results.stage for stage_results in results]
    played = [r for r in results if r.stage.status != Stage.Status.PENDING and r.matches]
    reached: dict[int, StageResults] = {}
    for stage_results in played:
        members = [*stage_results.stage.entrants, *_sides(stage_results.matches)]
        if stage_results.stage.number == 1:
            members += [entry.pk for entry in waiting]
        for entry_id in members:
            if int(entry_id) in stats:
                reached[int(entry_id)] = stage_results
    rows: list[Standing] = []
    complete = False
    for stage_results in reversed(played):
        members = {
            entry_id: stats[entry_id] for entry_id, r in reached.items() if r is stage_results
        }
        if stage_results is played[-1]:
            found, complete = _last_stage_rows(stage_results, members, len(rows), stages)
        else:
            found = _out_rows(stage_results, members, len(rows))
        rows += [replace(row, stage_reached=stage_results.stage.name) for row in found]
    champion = rows[0].stats if complete and rows and rows[0].place == 1 else None
    if champion is not None and len(rows) > 1 and rows[1].place == 1:
        champion = None
    current = current_stage(stages)
    kind = current.kind if current is not None else tournament.bracket_kind
    return Standings(kind, tuple(rows), sheets, complete, champion)


def _sides(matches: Sequence[Match]) -> list[int]:
    return [pk for m in matches for pk in (m.side_a_id, m.side_b_id) if pk is not None]


def _last_stage_rows(
    results: StageResults,
    members: dict[int, PlayerStats],
    offset: int,
    stages: Sequence[Stage],
) -> tuple[list[Standing], bool]:
    """The rows of the players of the last stage played; whether the event is decided."""
    stage = results.stage
    last = stage.number == max(s.number for s in stages)
    if stage.is_knockout:
        rows, decided = elimination_rows(
            results.matches, members, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
        )
        return rows, decided and last
    groups = _ranked(results, members)
    if stage.status == Stage.Status.CLOSED or (last and results.played_out):
        return _placed(groups, members, offset, lambda _entry, _label, _pool: ""), last
    progress = _in_play(results, groups, members)
    rows = [
        Standing(None, "", progress[entry_id], members[entry_id])
        for group in groups
        for entry_id, _label, _pool in group
    ]
    return rows, False


def _out_rows(
    results: StageResults, members: dict[int, PlayerStats], offset: int
) -> list[Standing]:
    """The players whose last stage this was, though a later one is played: their places
    follow everybody who got further."""
    stage = results.stage
    if stage.is_knockout:
        placed, _decided = elimination_rows(
            results.matches, members, double=stage.kind == Stage.Kind.DOUBLE_ELIMINATION
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

    return _placed(_ranked(results, members), members, offset, out_text)


Group = list[tuple[int, str, int | None]]
"""Players level in a stage: (entry id, their place there, their pool or None)."""


def _ranked(results: StageResults, members: dict[int, PlayerStats]) -> list[Group]:
    """``members`` in the order of the stage's standings, in groups of players level on
    every tiebreak (pools: by pool place, then across pools by the tiebreaks' values);
    anyone the standings do not hold (never paired) last, with no place."""
    groups = [
        [(p.entry_id, place_label(p.place, p.last), p.pool) for p in level]
        for level in results.levels(members)
    ]
    seen = {entry_id for group in groups for entry_id, _label, _pool in group}
    missing = [entry_id for entry_id in members if entry_id not in seen]
    return groups + ([[(entry_id, "", None) for entry_id in missing]] if missing else [])


def _groups(items: list[tuple[int, str, int | None]], keys: Sequence[object]) -> list[Group]:
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


def _in_play(
    results: StageResults, groups: list[Group], members: dict[int, PlayerStats]
) -> dict[int, str]:
    """How far each player still in the running is in a Swiss or pools stage: the place
    there so far, once they have played, and the rounds played of the Swiss's rounds (a
    bye is a round played), or the matches of their pool."""
    stage = results.stage
    swiss = stage.kind == Stage.Kind.SWISS
    done: Counter[int] = Counter()
    total: Counter[int] = Counter()
    for match in results.matches:
        if not swiss and (match.is_bye or not match.has_both_sides):
            continue
        for entry_id in (match.side_a_id, match.side_b_id):
            if entry_id is not None:
                total[entry_id] += 1
                done[entry_id] += match.status == Match.Status.COMPLETE
    rounds = stage.rounds or results.rounds_played
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
