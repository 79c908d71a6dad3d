"""The club's writes: seasons (the director's table of points, best N, which tournaments).
Keyword-only, atomic, audited (:mod:`tournaments.audit`); a refused write raises
ValidationError and changes nothing. A tournament's money is written by
:mod:`money.services`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from club.models import Season
from tournaments import audit
from tournaments.models import Tournament
from web.unique import save_with_free_slug

RESERVED_SLUGS = frozenset({"new"})


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "season"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or Season.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _snapshot(season: Season, tournaments: Sequence[int]) -> dict[str, Any]:
    return {
        "name": season.name,
        "scoring": season.scoring,
        "placing_points": list(season.placing_points or []),
        "points_per_win": season.points_per_win,
        "best_of": season.best_of,
        "tournaments": sorted(tournaments),
    }


def save_season(*, season: Season, tournaments: Sequence[Tournament], user: Any) -> Season:
    """Create or change ``season`` (its fields already set) with these tournaments."""
    with transaction.atomic():
        adding = season.pk is None
        before = (
            None
            if adding
            else _snapshot(
                Season.objects.get(pk=season.pk),
                list(season.tournaments.values_list("pk", flat=True)),
            )
        )
        if season.slug:
            season.save()
        else:
            save_with_free_slug(season, lambda: unique_slug(season.name))
        season.tournaments.set(tournaments)
        audit.record(
            tournament=None,
            action="season created" if adding else "season changed",
            obj=season,
            before=before,
            after=_snapshot(season, [t.pk for t in tournaments]),
            user=user,
        )
    return season
