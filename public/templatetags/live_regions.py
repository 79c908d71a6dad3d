"""Tags for the live regions' repeated pieces, rendered through :mod:`public.fragments`."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django import template
from django.utils.safestring import SafeString

from club.ratings import TournamentRating
from money.pool import StandingPrizes
from public.fragments import fragment
from standings.board import MatchBox
from standings.standings import Standing
from standings.stats import PlayerStats

register = template.Library()

MATCH_BOX = "public/partials/bracket.html#match-box"
STANDINGS_ROW = "public/partials/standings_row.html"
STATS_FIELDS = tuple(field.name for field in fields(PlayerStats))


@register.simple_tag(takes_context=True)
def match_box(context: template.Context, box: MatchBox) -> SafeString:
    """One match of the bracket (its link needs the tournament's slug). Kept under the
    box's ``repr`` (every field it has): text, which the garbage collector need not
    walk, where thousands of kept boxes would each be objects for it to visit."""
    slug = context["tournament"].slug
    key = (slug, repr(box))
    return fragment(MATCH_BOX, key, {"box": box, "tournament": context["tournament"]})


@register.simple_tag
def standings_row(
    row: Standing,
    complete: bool,
    prizes: StandingPrizes | None = None,
    ratings: dict[int, TournamentRating] | None = None,
) -> SafeString:
    """One row of the standings table; ``complete``: the tournament has its final places;
    ``prizes``: what the places win, for the prize column (None: no column); ``ratings``:
    the club rating after the tournament and its change, by entry (None: no column)."""
    first = row.place == 1 and complete
    numbers = tuple(getattr(row.stats, name) for name in STATS_FIELDS)
    prize = None if prizes is None else prizes.by_entry.get(row.stats.entry_id, 0)
    rating = None if ratings is None else ratings.get(row.stats.entry_id)
    shown = (rating.rating, rating.change, rating.matches, rating.provisional) if rating else None
    key: Any = (
        row.place,
        row.place_label,
        row.progress,
        first,
        numbers,
        prize,
        ratings is not None,
        shown,
    )
    context = {
        "row": row,
        "s": row.stats,
        "first": first,
        "prize": prize,
        "rated": ratings is not None,
        "rating": rating,
    }
    return fragment(STANDINGS_ROW, key, context)
