"""The PDFs of a tournament, at stable URLs (SPEC 8): a match's scoresheet, a round pack,
the bracket and the standings.

Who sees what:

* ``/t/<slug>/matches/<id>/scoresheet.pdf`` is public, like the match sheet. The QR code
  and the printed table link are a secret (anyone holding it may enter hands), so they
  are printed only for those who direct the tournament; everybody else gets the same
  sheet without them.
* ``/t/<slug>/rounds/<n>/scoresheets.pdf`` is for directors only (every sheet carries its
  table link). It prints winners' round ``n`` (round ``n`` of a round robin); another
  section's round is asked for with ``?section=losers`` (``consolation``, ``final``,
  ``reset``, ``third_place``), as the round-control screen links it. Byes are left out.
* ``/t/<slug>/bracket.pdf`` and ``/t/<slug>/standings.pdf`` are public, built from the
  data of the public page.
* ``/t/<slug>/prizes.pdf`` (the prizes, as the prizes page shows them) and
  ``/seasons/<slug>/standings.pdf`` (a season's table) are public, like their pages.
* A tournament in stages also has, public, ``/t/<slug>/stages/<n>/rounds/<r>/pairings.pdf``
  (the table list of round ``r`` of stage ``n``) and ``/t/<slug>/stages/<n>/standings.pdf``
  (the stage's standings with every tiebreak's value and their order).

Every PDF is in the tournament's language and page size (see :mod:`printing.scoresheet_documents`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from club.models import Season
from public.live import headers as live_headers
from public.live import last_modified, live
from tables.table_links import table_url
from tournaments.models import Match, Tournament
from tournaments.permissions import can_direct, shown_to

from . import labels as printed
from . import prize_documents, season_documents, stage_documents, standings_documents
from . import scoresheet_documents as pdf_data
from .pdfs import render_bracket, render_scoresheets, render_standings
from .pdfs.team_sheet import render_team_scoresheets


def pdf_response(content: bytes, filename: str, *, secret: bool = False) -> HttpResponse:
    """``inline``: browsers show it, and print from there. A PDF holding table links is
    never stored by a cache."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    if secret:
        add_never_cache_headers(response)
    return response


def not_found(message: str) -> HttpResponse:
    """A 404 that says why: these URLs are followed from printed or shared links."""
    return HttpResponseNotFound(message, content_type="text/plain; charset=utf-8")


