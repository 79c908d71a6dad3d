"""What the public pages and the public PDFs show, loaded in a fixed number of queries.

:func:`load` reads a tournament's matches with both players and all of its hands (through
:mod:`scoring.services`, the one loader of hands) and computes its standings. Players are
read by name and seed only; their email and phone are not even loaded. Used by the pages
(:mod:`public.views`) and by the bracket and standings PDFs (:mod:`printing.documents`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.engine import HandInput, MatchSheet
from scoring.services import load_inputs, score_matches
from tournaments.models import Entry, Match, Tournament
from tournaments.permissions import can_direct

from .standings import Standings, compute

PRIVATE_PLAYER_FIELDS = ("email", "phone", "notes", "club_id", "rating")
# Never read by these pages; the timestamps cost a conversion each, ~2,300 a page at 256.
UNUSED_MATCH_FIELDS = ("token", "token_revoked", "queued_at", "started_at", "completed_at")
UNUSED_ENTRY_FIELDS = ("checked_in", "paid", "registered_at", "player__created", "player__updated")


def published(request: HttpRequest, slug: str) -> Tournament:
    """The tournament of a public page or PDF; a draft is not public yet (404), except to
    its directors, who may look before they open registration."""
    tournament = get_object_or_404(Tournament, slug=slug)
    draft = tournament.status == Tournament.Status.DRAFT
    if draft and not can_direct(request.user, tournament):
        raise Http404
    return tournament


@dataclass
class PublicData:
    tournament: Tournament
    matches: list[Match]
    standings: Standings
    entries: list[Entry] = field(default_factory=list)

    @property
    def sheets(self) -> dict[int, MatchSheet]:
        return self.standings.sheets

    @property
    def double(self) -> bool:
        return self.tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION

    @property
    def round_robin(self) -> bool:
        return self.tournament.bracket_kind == Tournament.BracketKind.ROUND_ROBIN


def load(tournament: Tournament) -> PublicData:
    """Two queries (three before the bracket exists), whatever the number of players."""
    private = [
        f"{side}__player__{name}" for side in ("side_a", "side_b") for name in PRIVATE_PLAYER_FIELDS
    ]
    unused = [f"{side}__{name}" for side in ("side_a", "side_b") for name in UNUSED_ENTRY_FIELDS]
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("side_a__player", "side_b__player")
        .defer(*private, *unused, *UNUSED_MATCH_FIELDS)
        .order_by("round", "section", "position", "pk")
    )
    inputs: dict[int, list[HandInput]] = {}
    entries: list[Entry] = []
    if matches:
        # A 256-player field has ~15,000 hands: streamed, as plain rows.
        inputs = load_inputs(match__tournament=tournament, stream=True)
    else:
        entries = list(
            tournament.entries.filter(withdrawn=False)
            .select_related("player")
            .only("tournament", "seed", "withdrawn", "registered_at", "player", "player__name")
        )
    sheets = score_matches(tournament.ruleset, matches, inputs)
    result = compute(tournament, matches, sheets)
    return PublicData(tournament, matches, result, entries)


def format_line(tournament: Tournament) -> str:
    """ "Single elimination · third-place match" and the like."""
    parts = [str(tournament.get_bracket_kind_display())]
    if tournament.bracket_kind == Tournament.BracketKind.SINGLE_ELIMINATION:
        if tournament.third_place:
            parts.append(_("third-place match"))
        if tournament.consolation:
            parts.append(_("consolation bracket"))
    elif tournament.bracket_kind == Tournament.BracketKind.DOUBLE_ELIMINATION:
        parts.append(_("bracket reset") if tournament.bracket_reset else _("no bracket reset"))
    return " · ".join(parts)
