"""The bracket and the standings on paper, built from what the public pages show
(:func:`standings.data.load`), in the tournament's language.

Like :mod:`printing.scoresheet_documents`, each ``*_document`` function loads what
it needs with a fixed number of queries and returns the plain dataclasses of
:mod:`printing.pdfs` with the :class:`~printing.pdfs.Labels` to print them with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from django.utils import formats, translation
from django.utils.translation import gettext as _

from club.standings_ratings import club_rating_column
from money.pool import standing_prizes
from standings.board import AT_TABLE, MatchBox, SlotView, bracket_sections, match_box
from standings.data import Results, load
from standings.standings import Standing
from tournaments.models import Match, Tournament

from .labels import labels
from .pdfs import (
    BracketEntry,
    BracketMatch,
    BracketRound,
    BracketSection,
    BracketSheet,
    Labels,
    StandingsRow,
    StandingsSheet,
    isolate,
)


def _subtitle(data: Results, *extra: str) -> str:
    tournament = data.tournament
    parts = [
        formats.date_format(tournament.date, "DATE_FORMAT"),
        isolate(tournament.venue),
        data.format_line,
        *extra,
    ]
    return " · ".join(part for part in parts if part)


def _entry(slot: SlotView) -> BracketEntry:
    if not slot.name:
        return BracketEntry(slot.placeholder or _("To be decided"), placeholder=True)
    score = None if slot.score is None else str(slot.score)
    return BracketEntry(slot.name, slot.seed, score)


def _bracket_match(box: MatchBox) -> BracketMatch:
    note = ""
    if box.skipped:
        note = _("not needed")
    elif box.forfeit:
        note = _("walkover")
    elif box.conditional and box.status == Match.Status.WAITING:
        note = _("if needed")
    winner = "A" if box.a.won else "B" if box.b.won else None
    return BracketMatch(
        a=_entry(box.a),
        b=_entry(box.b),
        label=" · ".join(part for part in (box.key, note) if part),
        table=box.table if box.status in AT_TABLE else None,
        winner=winner,
    )


def _round_robin(matches: Iterable[Match]) -> BracketSection:
    by_round: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        if not match.is_bye:
            by_round[match.round].append(match)
    rounds = tuple(
        BracketRound(
            _("Round %(round)d") % {"round": number},
            tuple(
                _bracket_match(match_box(m, {}))
                for m in sorted(by_round[number], key=lambda m: m.position)
            ),
        )
        for number in sorted(by_round)
    )
    return BracketSection(_("Round robin"), rounds, round_robin=True)


def bracket_document(tournament: Tournament) -> tuple[BracketSheet, Labels] | None:
    """The bracket as the public page draws it (or the round robin's cross-table and
    results); None before the bracket exists. The public page's queries, no more."""
    with translation.override(tournament.language):
        data = load(tournament)
        if not data.matches:
            return None
        if data.round_robin:
            sections: tuple[BracketSection, ...] = (_round_robin(data.matches),)
        else:
            sections = tuple(
                BracketSection(
                    section.title,
                    tuple(
                        BracketRound(column.title, tuple(_bracket_match(b) for b in column.boxes))
                        for column in section.rounds
                    ),
                    under_previous=section.key == "third_place",
                )
                for section in bracket_sections(data.matches, double=data.double)
            )
        champion = data.standings.champion
        extra = _("Champion: %(name)s") % {"name": isolate(champion.name)} if champion else ""
        sheet = BracketSheet(
            tournament=tournament.name,
            sections=sections,
            subtitle=_subtitle(data, extra),
            page_size=tournament.page_size,
        )
        return sheet, labels()


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _average(value: float | None) -> str:
    return "–" if value is None else formats.number_format(value, 1)


def standings_document(tournament: Tournament) -> tuple[StandingsSheet, Labels] | None:
    """The public standings with their statistics; None before the bracket exists."""
    with translation.override(tournament.language):
        data = load(tournament)
        if not data.matches:
            return None
        standings = data.standings
        # The public page's statistics that matter on a wall, so the names keep their room
        # on a page in any language; hands won, undercuts and shutouts stay online.
        columns: list[tuple[str, Callable[[Standing], str]]] = [
            (_("Matches"), lambda r: f"{r.stats.matches_won}–{r.stats.matches_lost}"),
            (_("Games"), lambda r: f"{r.stats.games_won}–{r.stats.games_lost}"),
            (_("Points for"), lambda r: str(r.stats.points_for)),
            (_("Points against"), lambda r: str(r.stats.points_against)),
            ("±", lambda r: _signed(r.stats.margin)),
            (_("Gins"), lambda r: str(r.stats.gins)),
            (_("Avg. knock"), lambda r: _average(r.stats.average_knock_deadwood)),
        ]
        if any(row.progress for row in standings.rows):
            progress = _("Played") if data.round_robin else _("Progress")
            columns.append((progress, lambda r: r.progress))
        prizes = standing_prizes(tournament, standings.places)
        if prizes is not None:
            heading = _("Prize (%(currency)s)") % {"currency": prizes.currency}
            columns.append((heading, lambda r, won=prizes: won.text(r.stats.entry_id)))
        rating = club_rating_column(data)  # "1712?" while provisional, and its note
        columns.extend([rating[:2]] if rating else [])
        rows = tuple(
            StandingsRow(
                row.place_label or "–",
                f"{isolate(row.stats.name)} ({row.stats.seed})"
                if row.stats.seed
                else row.stats.name,
                tuple(value(row) for _heading, value in columns),
            )
            for row in standings.rows
        )
        notes = []
        if not standings.complete:
            notes.append(_("Provisional: the tournament is still being played."))
        notes.extend(rating[2] if rating else ())
        if data.round_robin:
            notes.append(
                _("Ties: match wins, then head-to-head, then games won, then point margin.")
            )
        notes.append(
            _(
                "Matches: won–lost (confirmed results). Games: won–lost (columns in "
                "Hollywood). Avg. knock: average deadwood when knocking. Seeds in brackets."
            )
        )
        champion = standings.champion
        extra = _("Champion: %(name)s") % {"name": isolate(champion.name)} if champion else ""
        sheet = StandingsSheet(
            tournament=tournament.name,
            title=_("Standings"),
            columns=tuple(heading for heading, _value in columns),
            rows=rows,
            subtitle=_subtitle(data, extra),
            notes=tuple(notes),
            page_size=tournament.page_size,
        )
        return sheet, labels()
