"""The PDFs of a stage: a round's pairings (the table list to pin up) and the stage's
standings with every tiebreak's value and their order. Both are built from the public
page's data (:mod:`standings.data`, each stage as :mod:`standings.stage_views` shows it):
names only, nothing private, and printed with the standings renderer (a place column, a
name, values)."""

from __future__ import annotations

from dataclasses import replace

from django.utils import formats, translation
from django.utils.translation import gettext as _

from standings.data import load
from standings.stage_views import StageView
from tournaments.models import Tournament

from .labels import labels
from .pdfs import StandingsRow, StandingsSheet
from .pdfs.fonts import isolate
from .pdfs.labels import Labels


def _subtitle(tournament: Tournament, *extra: str) -> str:
    parts = [formats.date_format(tournament.date, "DATE_FORMAT"), isolate(tournament.venue)]
    return " · ".join(part for part in (*parts, *extra) if part)


def _view(tournament: Tournament, number: int) -> StageView | None:
    data = load(tournament)
    if not data.stages:
        return None
    return next((view for view in data.stage_views if view.number == number), None)


def pairings_document(
    tournament: Tournament, number: int, round_: int
) -> tuple[StandingsSheet, Labels] | None:
    """Round ``round_`` of stage ``number``: table, player, opponent, result. None if
    there is no such round."""
    with translation.override(tournament.language):
        view = _view(tournament, number)
        if view is None or not 1 <= round_ <= len(view.rounds):
            return None
        title, matches = view.rounds[round_ - 1]
        rows = []
        for match in sorted(matches, key=lambda m: (m.table is None, m.table or 0, m.position)):
            if match.is_bye:
                result = _("Bye")
            elif match.status == "complete":
                result = _("Walkover") if match.forfeit else f"{match.score_a}–{match.score_b}"
                if match.decided_on_time:
                    result += " · " + _("decided on time")
            else:
                result = ""
            rows.append(
                StandingsRow(
                    str(match.table) if match.table else "–",
                    isolate(match.name_a),
                    (isolate(match.name_b) if match.side_b_id else _("Bye"), result),
                )
            )
        sheet = StandingsSheet(
            tournament=tournament.name,
            title=f"{view.name} · {title}",
            columns=(_("Opponent"), _("Result")),
            rows=tuple(rows),
            subtitle=_subtitle(tournament, view.kind_label),
            notes=(_("Table: where the match is played. A bye counts as a match won."),),
            page_size=tournament.page_size,
        )
        return sheet, replace(labels(), place=_("Table"))


def stage_standings_document(
    tournament: Tournament, number: int
) -> tuple[StandingsSheet, Labels] | None:
    """Stage ``number``'s standings by its tiebreaks, their order printed under them."""
    with translation.override(tournament.language):
        view = _view(tournament, number)
        if view is None or not view.rows:
            return None
        pooled = any(row.pool for row in view.rows)
        columns = [_("Matches"), *view.tiebreak_labels]
        if pooled:
            columns.insert(0, _("Pool"))
        rows = []
        for row in view.rows:
            values = [f"{row.standing.stats.matches_won}–{row.standing.stats.matches_lost}"]
            values += ["–" if v is None else str(v) for v in row.tiebreaks.values()]
            if pooled:
                values.insert(0, str(row.pool))
            rows.append(
                StandingsRow(
                    row.standing.place_label or "–",
                    isolate(row.standing.stats.name),
                    tuple(values),
                )
            )
        notes = [_("Ranked by, in order:") + " " + ", ".join(view.tiebreak_labels) + "."]
        if view.status != "closed":
            notes.append(_("Provisional: the stage is still being played."))
        sheet = StandingsSheet(
            tournament=tournament.name,
            title=f"{view.name} · {_('Standings')}",
            columns=tuple(columns),
            rows=tuple(rows),
            subtitle=_subtitle(tournament, view.kind_label),
            notes=tuple(notes),
            page_size=tournament.page_size,
        )
        return sheet, labels()
