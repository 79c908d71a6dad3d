"""PDFs of a tournament: scoresheets (blank, filled, round packs), bracket and standings.

Renderers take plain frozen dataclasses and return PDF bytes, in the manner of pretix's
invoice renderer: building the data (queries, the engine's scoresheet, translated labels)
is the calling service's job. Nothing in this package touches the database or Django.

Names print in any script the shipped fonts cover (:mod:`.fonts`). A caller that puts a
name inside a longer string of its own ("Champion: …", "… (3)") wraps it in
:func:`isolate`, so a right-to-left name does not pull the words around it along.
"""

from .bracket import (
    BracketEntry,
    BracketMatch,
    BracketRound,
    BracketSection,
    BracketSheet,
    render_bracket,
)
from .fonts import isolate
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
    "isolate",
    "render_bracket",
    "render_scoresheets",
    "render_standings",
]
