"""The exports that list a staged event's matches (issue 41): ``matches.csv`` and the
rounds of ``standings.json``. Every match row carries its stage; the rows come stage by
stage, round by round in playing order, match by match; each round is named as the pages
name it ("Round 2 · Match 3", "Semifinals · Match 1", "Final"); each finished match says
how it was decided, as its stored decision says; and a match decided on time shows the
points its sheet shows (the game cut short counted), not 0 and 0.

The expected names and order are worked out here from the stored matches, not asked of the
code that makes the exports."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from scoring.loading import sheet_for
from tournaments.models import Decision, Match, Stage

from .driver import Event
from .problems import Problem

CSV = "matches.csv"
JSON = "standings.json rounds"
LAST = ("third_place", "final", "reset")
FROM_THE_END = {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}


def _order(match: Match) -> tuple[int, bool, int, int]:
    return (match.stage.number, match.section in LAST, match.round, match.position)


def _round(match: Match, last: dict[tuple[int, str], int]) -> str:
    if match.section == "third_place":
        return "Third-place match"
    if match.stage.kind == Stage.Kind.SINGLE_ELIMINATION and match.section == "winners":
        from_end = last[(match.stage_id, "winners")] - match.round
        if from_end in FROM_THE_END:
            return FROM_THE_END[from_end]
    return f"Round {match.round}"


def _name(match: Match, last: dict, count: dict) -> str:
    title = _round(match, last)
    if count[(match.stage_id, match.section, match.round)] == 1:
        return title
    return f"{title} · Match {match.position}"


def _decided(match: Match, kinds: dict[int, str]) -> str:
    if match.status != Match.Status.COMPLETE or match.is_bye:
        return ""
    return kinds.get(match.pk, "played")


def _expected(tournament) -> tuple[list[Match], dict, dict, dict[int, str]]:
    matches = list(
        Match.objects.filter(tournament=tournament).select_related(
            "stage", "side_a__player", "side_b__player"
        )
    )
    matches = [m for m in matches if not m.is_skipped]
    last: dict[tuple[int, str], int] = {}
    count: dict[tuple[int, str, int], int] = {}
    for m in Match.objects.filter(tournament=tournament):
        last[(m.stage_id, m.section)] = max(last.get((m.stage_id, m.section), 0), m.round)
        key = (m.stage_id, m.section, m.round)
        count[key] = count.get(key, 0) + 1
    kinds: dict[int, str] = {}
    for decision in Decision.objects.filter(tournament=tournament):
        if decision.kind in (Decision.Kind.TIME, Decision.Kind.RULING):
            kinds[decision.match_id] = "on time"
        elif decision.kind == Decision.Kind.WALKOVER:
            kinds[decision.match_id] = "withdrawal" if decision.entry_id else "walkover"
    return sorted(matches, key=_order), last, count, kinds


def _sheet_points(match: Match) -> tuple[int, int, int, int]:
    """Games won and points as the match's sheet shows them (SPEC 3's contract): the
    games played out, and a game cut short by time with its points so far."""
    sheet = sheet_for(match).to_dict()
    games = sheet.get("games") or sheet.get("columns") or []
    won = sheet["match"].get("games_won") or sheet["match"]["columns_won"]
    points = dict(sheet["match"]["total"])
    for game in games:
        if not game["complete"]:
            points = {side: points[side] + game["points"][side] for side in ("A", "B")}
    return won["A"], won["B"], points["A"], points["B"]


def _rows_problems(surface: str, rows: list[dict], matches: list[Match], last, count, kinds):
    problems: list[Problem] = []
    if len(rows) != len(matches):
        return [Problem(surface, "", f"{len(rows)} match rows for {len(matches)} matches")]
    for row, match in zip(rows, matches, strict=True):
        who = f"{match.stage.name} {match.key}"
        wanted = {
            "stage": match.stage.name,
            "match": _name(match, last, count),
            "players": {match.name_a, match.name_b} - {"TBD"},
            "decided": _decided(match, kinds),
        }
        for key, value in wanted.items():
            if row[key] != value:
                problems.append(Problem(surface, who, f"{key} {row[key]!r}, not {value!r}"))
        if wanted["decided"] == "on time":
            sheet = _sheet_points(match)
            shown = row["scores"]
            if shown != sheet:
                problems.append(
                    Problem(surface, who, f"decided on time: {shown}, its sheet {sheet}")
                )
    return problems


def _csv_rows(event: Event) -> tuple[list[dict], list[Problem]]:
    response = event.visitor.get(event.url("club:matches-csv"))
    if response.status_code != 200:
        return [], [Problem(CSV, "", f"answers {response.status_code}")]
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header, body = table[0], table[1:]
    at = {name: header.index(name) for name in header}
    if "Stage" not in at or "Decided" not in at:
        return [], [Problem(CSV, "", f"no Stage or Decided column: {header}")]
    rows = []
    for line in body:
        a, b = line[at["Player A"]].removeprefix("'"), line[at["Player B"]].removeprefix("'")
        columns = ("Games A", "Games B", "Points A", "Points B")
        scores = tuple(int(line[at[column]] or 0) for column in columns)
        rows.append(
            {
                "stage": line[at["Stage"]],
                "match": line[at["Match"]],
                "players": {a, b} - {"TBD", ""},
                "decided": line[at["Decided"]],
                "scores": scores,
            }
        )
    return rows, []


def _json_rows(event: Event) -> list[dict]:
    stages = json.loads(event.visitor.get(event.url("public:standings-json")).content)["stages"]
    rows = []
    for stage in stages:
        for pairings in stage["rounds"]:
            for row in pairings:
                games, points = row.get("games", {}), row.get("points", {})
                rows.append(
                    {
                        "stage": row.get("stage"),
                        "match": row.get("match"),
                        "players": {row["a"], row["b"]} - {None},
                        "decided": row.get("decided") or "",
                        "scores": (
                            games.get("a"),
                            games.get("b"),
                            points.get("a"),
                            points.get("b"),
                        ),
                    }
                )
    return rows


def _json_order(matches: Iterable[Match]) -> list[Match]:
    """standings.json lists pairings, leaving out the byes of nobody."""
    return [
        m
        for m in matches
        if m.side_a_id is not None or m.side_b_id is not None or m.status != "complete"
    ]


def match_exports(event: Event) -> list[Problem]:
    tournament = event.tournament
    if not Stage.objects.filter(tournament=tournament).exists():
        return []
    matches, last, count, kinds = _expected(tournament)
    rows, problems = _csv_rows(event)
    if not problems:
        problems += _rows_problems(CSV, rows, matches, last, count, kinds)
    json_rows = _json_rows(event)
    # A bye's player is "a" in the JSON: its scores are not compared (no decision on time).
    problems += _rows_problems(JSON, json_rows, _json_order(matches), last, count, kinds)
    return problems
