"""The audit log page: every write of the tournament as a sentence, newest first."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from web.pages import page

from .. import audit_log as audit_log_module
from ..models import AuditEntry, Entry, Match, Tournament
from ..models.audit import ACTION_LABELS
from ..rounds import play_order
from .base import manage_view

# -- audit log -------------------------------------------------------------------------------


@require_GET
@manage_view
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The log as sentences, newest first, filtered by match, player and kind."""
    action = request.GET.get("action", "").strip()[:80]
    matches = list(
        Match.objects.filter(tournament=tournament)
        .exclude(side_a=None, side_b=None)
        .annotate(**Match.side_names())
    )
    matches.sort(key=lambda m: (play_order(m.section, m.round), m.position))
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__name")
    )
    match = next((m for m in matches if m.key == request.GET.get("match")), None)
    player_id = request.GET.get("player", "")
    player = next((e for e in entries if str(e.pk) == player_id), None)
    rows = audit_log_module.filtered(tournament, match=match, player=player, action=action)
    paginator = Paginator(rows, 100)
    shown = paginator.get_page(request.GET.get("page"))
    query = {
        k: v
        for k, v in (
            ("match", match.key if match else ""),
            ("player", str(player.pk) if player else ""),
            ("action", action),
        )
        if v
    }
    context = {
        "tournament": tournament,
        "entries": shown,
        "lines": audit_log_module.lines(tournament, shown.object_list),
        "actions": [
            (code, ACTION_LABELS.get(code, code))
            for code in AuditEntry.objects.filter(tournament=tournament)
            .order_by("action")
            .values_list("action", flat=True)
            .distinct()
        ],
        "matches": matches,
        "players": entries,
        "action": action,
        "match": match,
        "player": player,
        "query": urlencode(query),
        "section": "audit",
    }
    return page(request, "tournaments/audit.html", context, partial="audit-list")
