"""What the round-control screen shows: per round, which tables are still playing, what
is queued for a table and what awaits confirmation. A tournament in stages lists every
stage's rounds, stage after stage, each named with its stage as every page names it
(:mod:`tournaments.match_names`: "Swiss · Round 1", "Knockout · Quarterfinals"; round
numbers start again in each stage). Read-only; two queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .match_names import RoundNames, play_order
from .models import Match, Tournament

Status = Match.Status
PLAYING = (Status.READY, Status.IN_PLAY, Status.AWAITING)


@dataclass
class RoundInfo:
    section: str
    section_label: str
    round: int
    matches: list[Match] = field(default_factory=list)
    stage: str = ""
    """The stage's name (a tournament in stages), which the label starts with."""
    stage_number: int | None = None
    title: str = ""
    """The round as the pages name it within its stage ("Quarterfinals", "Round 2")."""

    @property
    def print_query(self) -> str:
        """The round pack's query string: its section, unless the main one, and its stage
        (stages each number their rounds from 1)."""
        query: dict[str, str | int] = {}
        if self.section not in (Match.Section.WINNERS, Match.Section.ROUND_ROBIN):
            query["section"] = self.section
        if self.stage_number is not None:
            query["stage"] = self.stage_number
        return f"?{urlencode(query)}" if query else ""

    @property
    def label(self) -> str:
        return f"{self.stage} · {self.title}" if self.stage else self.title

    @property
    def played(self) -> list[Match]:
        return [m for m in self.matches if not m.is_bye]

    @property
    def complete(self) -> int:
        return sum(m.status == Status.COMPLETE for m in self.played)

    @property
    def is_complete(self) -> bool:
        return all(m.status == Status.COMPLETE for m in self.matches)

    @property
    def is_started(self) -> bool:
        return any(m.status != Status.WAITING for m in self.played)

    @property
    def tables_playing(self) -> list[int]:
        return sorted(m.table for m in self.matches if m.status in PLAYING and m.table)

    @property
    def queued(self) -> list[Match]:
        return [m for m in self.matches if m.status in PLAYING and not m.table]

    @property
    def waiting_on(self) -> str:
        """E.g. "Waiting on tables 3 and 9"."""
        tables = self.tables_playing
        if not tables:
            return ""
        return ngettext(
            "Waiting on table %(tables)s", "Waiting on tables %(tables)s", len(tables)
        ) % {"tables": join_and([str(t) for t in tables])}


@dataclass
class Overview:
    rounds: list[RoundInfo]
    tables: int
    in_use: list[int]
    queue: list[Match]
    awaiting: list[Match]

    @property
    def free_tables(self) -> list[int]:
        return [n for n in range(1, self.tables + 1) if n not in self.in_use]

    @property
    def current(self) -> list[RoundInfo]:
        return [r for r in self.rounds if r.is_started and not r.is_complete]

    @property
    def in_play(self) -> RoundInfo | None:
        """The first round not yet complete: the one the page brings into view."""
        return next((r for r in self.rounds if not r.is_complete), None)


def join_and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return _("%(list)s and %(last)s") % {"list": ", ".join(items[:-1]), "last": items[-1]}


def round_overview(tournament: Tournament) -> Overview:
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("side_a__player", "side_b__player", "stage")
        .order_by("pk")
    )
    names = RoundNames(matches, double=tournament.bracket_kind == "double_elimination")
    names.name_all(matches)
    rounds: dict[tuple[int, str, int], RoundInfo] = {}
    for match in matches:
        stage = match.stage if match.stage_id is not None else None
        key = (stage.number if stage is not None else 0, match.section, match.round)
        if key not in rounds:
            rounds[key] = RoundInfo(
                section=match.section,
                section_label=str(Match.Section(match.section).label),
                round=match.round,
                stage=stage.name if stage is not None else "",
                stage_number=stage.number if stage is not None else None,
                title=names.round(match),
            )
        rounds[key].matches.append(match)
    for info in rounds.values():
        info.matches.sort(key=lambda m: m.position)
    queue = sorted(
        (m for m in matches if m.status in (Status.READY, Status.IN_PLAY) and not m.table),
        key=lambda m: (m.round, m.position, m.pk),
    )
    return Overview(
        rounds=[rounds[key] for key in sorted(rounds, key=lambda k: (k[0], *play_order(*k[1:])))],
        tables=tournament.tables,
        in_use=sorted(m.table for m in matches if m.status in PLAYING and m.table),
        queue=queue,
        awaiting=[m for m in matches if m.status == Status.AWAITING],
    )
