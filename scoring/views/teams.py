"""The team match sheet: entering, correcting and deleting a deal (its N boards).

Served like every match view under the match URL and the table link
(:func:`scoring.views.base.match_view`): the match sheet of a team tournament's match is this
page, so the table link (one phone per team, or per board) covers the team match. Every
page works without JavaScript; the deal form is one plain form with a fieldset per board.
The services (:mod:`scoring.deals`) lock and check everything again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from engine import MatchSheet, ScoredDeal, ScoredHand, ScoringError, TeamSheet
from tables import devices
from tables.access import MatchAccess, require_entry
from tournaments.models import Match, TeamMember

from .. import deals, loading, services
from ..deal_forms import DealForm, initial_for
from ..forms import labelled_problem
from ..models import Hand
from ..presenters import Block, Row, describe, present
from ..versions import HandChanged, StaleForm
from .base import (
    REFUSALS,
    base_context,
    correction_allowed,
    match_view,
    names_of,
    refusal_message,
)

TEMPLATE = "scoring/team_match.html"


def members_of(match: Match) -> dict[str, list[str]]:
    """Each side's players' names in seat order (one query)."""
    sides = {match.side_a_id: "A", match.side_b_id: "B"}
    members: dict[str, list[str]] = {"A": [], "B": []}
    rows = (
        TeamMember.objects.filter(entry_id__in=[pk for pk in sides if pk is not None])
        .order_by("seat")
        .values_list("entry_id", "player__name")
    )
    for entry_id, name in rows:
        members[sides[entry_id]].append(name)
    return members


@dataclass(frozen=True)
class BoardLine:
    number: int
    a_name: str
    b_name: str
    text: str
    winner: str
    points: int


@dataclass(frozen=True)
class DealRow:
    row: Row
    boards: list[BoardLine]
    sweep: str
    edit_url: str
    delete_url: str


def _board_lines(deal: ScoredDeal, members: dict[str, list[str]]) -> list[BoardLine]:
    lines = []
    for index, (board, score, seats) in enumerate(
        zip(deal.boards, deal.score.boards, deal.seats, strict=True), start=1
    ):
        names = {
            "A": _seat_name(members, "A", seats.a),
            "B": _seat_name(members, "B", seats.b),
        }
        text = describe(ScoredHand(index, board.hand, score, None, (), None), names)
        winner = score.winner.value if score.winner else ""
        lines.append(BoardLine(index, names["A"], names["B"], text, winner, score.points))
    return lines


def _seat_name(members: dict[str, list[str]], side: str, seat: int) -> str:
    names = members.get(side, [])
    return names[seat - 1] if seat <= len(names) else _("seat %(seat)d") % {"seat": seat}


def deal_blocks(
    access: MatchAccess,
    team: TeamSheet,
    sheet: MatchSheet,
    members: dict[str, list[str]],
    names: dict[str, str],
) -> list[tuple[Block, list[DealRow]]]:
    """Each game (or column) with its deals: the deal's net row and its boards."""
    view = present(sheet, names)
    by_number = {deal.number: deal for deal in team.deals}
    blocks = []
    for block in view.blocks:
        rows = []
        for row in block.rows:
            deal = by_number[row.number]
            sweep = (
                names[deal.score.sweep.value] if deal.score.sweep and deal.score.sweep_bonus else ""
            )
            rows.append(
                DealRow(
                    row,
                    _board_lines(deal, members),
                    sweep,
                    access.url("scoring:deal-edit", number=row.number),
                    access.url("scoring:deal-delete", number=row.number),
                )
            )
        blocks.append((block, rows))
    return blocks


