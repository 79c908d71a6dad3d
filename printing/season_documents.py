"""A season's table on paper (``/seasons/<slug>/standings.pdf``): each player's place,
points, events and points per tournament, as the season's page shows them
(:func:`club.season_data.season_table`)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from club.models import Season
from club.season_data import season_table

from .pdfs.standings import StandingsRow, StandingsSheet


def season_document(season: Season) -> StandingsSheet:
    """The standings sheet of ``season``, in the language of the request (as its page)."""
    found = season_table(season)
    columns = (_("Points"), _("Events"), *(t.name for t in found.tournaments))
    rows = tuple(
        StandingsRow(
            str(row.place),
            row.name,
            (
                str(row.points),
                str(row.events),
                *(_cell(row.by_event.get(t.pk), t.pk in row.counted) for t in found.tournaments),
            ),
        )
        for row in found.rows
    )
    notes = (_best_of_note(season),) if season.best_of else ()
    return StandingsSheet(season.name, _("Season standings"), columns, rows, notes=notes)


def _cell(points: int | None, counted: bool) -> str:
    if points is None:
        return "–"
    return str(points) if counted else f"({points})"


def _best_of_note(season: Season) -> str:
    return _("Best %(n)d events count; points in brackets do not count.") % {"n": season.best_of}
