"""The stages of an archive, read and checked (see :mod:`archive.api`).

An archive from before stages has no ``"stages"``: its tournament is one bracket and its
matches name no stage. Otherwise each stage is numbered 1, 2 … in order, with its
settings as :class:`tournaments.models.Stage` stores them and its entrants, pools and
late entries' starting points as entry indexes; a match's ``"stage"`` is a stage number
or null. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import RuleSet, ScoringError, resolve_rules
from pairing.tiebreaks import Tiebreak
from tournaments.models import Match, Stage, Tournament

from .fields import Record, quote, read_list
from .schema import STAGE_ENTRIES, STAGE_FIELDS, ArchiveError
from .stage_structure import stage_problems


@dataclass
class StagePlan:
    stage: Stage
    entrants: list[int]
    pools: list[list[int]]
    start_points: dict[int, int]
    time_called: dict[str, int]


def check_stages(data: Any, entry_count: int, tournament: Tournament) -> list[StagePlan]:
    plans = []
    for i, raw in enumerate(read_list(data, "stages")):
        record = Record(raw, f"stages[{i}]", STAGE_FIELDS + STAGE_ENTRIES)
        stage = Stage(tournament=tournament, **record.fields(Stage, STAGE_FIELDS))
        if stage.number != i + 1:
            raise ArchiveError(f"{record.at('number')} must be {i + 1}, not {quote(stage.number)}")
        names = stage.tiebreaks
        if (
            not isinstance(names, list)
            or not names
            or len(set(map(str, names))) != len(names)
            or any(name not in set(Tiebreak) for name in names)
        ):
            raise ArchiveError(f"{record.at('tiebreaks')}: not a list of tiebreaks {quote(names)}")
        if not isinstance(stage.rules, dict) or not isinstance(stage.round_rules, dict):
            raise ArchiveError(f"{record.where}: rules and round_rules must be objects")
        for round_ in [None, *stage.round_rules]:
            try:
                if round_ is not None and round_ != "final" and not str(round_).isdigit():
                    raise ArchiveError(f"{record.at('round_rules')}: {quote(round_)} is no round")
                spec = stage.rules_for_round(None)
                spec.update(stage.round_rules[round_] if round_ is not None else {})
                resolve_rules(spec)
            except (ScoringError, TypeError, AttributeError) as error:
                raise ArchiveError(f"{record.at('rules')}: {error}") from None

        def index(value: Any, where: str) -> int:
            if type(value) is not int or not 0 <= value < entry_count:
                raise ArchiveError(f"{where} refers to no entry: {quote(value)}")
            return value

        entrants = [
            index(v, f"{record.at('entrants')}[{n}]")
            for n, v in enumerate(read_list(record["entrants"], record.at("entrants")))
        ]
        pools = [
            [index(v, record.at("pools")) for v in read_list(pool, record.at("pools"))]
            for pool in read_list(record["pools"], record.at("pools"))
        ]
        points = record["start_points"]
        if not isinstance(points, dict):
            raise ArchiveError(f"{record.at('start_points')} must be an object")
        start_points = {}
        for key, value in points.items():
            if not str(key).isdigit() or type(value) is not int or not 0 <= value <= 1000:
                raise ArchiveError(f"{record.at('start_points')}: {quote(key)}: {quote(value)}")
            start_points[index(int(key), record.at("start_points"))] = value
        called = record["time_called"]
        if not isinstance(called, dict) or any(
            not isinstance(k, str) or type(v) is not int or v < 0 for k, v in called.items()
        ):
            raise ArchiveError(f"{record.at('time_called')} must map match keys to hands")
        for problem in stage_problems(stage, entrants, pools):
            raise ArchiveError(f"{record.at(problem.field)}: {problem.text}")
        plans.append(StagePlan(stage, entrants, pools, start_points, dict(called)))
    return plans


def check_match_stages(
    raw_matches: Any, matches: list[Match], stages: list[StagePlan]
) -> dict[str, int | None]:
    """Each match key's stage number (null: the tournament's one bracket)."""
    keys = {match.key for match in matches}
    for n, plan in enumerate(stages):
        unknown = [key for key in plan.time_called if key not in keys]
        if unknown:
            raise ArchiveError(f"stages[{n}].time_called refers to no match: {quote(unknown[0])}")
    numbers: dict[str, int | None] = {}
    for i, (raw, match) in enumerate(zip(raw_matches, matches, strict=True)):
        number = raw.get("stage")
        if number is not None and (type(number) is not int or not 1 <= number <= len(stages)):
            raise ArchiveError(f"matches[{i}].stage refers to no stage: {quote(number)}")
        if number is None and stages:
            raise ArchiveError(f"matches[{i}].stage: a tournament in stages has no other match")
        numbers[match.key] = number
    return numbers


def rules_of(match: Match, number: int | None, stages: list[StagePlan], rules: RuleSet) -> RuleSet:
    if number is None:
        return rules
    return resolve_rules(stages[number - 1].stage.rules_for_round(match.round, match.section))
