"""PDFs of a tournament: scoresheets (blank, filled, round packs), bracket and standings.

Renderers take plain frozen dataclasses and return PDF bytes, in the manner of pretix's
invoice renderer: building the data (queries, the engine's scoresheet, translated labels)
is the calling service's job. Nothing in this package touches the database or Django.
"""

from .labels import Labels
from .scoresheet import Scoresheet, SheetHeader, render_scoresheets

__all__ = [
    "Labels",
    "Scoresheet",
    "SheetHeader",
    "render_scoresheets",
]
