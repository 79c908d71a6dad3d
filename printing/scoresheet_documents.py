"""The scoresheets on paper (a match's, a round pack's, a team match's), built from the
database in the tournament's language; the other documents are in
:mod:`printing.standings_documents` (bracket, standings), :mod:`printing.stage_documents`,
:mod:`printing.prize_documents` and :mod:`printing.season_documents`, and every printed
word in :mod:`printing.labels`.

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
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from engine import MatchSheet, ScoringError, deals_of, score_team_match
from scoring.loading import first_dealer, load_inputs, score_matches
from tournaments.match_names import RoundNames
from tournaments.models import Match, TeamMember, Tournament
from tournaments.rules_text import rules_summary

from .labels import labels, team_labels
from .pdfs import (
    Labels,
    Scoresheet,
    SheetHeader,
)
from .pdfs.team_sheet import TeamLabels, TeamScoresheet

TableLink = Callable[[Match], str]

SECTION_ORDER = [value for value, _label in Match.Section.choices]
MAIN_SECTIONS = (Match.Section.WINNERS, Match.Section.ROUND_ROBIN)
"""The section a round pack prints unless another is asked for (a tournament has one)."""


# -- scoresheets -----------------------------------------------------------------------------


def _link_works(match: Match) -> bool:
    """A QR code is printed only for a link that opens the match for entry."""
    return not match.token_revoked and match.status != Match.Status.COMPLETE


def _round_names(tournament: Tournament, matches: Sequence[Match]) -> RoundNames:
    """The names of the matches' rounds and of the matches, within their stages, as the
    pages say them (one query: the rounds of those stages, for "Quarterfinals")."""
    double = tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION
    names = RoundNames((), double=double)
    stages = {match.stage_id for match in matches}
    found = Match.objects.filter(tournament=tournament)
    if None not in stages:
        found = found.filter(stage_id__in=stages)
    for stage_id, section, round_ in found.values_list("stage_id", "section", "round"):
        names.add(stage_id, section, round_)
    return names


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
    names: RoundNames,
    table_link: TableLink | None,
    feeders: dict[tuple[int, str], tuple[str, str]],
) -> Scoresheet:
    tournament = match.tournament
    header = SheetHeader(
        tournament=tournament.name,
        round_label=names.stage_round(match),
        match_label=names.number(match),
        table=match.table,
        player_a=_name(match, "A", feeders),
        player_b=_name(match, "B", feeders),
        rules_summary=summary,
        qr_url=table_link(match) if table_link is not None and _link_works(match) else None,
        page_size=tournament.page_size,
        queued=_("Queued: play when the director gives you a table") if match.is_queued else "",
    )
    return Scoresheet(header, rules, sheet.to_dict() if sheet is not None else None)


def match_document(
    match: Match, *, table_link: TableLink | None = None
) -> tuple[list[Scoresheet], Labels]:
    """One match's sheet: filled with its hands, blank before the first. Two queries
    (hands, the rounds of its stage; a third while a player is not known yet) on a match
    loaded with its tournament and players."""
    tournament = match.tournament
    ruleset = match.ruleset  # a stage's match length, for its round
    sheets = score_matches(ruleset, [match], load_inputs(match=match))
    names = _round_names(tournament, [match])
    feeders = _feeders([match])
    with translation.override(tournament.language):
        sheet = _scoresheet(
            match,
            sheets.get(match.pk),
            rules=ruleset.to_dict(),
            summary=rules_summary(ruleset),
            names=names,
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


def round_matches(
    tournament: Tournament, *, section: str, number: int, stage: int | None = None
) -> list[Match]:
    """The round's matches that are played (byes left out), in table order; of a
    tournament in stages, of the stage numbered ``stage`` only (None: of every stage).
    One query."""
    found = Match.objects.filter(tournament=tournament, section=section, round=number, is_bye=False)
    if stage is not None:
        found = found.filter(stage__number=stage)
    matches = list(found.select_related("side_a__player", "side_b__player", "stage"))
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
    hands at once, and the rounds of their stage (for "Quarterfinals" and the like); a third
    names where the players not known yet come from ("Winner of W1-3")."""
    if not matches:
        return [], labels()
    inputs = load_inputs(match__in=[match.pk for match in matches])
    ruleset = matches[0].ruleset  # one round: one stage, one match length
    played = score_matches(ruleset, matches, inputs)
    names = _round_names(tournament, matches)
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
                names=names,
                table_link=table_link,
                feeders=feeders,
            )
            for match in matches
        ]
        return sheets, labels()


# -- team scoresheets ------------------------------------------------------------------------


def team_document(
    tournament: Tournament, matches: Sequence[Match], *, table_link: TableLink | None = None
) -> tuple[list[TeamScoresheet], TeamLabels]:
    """The team scoresheets of ``matches`` (a team tournament's), in the order given:
    each deal's boards in a column each and each team's running score. Three queries: the
    hands, the teams' players and the rounds of their stage (a fourth names where teams
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
    names = _round_names(tournament, matches)
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
                names=names,
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