@require_GET
def match_scoresheet(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The filled scoresheet (blank before the first hand); the QR code for directors."""
    match = get_object_or_404(
        Match.objects.select_related("tournament", "side_a__player", "side_b__player"),
        pk=match_id,
        tournament__slug=slug,
    )
    shown_to(request.user, match.tournament)
    directing = can_direct(request.user, match.tournament)
    link = (lambda m: table_url(m, request)) if directing else None
    filename = f"{slug}-{match.key}-scoresheet.pdf"
    if match.tournament.ruleset.is_team:
        teams, team_labels = pdf_data.team_document(match.tournament, [match], table_link=link)
        content = render_team_scoresheets(teams, labels=team_labels)
        return pdf_response(content, filename, secret=teams[0].header.qr_url is not None)
    sheets, labels = pdf_data.match_document(match, table_link=link)
    content = render_scoresheets(sheets, labels=labels)
    return pdf_response(content, filename, secret=sheets[0].header.qr_url is not None)


@require_GET
def round_scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every scoresheet of a round, in table order, each with its table link's QR code;
    ``?section=`` (the main bracket's by default) and, in a tournament in stages,
    ``?stage=`` (its number: every stage numbers its rounds from 1) say which round."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_direct(request.user, tournament):
        raise PermissionDenied(_("Only a director of this tournament prints round packs."))
    section = request.GET.get("section", "")
    if not section:
        is_round_robin = tournament.bracket_kind == Tournament.BracketKind.ROUND_ROBIN
        section = Match.Section.ROUND_ROBIN if is_round_robin else Match.Section.WINNERS
    elif section not in Match.Section.values:
        return not_found(_("There is no such section in a bracket."))
    stage = request.GET.get("stage", "")
    if stage and not stage.isdigit():
        return not_found(_("Round %(round)d has no match to print.") % {"round": number})
    matches = pdf_data.round_matches(
        tournament, section=section, number=number, stage=int(stage) if stage else None
    )
    if not matches:
        return not_found(_("Round %(round)d has no match to print.") % {"round": number})
    link = lambda m: table_url(m, request)  # noqa: E731
    if tournament.ruleset.is_team:
        teams, team_labels = pdf_data.team_document(tournament, matches, table_link=link)
        content = render_team_scoresheets(teams, labels=team_labels)
    else:
        sheets, labels = pdf_data.round_document(tournament, matches, table_link=link)
        content = render_scoresheets(sheets, labels=labels)
    prefix = "" if section in pdf_data.MAIN_SECTIONS else f"{section}-"
    if stage:
        prefix = f"stage-{int(stage)}-{prefix}"
    filename = f"{slug}-{prefix}round-{number}-scoresheets.pdf"
    return pdf_response(content, filename, secret=True)


def _bracket_pdf(
    request: HttpRequest,
    slug: str,
    document: Callable[[Tournament], Any],
    render: Callable[..., bytes],
    kind: str,
) -> HttpResponse:
    """A public PDF of the drawn bracket (``kind``: bracket or standings) in the
    tournament's language, as its public page is; ``ETag`` and ``Last-Modified`` from the
    tournament's public version (:mod:`public.live`), so asking again costs a 304."""
    found_live = live(request, slug)
    found = document(found_live.tournament)
    if found is None:
        return not_found(_("The bracket has not been drawn yet."))
    sheet, labels = found
    response = pdf_response(render(sheet, labels=labels), f"{slug}-{kind}.pdf")
    return live_headers(response, found_live, f"{kind}-pdf")


def _pdf_etag(kind: str) -> Callable[..., str]:
    def etag(request: HttpRequest, slug: str) -> str:
        return live(request, slug).etag(f"{kind}-pdf")

    return etag


@require_GET
@condition(etag_func=_pdf_etag("bracket"), last_modified_func=last_modified)
def bracket_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    return _bracket_pdf(
        request, slug, standings_documents.bracket_document, render_bracket, "bracket"
    )


@require_GET
@condition(etag_func=_pdf_etag("standings"), last_modified_func=last_modified)
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    return _bracket_pdf(
        request, slug, standings_documents.standings_document, render_standings, "standings"
    )


def _stage_tag(kind: str, **kwargs: Any) -> str:
    return "-".join([kind, *(str(kwargs[name]) for name in sorted(kwargs)), "pdf"])


def _stage_etag(kind: str) -> Callable[..., str]:
    def etag(request: HttpRequest, slug: str, **kwargs: Any) -> str:
        return live(request, slug).etag(_stage_tag(kind, **kwargs))

    return etag


def _stage_modified(request: HttpRequest, slug: str, **kwargs: Any) -> Any:
    return last_modified(request, slug)


@require_GET
@condition(etag_func=_stage_etag("pairings"), last_modified_func=_stage_modified)
def pairings_pdf(request: HttpRequest, slug: str, stage: int, round: int) -> HttpResponse:
    found_live = live(request, slug)
    found = stage_documents.pairings_document(found_live.tournament, stage, round)
    if found is None:
        return not_found(_("This round has not been paired."))
    sheet, labels = found
    content = render_standings(sheet, labels=labels)
    response = pdf_response(content, f"{slug}-stage-{stage}-round-{round}-pairings.pdf")
    return live_headers(response, found_live, _stage_tag("pairings", stage=stage, round=round))


@require_GET
@condition(etag_func=_stage_etag("stage-standings"), last_modified_func=_stage_modified)
def stage_standings_pdf(request: HttpRequest, slug: str, stage: int) -> HttpResponse:
    found_live = live(request, slug)
    found = stage_documents.stage_standings_document(found_live.tournament, stage)
    if found is None:
        return not_found(_("This stage has no standings yet."))
    sheet, labels = found
    content = render_standings(sheet, labels=labels)
    response = pdf_response(content, f"{slug}-stage-{stage}-standings.pdf")
    return live_headers(response, found_live, _stage_tag("stage-standings", stage=stage))


@require_GET
def prizes_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = shown_to(request.user, get_object_or_404(Tournament, slug=slug))
    sheet = prize_documents.prizes_document(tournament)
    return pdf_response(render_standings(sheet, labels=printed.labels()), f"{slug}-prizes.pdf")


@require_GET
def season_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    sheet = season_documents.season_document(season)
    return pdf_response(render_standings(sheet, labels=printed.labels()), f"{slug}-season.pdf")
