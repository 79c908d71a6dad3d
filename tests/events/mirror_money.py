"""The club's server shows the venue's money and seasons (issue 43), after every round:
the tournament as the venue publishes it (``export_tournament(published=True)``), written
as the club's copy, shows the same prizes (fee, pool, payout table, winners, side pots)
and the same table for each season the tournament alone is in, and nothing of who paid.

The club's server shares the test database with the venue, so the check is undone
afterwards (a savepoint rolled back, the sheets scored for the copy forgotten), and the
venue's seasons are set aside inside it, as a club's server without them would be.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from archive.export import export_tournament
from archive.restore import write_copy
from club.models import Season
from club.season_data import season_table
from money.models import Payment
from money.prizes import prizes
from standings.data import forget_sheets
from tournaments.models import Tournament

from .driver import Event
from .problems import Problem, first_difference


class _Undo(Exception):
    pass


def shown(tournament: Tournament) -> dict[str, Any]:
    """The prizes as the prizes page shows them."""
    found = prizes(tournament)
    return {
        "fee": [str(found.money.entry_fee), found.money.currency],
        "pool": found.pool,
        "places": [[p.place, str(p.percent), p.cents] for p in found.places],
        "winners": [[w.name, w.place_label, w.cents] for w in found.winners],
        "side pots": [
            {
                "name": side.pot.name,
                "buy-in": str(side.pot.buy_in),
                "in": side.count,
                "pool": side.pool,
                "places": [[p.place, str(p.percent), p.cents] for p in side.places],
                "winners": [[w.name, w.place_label, w.cents] for w in side.winners],
            }
            for side in found.side_pots
        ],
    }


def table(season: Season) -> list[list[Any]]:
    return [[row.name, row.points, row.all_points, row.events] for row in season_table(season).rows]


def mirrored_money(event: Event) -> list[Problem]:
    venue = event.tournament
    if venue.status == Tournament.Status.DRAFT:
        return []
    document = export_tournament(venue, shows_private=lambda _player: False, published=True)
    money = shown(venue)
    seasons = [s for s in venue.seasons.all() if s.tournaments.count() == 1]
    tables = {season.slug: table(season) for season in seasons}
    problems: list[Problem] = []
    try:
        with transaction.atomic():
            Season.objects.filter(pk__in=[season.pk for season in seasons]).delete()
            owner, _new = get_user_model().objects.get_or_create(username="club-money")
            copy = write_copy(document, slug=f"{venue.slug}-money", owned_by=owner)
            problems += _compare(money, shown(copy), "prizes")
            for slug, rows in tables.items():
                kept = Season.objects.filter(slug=slug, mirrored=True, tournaments=copy).first()
                if kept is None:
                    problems.append(Problem("mirrored season", slug, "not kept at the club"))
                else:
                    problems += _compare(rows, table(kept), f"season {slug}")
            if Payment.objects.filter(entry__tournament=copy).exists():
                problems.append(Problem("mirrored prizes", "", "the club holds a payment"))
            raise _Undo
    except _Undo:
        pass
    finally:
        # The copy's rows are rolled back and SQLite gives their ids to the next rows:
        # the sheets scored for the copy's matches must not be found under them.
        forget_sheets()
    return problems


def _compare(venue: Any, club: Any, surface: str) -> list[Problem]:
    if venue == club:
        return []
    difference = first_difference({surface: venue}, {surface: club}, surface, "venue", "club")
    return [Problem(f"mirrored {surface}", "", difference)]
