"""CSV exports: a tournament's standings and matches (``/t/<slug>/standings.csv``,
``/t/<slug>/matches.csv``) and a season's table (``/seasons/<slug>/standings.csv``).

``matches.csv`` lists the matches stage by stage, each stage's rounds in playing order,
each round's matches by number; a round is named as the pages name it ("Quarterfinals"),
with the stage in its own column, and each finished match says how it was decided
("played", "on time", "walkover", "withdrawal"). Its scores are its sheet's, so a match
decided on time shows the games and points its sheet shows.

Public data only, the same names and numbers as the public pages: no email, phone, notes
or club id. In the visitor's language, with its delimiter (:mod:`club.csv_text`: ``;`` and
decimal commas for Spanish and Afrikaans, which Spanish Excel splits correctly; a UTF-8
byte-order mark; formula cells defused).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from club import ratings
from club.csv_text import write
from club.models import Season
from club.season_data import season_table
from club.standings_ratings import entry_players
from standings.data import load
from standings.match_rows import sheet_scores
from tournaments.match_names import decided, decided_label, in_order, names_for, withdrawals
from tournaments.models import Match, Tournament
from tournaments.permissions import shown_to


def csv_response(
    header: Sequence[str], rows: Iterable[Sequence[object]], filename: str
) -> HttpResponse:
    text = write(header, rows, language=get_language() or "en")
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    data = load(tournament)
    rated = ratings.ensure_current()
    players = entry_players(data)
    by_player = ratings.tournament_ratings(tournament.pk, set(players.values())) if rated else {}
    header = [
        _("Place"),
        _("Player"),
        _("Progress"),
        _("Matches won"),
        _("Matches played"),
        _("Games won"),
        _("Games lost"),
        _("Points for"),
        _("Points against"),
        _("Hands won"),
        _("Gins"),
        _("Undercuts"),
        _("Shutouts"),
        _("Average knock deadwood"),
        _("Club rating"),
        _("Rating change"),
    ]
    staged = bool(data.stages)
    if staged:  # after the progress: the last stage each player played
        header.insert(3, _("Stage reached"))
    rows = []
    for row in data.standings.rows:
        s = row.stats
        rating = by_player.get(players.get(s.entry_id, 0))
        rows.append(
            [
                row.place_label,
                s.name,
                row.progress,
                *([row.stage_reached] if staged else []),
                s.matches_won,
                s.matches_played,
                s.games_won,
                s.games_lost,
                s.points_for,
                s.points_against,
                s.hands_won,
                s.gins,
                s.undercuts,
                s.shutouts,
                s.average_knock_deadwood,
                rating.rating if rating else None,
                rating.change if rating else None,
            ]
        )
    return csv_response(header, rows, f"{slug}-standings.csv")


@require_GET
def matches_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every match: the first ten columns as they always were (the match now named as the
    pages name it), then its stage and how it was decided (docs/exports.md)."""
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    data = load(tournament)
    names = names_for(data.tournament, data.matches)
    walked = withdrawals(tournament.pk)
    header = [
        _("Match"),
        _("Table"),
        _("Player A"),
        _("Player B"),
        _("Games A"),
        _("Games B"),
        _("Points A"),
        _("Points B"),
        _("Winner"),
        _("Status"),
        _("Stage"),
        _("Decided"),
    ]
    rows = []
    for match in in_order(data.matches):
        if match.is_skipped:
            continue
        winner = match.side_name(match.winner_side) if match.winner_side else ""
        status = _("Bye") if match.is_bye else Match.Status(match.status).label
        games_a, games_b, points_a, points_b = sheet_scores(match, data.sheets.get(match.pk))
        rows.append(
            [
                names.match(match),
                match.table,
                match.name_a,
                match.name_b,
                games_a,
                games_b,
                points_a,
                points_b,
                winner,
                status,
                match.stage.name if match.stage_id else "",
                decided_label(decided(match, walked)),
            ]
        )
    return csv_response(header, rows, f"{slug}-matches.csv")


@require_GET
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    found = season_table(season)
    header = [_("Place"), _("Player"), _("Points"), _("Events played")]
    header += [t.name for t in found.tournaments]
    rows = [
        [row.place, row.name, row.points, row.events]
        + [row.by_event.get(t.pk) for t in found.tournaments]
        for row in found.rows
    ]
    return csv_response(header, rows, f"{slug}-season.csv")
