"""What the PDFs print, built from the database in the tournament's language.

Each ``*_document`` function loads what it needs with a fixed number of queries, whatever
the number of matches or hands, and returns the plain dataclasses of :mod:`printing.pdfs`
together with the :class:`~printing.pdfs.Labels` to print them with. Everything that ends
up on paper (labels, round titles, the rules summary, standings progress, dates, "TBD") is
produced inside ``translation.override(tournament.language)``: a printed sheet speaks the
tournament's language whoever downloads it.

What this module does not do: draw (:mod:`printing.pdfs`), or decide who may see a table
link. The views pass ``table_link`` (match → absolute URL) only to those allowed; a
sheet then carries the QR code of its match's link while that link still works.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db.models import Max, Q
from django.utils import formats, translation
from django.utils.translation import gettext as _

from club.pool import standing_prizes
from public.board import AT_TABLE, MatchBox, SlotView, bracket_sections, match_box
from public.data import format_line, load
from public.ratings import club_rating_column
from public.standings import Standing, round_title
from scoring.engine import MatchSheet, ScoringError, deals_of, score_team_match
from scoring.services import first_dealer, load_inputs, score_matches
from tournaments.models import Match, TeamMember, Tournament
from tournaments.rules_text import rules_summary

from .pdfs import (
    BracketEntry,
    BracketMatch,
    BracketRound,
    BracketSection,
    BracketSheet,
    Labels,
    Scoresheet,
    SheetHeader,
    StandingsRow,
    StandingsSheet,
    isolate,
)
from .pdfs.team_sheet import TeamLabels, TeamScoresheet

TableLink = Callable[[Match], str]

SECTION_ORDER = [value for value, _label in Match.Section.choices]
MAIN_SECTIONS = (Match.Section.WINNERS, Match.Section.ROUND_ROBIN)
"""The section a round pack prints unless another is asked for (a tournament has one)."""


def labels() -> Labels:
    """Every printed word, in the active language. ``{n}``, ``{page}`` and ``{pages}`` are
    filled in by the renderer and must stay as they are in a translation."""
    return Labels(
        table=_("Table"),
        versus=_("vs"),
        # Translators: keep {page} and {pages} as they are.
        page=_("Page {page} of {pages}"),
        scan_hint=_("Scan to enter hands"),
        match_result=_("Match result"),
        games_won=_("Games won"),
        columns_won=_("Columns won"),
        match_total=_("Match total"),
        signature=_("Signature"),
        in_progress=_("in progress"),
        # Translators: a game's grid on the scoresheet; keep {n} as it is.
        game=_("Game {n}"),
        # Translators: a Hollywood column on the scoresheet; keep {n} as it is.
        column=_("Column {n}"),
        hand=_("Hand"),
        points=_("Points"),
        total=_("Total"),
        hand_points=_("Hand points"),
        boxes=_("Boxes"),
        box_points=_("Box points"),
        game_bonus=_("Game bonus"),
        shutout=_("Shutout"),
        game_total=_("Game total"),
        winner=_("Winner"),
        not_played=_("not played"),
        continued=_("continued on the next page"),
        # Translators: printed small next to a hand's points on the scoresheet.
        gin=_("gin"),
        big_gin=_("big gin"),
        # Translators: short for "undercut", printed next to a hand's points.
        undercut=_("U/C"),
        # Translators: a hand nobody won (the stock ran out).
        draw=_("draw"),
        # Translators: a knock where both players have the same deadwood.
        tie=_("tie"),
        round_robin_results=_("Results"),
        place=_("Place"),
        player=_("Player"),
    )


# -- scoresheets -----------------------------------------------------------------------------


def _link_works(match: Match) -> bool:
    """A QR code is printed only for a link that opens the match for entry."""
    return not match.token_revoked and match.status != Match.Status.COMPLETE


def _last_round(tournament: Tournament, section: str) -> int:
    found = Match.objects.filter(tournament=tournament, section=section).aggregate(Max("round"))
    return found["round__max"] or 0


def _feeders(matches: Sequence[Match]) -> dict[tuple[int, str], tuple[str, str]]:
    """(match id, side) -> ("winner" or "loser", key of the match that fills it), for the
    sides not known yet. One query, none when every player is known."""
    ids = [m.pk for m in matches if not m.has_both_sides]
    if not ids:
        return {}
    found: dict[tuple[int, str], tuple[str, str]] = {}
    rows = Match.objects.filter(Q(next_match__in=ids) | Q(loser_next_match__in=ids)).values_list(
        "key", "next_match_id", "next_slot", "loser_next_match_id", "loser_next_slot"
    )
    for key, winner_to, winner_slot, loser_to, loser_slot in rows:
        found[(winner_to, winner_slot)] = ("winner", key)
        found[(loser_to, loser_slot)] = ("loser", key)
    return found


def _name(match: Match, side: str, feeders: dict[tuple[int, str], tuple[str, str]]) -> str:
    """The player's name, or where the player comes from ("Winner of W1-3")."""
    if match.entry_id(side) is not None or (match.pk, side) not in feeders:
        return match.side_name(side)
    route, key = feeders[(match.pk, side)]
    if route == "winner":
        return _("Winner of %(match)s") % {"match": key}
    return _("Loser of %(match)s") % {"match": key}