def team_context(
    access: MatchAccess,
    *,
    hands: list[Hand] | None = None,
    form: DealForm | None = None,
) -> dict[str, Any]:
    match = access.match
    hands = loading.load_hands(match) if hands is None else hands
    team = deals.team_sheet(match, hands)
    sheet = team.as_match_sheet()
    members = members_of(match)
    names = names_of(match)
    waiting = match.is_queued
    entry_open = (
        access.can_enter
        and match.has_both_sides
        and match.status in (Match.Status.READY, Match.Status.IN_PLAY)
        and not sheet.complete
        and not waiting
    )
    if form is None and entry_open:
        form = DealForm(match=match, number=len(team.deals) + 1, members=members)
    return {
        **base_context(access),
        "sheet": sheet,
        "team": team,
        "members": members,
        "view": present(sheet, names),
        "blocks": deal_blocks(access, team, sheet, members, names),
        "form": form if entry_open else None,
        "awaiting": match.status == Match.Status.AWAITING,
        "waiting": waiting,
        "loser_name": match.side_name(match.loser_side) if match.winner_side else "",
        "deal_count": len(team.deals),
        "can_correct": access.can_enter
        and (match.status != Match.Status.COMPLETE or access.can_direct),
        "deal_create_url": access.url("scoring:deal-create"),
    }


