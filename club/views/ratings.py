"""The club rating's pages: a player's page, a tournament's rating changes, seeding by
club rating (seasons and exports are in :mod:`club.views.seasons` and
:mod:`club.views.exports`)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club import players, ratings
from club.models import RatingChange
from club.rating import shown
from tournaments import registration
from tournaments.models import Player, Tournament
from tournaments.permissions import shown_to
from tournaments.views.base import manage_url, manage_view, message_text


def _date(value: str | None) -> datetime.date | None:
    """A period bound from the query string; anything unreadable is no bound."""
    try:
        return datetime.date.fromisoformat(value) if value else None
    except ValueError:
        return None


@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A club player's public page: no personal data; a hidden player is not found."""
    player = get_object_or_404(Player.objects.only("name", "hidden"), pk=player_id, hidden=False)
    period_from, period_to = _date(request.GET.get("from")), _date(request.GET.get("to"))
    bad_period = bool(
        (request.GET.get("from") and period_from is None)
        or (request.GET.get("to") and period_to is None)
        or (period_from and period_to and period_from > period_to)
    )
    if bad_period:
        period_from = period_to = None
    data = players.load(player, period_from=period_from, period_to=period_to)
    return render(request, "club/player.html", {"page": data, "bad_period": bad_period})


@require_GET
def tournament_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The rating changes a tournament caused: each player's total and each match's."""
    tournament = get_object_or_404(
        Tournament.objects.only("name", "slug", "date", "status", "owner_id"), slug=slug
    )
    shown_to(request.user, tournament)
    ratings.ensure_current()
    by_player = ratings.tournament_ratings(tournament.pk)
    rows = list(
        RatingChange.objects.filter(tournament=tournament)
        .select_related("player", "opponent")
        .only(
            "player__name",
            "player__hidden",
            "opponent__name",
            "won",
            "mu_before",
            "mu_after",
            "sequence",
            "match_id",
        )
        .order_by("sequence", "-won")
    )
    names = {row.player_id: row.player for row in rows}
    summary = sorted(
        (
            {
                "player": names[pid],
                "rating": r.rating,
                "uncertainty": r.uncertainty,
                "provisional": r.provisional,
                "change": r.change,
                "matches": r.matches,
            }
            for pid, r in by_player.items()
            if pid in names
        ),
        key=lambda item: (-item["change"], item["player"].name),
    )
    matches = [
        {
            "winner": row.player,
            "loser": row.opponent,
            "change": shown(row.mu_after) - shown(row.mu_before),
        }
        for row in rows
        if row.won
    ]
    return render(
        request,
        "club/tournament_ratings.html",
        {
            "tournament": tournament,
            "summary": summary,
            "matches": matches,
            "provisional_any": any(item["provisional"] for item in summary),
        },
    )


@require_POST
@manage_view
def seed_by_club_rating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Registration's "Seed by club rating": one click, highest club rating first."""
    ratings.ensure_current()
    club = ratings.current_ratings(tournament.entries.values("player_id"))
    try:
        registration.seed_by_rating(
            tournament=tournament,
            user=request.user,
            club_ratings={pid: mu for pid, (mu, _sigma) in club.items()},
        )
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Seeded by club rating."))
    return redirect(manage_url("entry-list", tournament))
