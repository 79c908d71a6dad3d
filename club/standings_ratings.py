"""The club rating in ``standings.json``: each row gains ``"rating"`` (the player's club
rating after this tournament, or going into it), ``"rating_uncertainty"``,
``"rating_change"`` (what this tournament's matches changed) and ``"rating_provisional"``
(true while the rating is still uncertain: :func:`club.rating.provisional`), all null for
a player the club has not rated, once the club has any rating at all. The rating store
is :mod:`club.ratings`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from club import ratings
from standings.data import Results
from standings.standings import Standing

PROVISIONAL_NOTE = gettext_lazy(
    "? Provisional rating: too few matches yet for it to be reliable. It settles as the "
    "player plays more."
)


def club_rating_column(
    data: Results,
) -> tuple[str, Callable[[Standing], str], list[str]] | None:
    """The standings PDF's club rating column: its heading, each row's text ("1712?"
    while provisional) and the note to print under the table; None while the club has no
    rating, and for a team tournament."""
    by_entry = None if data.tournament.ruleset.is_team else entry_ratings(data)
    if by_entry is None:
        return None

    def text(row: Standing) -> str:
        rating = by_entry.get(row.stats.entry_id)
        if rating is None:
            return ""
        return f"{rating.rating}?" if rating.provisional else str(rating.rating)

    provisional = any(rating.provisional for rating in by_entry.values())
    return gettext("Club rating"), text, [str(PROVISIONAL_NOTE)] if provisional else []


def entry_players(data: Results) -> dict[int, int]:
    """Entry id to player id, from what the page loaded already (no query)."""
    found = {entry.pk: entry.player_id for entry in data.entries}
    for match in data.matches:
        for entry in (match.side_a, match.side_b):
            if entry is not None:
                found[entry.pk] = entry.player_id
    return found


def entry_ratings(data: Results) -> dict[int, ratings.TournamentRating] | None:
    """Each entry's club rating after this tournament and what the tournament changed, by
    entry id (players the club has not rated are left out, and every team: a partnership
    rates no one, and a team is no club player); None while the club has no rating at all.
    Four queries (is it current: 2, this tournament's: 2); two for a team tournament."""
    if not ratings.ensure_current():
        return None
    if data.tournament.ruleset.is_team:
        return {}
    players = entry_players(data)
    by_player = ratings.tournament_ratings(data.tournament.pk, set(players.values()))
    return {
        entry_id: by_player[player_id]
        for entry_id, player_id in players.items()
        if player_id in by_player
    }


def with_club_ratings(rows: list[dict[str, Any]], data: Results) -> None:
    """Add the two keys to the rows of :meth:`Standing.as_json`, in standings order."""
    by_entry = entry_ratings(data)
    if by_entry is None:
        return
    for row, standing in zip(rows, data.standings.rows, strict=True):
        rating = by_entry.get(standing.stats.entry_id)
        row["rating"] = rating.rating if rating else None
        row["rating_uncertainty"] = rating.uncertainty if rating else None
        row["rating_change"] = rating.change if rating else None
        row["rating_provisional"] = rating.provisional if rating else None