def team_page(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """The team match sheet (the match sheet view hands a team match over to this)."""
    return TemplateResponse(request, TEMPLATE, team_context(access))


@require_POST
@match_view
def deal_create(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """Save the next deal: all its boards, or nothing."""
    require_entry(access)
    match = access.match
    hands = loading.load_hands(match)
    size = match.tournament.ruleset.team_size
    number = len(hands) // max(size, 1) + 1
    form = DealForm(request.POST, match=match, number=number, members=members_of(match))
    if form.is_valid():
        try:
            deals.record_deal(
                match=match,
                number=form.cleaned_data["number"],
                boards=form.boards_data(),
                user=access.actor,
                via=access.via,
                dealer=form.cleaned_data.get("first_dealer") or None,
                device=devices.device_of(request) if access.token else "",
            )
        except ScoringError as error:
            _board_error(form, error)
        except services.HandTaken as taken:
            # Entered meanwhile from another phone (or a double tap): say from where, and
            # show the sheet as it is now, with the next deal's form.
            messages.error(request, _taken_message(request, access, taken.number, size))
            return HttpResponseRedirect(access.url("scoring:match-sheet"))
        except services.HandConflict as error:
            # Entered meanwhile from another phone (or a double tap): show the sheet as
            # it is now, with the next deal's form.
            messages.error(request, str(error))
            return HttpResponseRedirect(access.url("scoring:match-sheet"))
        except REFUSALS as error:
            form.add_error(None, refusal_message(error))
        else:
            messages.success(
                request, _("Deal %(number)d saved.") % {"number": form.cleaned_data["number"]}
            )
            return HttpResponseRedirect(access.url("scoring:match-sheet"))
    context = team_context(access, hands=loading.load_hands(match), form=form)
    if context["form"] is None:
        context["entry_errors"] = form.non_field_errors()
    return TemplateResponse(request, TEMPLATE, context, status=400)


def _taken_message(request: HttpRequest, access: MatchAccess, number: int, size: int) -> str:
    """What deal ``number`` already holds came from where; the sheet below shows it."""
    first = loading.load_hands(access.match)[(number - 1) * size]
    where = devices.entered_from(
        request, first.device, first.entered_by_id is not None, access.match.table
    )
    return _(
        "Deal %(number)d was already entered from %(where)s. Yours was not saved: the sheet "
        "below shows the deal as it was stored."
    ) % {"number": number, "where": where}


def _board_error(form: DealForm, error: ScoringError) -> None:
    """Show the engine's refusal next to the board field at fault, else above the form."""
    name = f"b{error.board}-{error.field}" if error.board and error.field else None
    if name in form.fields:
        form.add_error(name, labelled_problem(error, form.fields, f"b{error.board}-"))
    else:
        form.add_error(None, error.render(_))


def _deal_boards(access: MatchAccess, hands: list[Hand], number: int) -> list[Hand]:
    rows = deals.deal_rows(hands, access.match.tournament.ruleset.team_size)
    if not 1 <= number <= len(rows):
        raise Http404(_("There is no deal %(number)d in this match.") % {"number": number})
    return rows[number - 1]


def _edit_page(
    request: HttpRequest,
    access: MatchAccess,
    number: int,
    form: DealForm,
    version: str,
    *,
    delete: bool = False,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    complete = access.match.status == Match.Status.COMPLETE
    context = {
        **base_context(access),
        "form": form,
        "number": number,
        "version": version,
        "complete": "1" if complete else "",
        "delete": delete,
        "action": access.url(f"scoring:deal-{'delete' if delete else 'edit'}", number=number),
        "error": error,
    }
    return TemplateResponse(request, "scoring/deal_edit.html", context, status=status)


def _stale(request: HttpRequest, access: MatchAccess, stale: StaleForm, number: int, delete: bool):
    """The page was out of date: nothing changed; show the deal as it is now (409)."""
    hands = loading.load_hands(access.match)
    rows = deals.deal_rows(hands, access.match.tournament.ruleset.team_size)
    if (isinstance(stale, HandChanged) and stale.gone) or not 1 <= number <= len(rows):
        context = {**base_context(access), "error": str(stale)}
        return TemplateResponse(request, "scoring/hand_gone.html", context, status=409)
    boards = rows[number - 1]
    form = DealForm(
        initial=initial_for(boards),
        match=access.match,
        number=number,
        members=members_of(access.match),
        replacing=True,
    )
    version = deals.deal_version(boards)
    return _edit_page(
        request, access, number, form, version, delete=delete, error=str(stale), status=409
    )


def _seen(request: HttpRequest) -> dict[str, Any]:
    return {
        "version": request.POST.get("version", ""),
        "complete": request.POST.get("complete") == "1",
    }


@require_http_methods(["GET", "POST"])
@match_view
def deal_edit(request: HttpRequest, access: MatchAccess, number: int) -> HttpResponse:
    """Correct a deal: every board of it, in one form. The form names the deal by its
    number and the version its page showed; a deal changed since is shown again."""
    correction_allowed(access)
    match = access.match
    members = members_of(match)
    if request.method == "GET":
        boards = _deal_boards(access, loading.load_hands(match), number)
        form = DealForm(
            initial=initial_for(boards), match=match, number=number, members=members, replacing=True
        )
        return _edit_page(request, access, number, form, deals.deal_version(boards))
    form = DealForm(request.POST, match=match, number=number, members=members, replacing=True)
    seen = _seen(request)
    if form.is_valid():
        try:
            deals.correct_deal(
                match=match,
                number=number,
                boards=form.boards_data(),
                user=access.actor,
                via=access.via,
                **seen,
            )
        except StaleForm as stale:
            return _stale(request, access, stale, number, delete=False)
        except ScoringError as error:
            _board_error(form, error)
        except REFUSALS as error:
            form.add_error(None, refusal_message(error))
        else:
            messages.success(request, _("Deal %(number)d corrected.") % {"number": number})
            return HttpResponseRedirect(access.url("scoring:match-sheet"))
    return _edit_page(request, access, number, form, seen["version"], status=400)


@require_http_methods(["GET", "POST"])
@match_view
def deal_delete(request: HttpRequest, access: MatchAccess, number: int) -> HttpResponse:
    """Delete a deal (all its boards), once asked."""
    correction_allowed(access)
    match = access.match
    if request.method == "GET":
        boards = _deal_boards(access, loading.load_hands(match), number)
        form = DealForm(
            initial=initial_for(boards),
            match=match,
            number=number,
            members=members_of(match),
            replacing=True,
        )
        return _edit_page(request, access, number, form, deals.deal_version(boards), delete=True)
    try:
        deals.delete_deal(
            match=match, number=number, user=access.actor, via=access.via, **_seen(request)
        )
    except StaleForm as stale:
        return _stale(request, access, stale, number, delete=True)
    except REFUSALS as problem:
        messages.error(request, refusal_message(problem))
        return HttpResponseRedirect(access.url("scoring:match-sheet"))
    messages.success(request, _("Deal %(number)d deleted.") % {"number": number})
    return HttpResponseRedirect(access.url("scoring:match-sheet"))
