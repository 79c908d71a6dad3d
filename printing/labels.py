"""Every printed word, in the active language: the :class:`~printing.pdfs.Labels` every
PDF is drawn with (scoresheets, bracket, standings, stage sheets, prizes, seasons) and the
:class:`~printing.pdfs.team_sheet.TeamLabels` of the team scoresheet. The ``*_document``
functions call them inside ``translation.override(tournament.language)``, so a sheet
speaks the tournament's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .pdfs import Labels
from .pdfs.team_sheet import TeamLabels


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