def _scoresheet(
    match: Match,
    sheet: MatchSheet | None,
    *,
    rules: dict[str, Any],
    summary: str,
    last_round: int,
    table_link: TableLink | None,
    feeders: dict[tuple[int, str], tuple[str, str]],
) -> Scoresheet:
    tournament = match.tournament
    double = tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION
    header = SheetHeader(
        tournament=tournament.name,
        round_label=round_title(match.section, match.round, last_round, double=double),
        match_label=_("Match %(key)s") % {"key": match.key},
        table=match.table,
        player_a=_name(match, "A", feeders),
        player_b=_name(match, "B", feeders),
        rules_summary=summary,
        qr_url=table_link(match) if table_link is not None and _link_works(match) else None,
        page_size=tournament.page_size,
    )
    return Scoresheet(header, rules, sheet.to_dict() if sheet is not None else None)


def match_document(
    match: Match, *, table_link: TableLink | None = None
) -> tuple[list[Scoresheet], Labels]:
    """One match's sheet: filled with its hands, blank before the first. Two queries
    (hands, the section's last round; a third while a player is not known yet) on a match
    loaded with its tournament and players."""
    tournament = match.tournament
    ruleset = match.ruleset  # a stage's match length, for its round
    sheets = score_matches(ruleset, [match], load_inputs(match=match))
    last = _last_round(tournament, match.section)
    feeders = _feeders([match])
    with translation.override(tournament.language):
        sheet = _scoresheet(
            match,
            sheets.get(match.pk),
            rules=ruleset.to_dict(),
            summary=rules_summary(ruleset),
            last_round=last,
            table_link=table_link,
            feeders=feeders,
        )
        return [sheet], labels()


def table_order(match: Match) -> tuple[Any, ...]:
    """Tables in number order; matches without a table after them, top to bottom."""
    return (
        match.table is None,
        match.table or 0,
        SECTION_ORDER.index(match.section),
        match.position,
        match.pk,
    )


def round_matches(tournament: Tournament, *, section: str, number: int) -> list[Match]:
    """The round's matches that are played (byes left out), in table order. One query."""
    matches = list(
        Match.objects.filter(
            tournament=tournament, section=section, round=number, is_bye=False
        ).select_related("side_a__player", "side_b__player", "stage")
    )
    for match in matches:
        match.tournament = tournament  # the one already loaded, not a join per row
    return sorted(matches, key=table_order)


