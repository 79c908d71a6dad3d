"""PDFs of a tournament: scoresheets (blank, filled, round packs), bracket and standings.

Renderers take plain frozen dataclasses and return PDF bytes, in the manner of pretix's
invoice renderer: building the data (queries, the engine's scoresheet, translated labels)
is the calling service's job. Nothing in this package touches the database or Django.
"""

from .bracket import (
    BracketEntry,
    BracketMatch,
    BracketRound,
    BracketSection,
    BracketSheet,
    render_bracket,
)
from .labels import Labels
from .scoresheet import Scoresheet, SheetHeader, render_scoresheets
from .standings import StandingsRow, StandingsSheet, render_standings

__all__ = [
    "BracketEntry",
    "BracketMatch",
    "BracketRound",
    "BracketSection",
    "BracketSheet",
    "Labels",
    "Scoresheet",
    "SheetHeader",
    "StandingsRow",
    "StandingsSheet",
    "render_bracket",
    "render_scoresheets",
    "render_standings",
]
