"""A tournament's seasons in what a venue publishes (the ``"seasons"`` part,
:mod:`archive.sections`), kept at the club's server under the same slugs.

The part lists the seasons the tournament is in, each with its settings (name, slug,
points, best N). At the club, the mirror's tournament joins each of them there: a season
the club does not have is made (``mirrored``: read-only there, like the mirror), a
mirrored one is brought up to the venue's settings, and the mirror leaves the mirrored
seasons the part no longer names (one left with no tournament is deleted). So a venue's
season at the club holds that venue's published tournaments, as at the venue.

A slug the club already uses for a season of its own, or for a season another account
publishes (a second venue), is left alone: the club's season stays the club's, the first
venue's stays the first venue's, and the mirror does not join it (nothing merges two
clubs' tables behind their backs). The club's own seasons may still count mirrors.

Only a copy writes the part (a mirror: :func:`archive.restore.write_copy`); an import
leaves seasons to their own file (:mod:`club.season_archive`). Nothing here imports the
archive: a refusal is a ``ValueError``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tournaments.models import Entry, Tournament

from .models import Season
from .seasons import parse_points
from .services import RESERVED_SLUGS

log = logging.getLogger(__name__)

KEYS = {"name", "slug", "scoring", "placing_points", "points_per_win", "best_of"}
SETTINGS = ("name", "scoring", "placing_points", "points_per_win", "best_of")
MAX_SEASONS = 50


def export(tournament: Tournament, entry_index: dict[int, int], *, published: bool) -> Any:
    """The tournament's seasons, only in what is published (None: none, or not published)."""
    if not published:
        return None
    seasons = tournament.seasons.order_by("slug")
    rows = [
        {
            "name": season.name,
            "slug": season.slug,
            "scoring": season.scoring,
            "placing_points": [int(p) for p in season.placing_points or ()],
            "points_per_win": season.points_per_win,
            "best_of": season.best_of,
        }
        for season in seasons
    ]
    return rows or None


def check(value: Any, entries: int) -> list[Season]:
    """The part read strictly: unsaved seasons (no owner yet)."""
    if not isinstance(value, list) or len(value) > MAX_SEASONS:
        raise ValueError(f"must be a list of at most {MAX_SEASONS} seasons")
    seasons = [_season(row, f"[{i}]") for i, row in enumerate(value)]
    if len({season.slug for season in seasons}) < len(seasons):
        raise ValueError("a season is named twice")
    return seasons


def _season(row: Any, where: str) -> Season:
    if not isinstance(row, dict) or set(row) != KEYS:
        raise ValueError(f"{where} must have exactly {', '.join(sorted(KEYS))}")
    points = row["placing_points"]
    if not isinstance(points, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in points
    ):
        raise ValueError(f"{where}.placing_points must be whole numbers")
    for name in ("points_per_win", "best_of"):
        if isinstance(row[name], bool) or not isinstance(row[name], int | None):
            raise ValueError(f"{where}.{name} must be a whole number")
    if not all(isinstance(row[name], str) for name in ("name", "slug", "scoring")):
        raise ValueError(f"{where}: name, slug and scoring must be text")
    if row["slug"] in RESERVED_SLUGS:
        raise ValueError(f"{where}.slug {row['slug']!r} is a page of the seasons here")
    try:
        placing = list(parse_points(",".join(str(p) for p in points)))
    except ValueError:
        raise ValueError(f"{where}.placing_points must be whole numbers 0–1000") from None
    season = Season(
        **{name: row[name] for name in ("name", "slug", "scoring", "points_per_win", "best_of")},
        placing_points=placing,
        mirrored=True,
    )
    try:
        season.full_clean(exclude=["owner", "tournaments"], validate_unique=False)
    except ValidationError as error:
        raise ValueError(f"{where}: {' '.join(error.messages)}") from None
    return season


def write(
    checked: list[Season] | None, tournament: Tournament, entries: list[Entry], *, copy_owner: Any
) -> None:
    """The copy's mirrored seasons made the part's (see the module docstring)."""
    if copy_owner is None:
        return
    joined = set()
    for wanted in checked or ():
        season = _kept(wanted, copy_owner)
        if season is not None:
            joined.add(season.pk)
            season.tournaments.add(tournament)
    left = list(tournament.seasons.filter(mirrored=True).exclude(pk__in=joined))
    for season in left:
        season.tournaments.remove(tournament)
    Season.objects.filter(pk__in=[s.pk for s in left], tournaments=None).delete()


def _kept(wanted: Season, owner: Any) -> Season | None:
    """The season of ``wanted``'s slug here, made or brought up to its settings; None when
    the slug is the club's own season's or another account's."""
    season = Season.objects.filter(slug=wanted.slug).first()
    if season is None:
        wanted.owner = owner
        try:
            with transaction.atomic():  # another venue's mirror may make it at the same time
                wanted.save()
            return wanted
        except IntegrityError:
            season = Season.objects.filter(slug=wanted.slug).first()
            if season is None:
                raise
    if not season.mirrored or season.owner_id != owner.pk:
        log.warning("publishing: season %s is not the venue's here: not joined", wanted.slug)
        return None
    changed = [name for name in SETTINGS if getattr(season, name) != getattr(wanted, name)]
    if changed:
        for name in changed:
            setattr(season, name, getattr(wanted, name))
        season.save(update_fields=changed)
    return season