def round_document(
    tournament: Tournament,
    matches: Sequence[Match],
    *,
    table_link: TableLink | None = None,
) -> tuple[list[Scoresheet], Labels]:
    """Every sheet of a round pack, in the order given. Two queries: all of the matches'
    hands at once, and the section's last round (for "Semifinals" and the like); a third
    names where the players not known yet come from ("Winner of W1-3")."""
    if not matches:
        return [], labels()
    inputs = load_inputs(match__in=[match.pk for match in matches])
    ruleset = matches[0].ruleset  # one round: one stage, one match length
    played = score_matches(ruleset, matches, inputs)
    last = _last_round(tournament, matches[0].section)
    feeders = _feeders(matches)
    rules = ruleset.to_dict()
    with translation.override(tournament.language):
        summary = rules_summary(ruleset)
        sheets = [
            _scoresheet(
                match,
                played.get(match.pk),
                rules=rules,
                summary=summary,
                last_round=last,
                table_link=table_link,
                feeders=feeders,
            )
            for match in matches
        ]
        return sheets, labels()


# -- team scoresheets ------------------------------------------------------------------------


def team_labels() -> TeamLabels:
    """Every word of the team scoresheet, in the active language."""
    return TeamLabels(
        table=_("Table"),
        versus=_("vs"),
        scan_hint=_("Scan to enter deals"),
        deal=_("Deal"),
        # Translators: a column of the team scoresheet; keep {n} as it is.
        board=_("Board {n}"),
        # Translators: the team scoresheet's column of each deal's net points.
        net=_("Deal points"),
        # Translators: the team scoresheet's column of each team's running score.
        running=_("Running score"),
        game=_("Game {n}"),
        column=_("Column {n}"),
        points=_("Points"),
        boxes=_("Boxes"),
        game_bonus=_("Game bonus"),
        shutout=_("Shutout"),
        total=_("Total"),
        match_total=_("Match total"),
        winner=_("Winner"),
        in_progress=_("in progress"),
        signature=_("Signature"),
        # Translators: printed when one team won every board of a deal.
        sweep=_("sweep"),
        draw=_("draw"),
        gin=_("gin"),
        big_gin=_("big gin"),
        undercut=_("U/C"),
        page=_("Page {page} of {pages}"),
    )


def team_document(
    tournament: Tournament, matches: Sequence[Match], *, table_link: TableLink | None = None
) -> tuple[list[TeamScoresheet], TeamLabels]:
    """The team scoresheets of ``matches`` (a team tournament's), in the order given:
    each deal's boards in a column each and each team's running score. Three queries: the
    hands, the teams' players and the section's last round (a fourth names where teams
    not known yet come from)."""
    rules = tournament.ruleset
    inputs = load_inputs(match__in=[match.pk for match in matches])
    entries = [pk for match in matches for pk in (match.side_a_id, match.side_b_id) if pk]
    members: dict[int, list[str]] = defaultdict(list)
    rows = (
        TeamMember.objects.filter(entry_id__in=entries)
        .order_by("entry_id", "seat")
        .values_list("entry_id", "player__name")
    )
    for entry_id, name in rows:
        members[entry_id].append(name)
    last = _last_round(tournament, matches[0].section) if matches else 0
    feeders = _feeders(matches)
    sheets = []
    with translation.override(tournament.language):
        summary = rules_summary(rules)
        for match in matches:
            played = inputs.get(match.pk)
            team = None
            if played:
                try:
                    team = score_team_match(
                        rules, deals_of(rules, played), first_dealer(match)
                    ).to_dict()
                except ScoringError:
                    team = None  # stored hands that no longer score: a blank sheet
            header = _scoresheet(
                match,
                None,
                rules={},
                summary=summary,
                last_round=last,
                table_link=table_link,
                feeders=feeders,
            ).header
            sheets.append(
                TeamScoresheet(
                    header,
                    rules.to_dict(),
                    {
                        "A": members.get(match.side_a_id or 0, []),
                        "B": members.get(match.side_b_id or 0, []),
                    },
                    team,
                )
            )
        return sheets, team_labels()


# -- bracket and standings -------------------------------------------------------------------


def _subtitle(tournament: Tournament, *extra: str) -> str:
    parts = [
        formats.date_format(tournament.date, "DATE_FORMAT"),
        isolate(tournament.venue),
        format_line(tournament),
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
            subtitle=_subtitle(tournament, extra),
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
            subtitle=_subtitle(tournament, extra),
            notes=tuple(notes),
            page_size=tournament.page_size,
        )
        return sheet, labels()
