"""A season on the move: ``/seasons/<slug>/export.json`` and ``import_season``.

A season is its table of points and the tournaments it groups. Each tournament travels in
its own archive (``/t/<slug>/export.json``, ``import_tournament``); the season's file names
them by slug, and ``import_season`` links the tournaments of that name on the new
installation, after they were imported. The club rating needs nothing: it is derived from
the results and rebuilt on the new installation at the first page that shows it.

As the tournament archive does (:mod:`archive.reading`): the file is checked whole before
anything is written; a refusal is one line naming the problem and imports nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.models import Tournament

from . import services
from .models import Season
from .seasons import parse_points

FORMAT = "ginclub-season"
VERSION = 1


class SeasonArchiveError(Exception):
    """A season file this installation refuses; the message says why, in one line."""


def export_season(season: Season) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "season": {
            "name": season.name,
            "slug": season.slug,
            "owner": season.owner.get_username(),
            "scoring": season.scoring,
            "placing_points": list(season.placing_points or []),
            "points_per_win": season.points_per_win,
            "best_of": season.best_of,
            "tournaments": list(
                season.tournaments.order_by("date", "pk").values_list("slug", flat=True)
            ),
        },
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SeasonArchiveError(f"season.{key} is missing or not valid: {value!r}")
    return value


def import_season(
    text: str, *, renamed: Mapping[str, str] | None = None, owner: str | None = None
) -> Season:
    """Create the season of ``text`` (an exported season file). ``renamed`` maps a
    tournament's slug in the file to its slug here (``import_tournament --slug``)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SeasonArchiveError(f"not JSON: {error.msg} (line {error.lineno})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SeasonArchiveError(f"not a season file (its format is not {FORMAT!r})")
    if document.get("version") != VERSION:
        raise SeasonArchiveError(f"season file version {document.get('version')!r}: {VERSION} only")
    data = _need(document, "season", dict)
    name = _need(data, "name", str).strip()
    slug = _need(data, "slug", str)
    scoring = _need(data, "scoring", str)
    if scoring not in Season.Scoring.values:
        raise SeasonArchiveError(
            f"season.scoring {scoring!r} is not one of {Season.Scoring.values}"
        )
    points = _need(data, "placing_points", list)
    try:
        placing = list(parse_points(",".join(str(p) for p in points)))
    except ValueError:
        raise SeasonArchiveError("season.placing_points must be whole numbers 0–1000") from None
    best_of = data.get("best_of")
    if best_of is not None and (isinstance(best_of, bool) or not isinstance(best_of, int)):
        raise SeasonArchiveError(f"season.best_of must be a whole number or null: {best_of!r}")
    slugs = [(renamed or {}).get(s, s) for s in _need(data, "tournaments", list)]
    found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise SeasonArchiveError(
            f"tournaments not on this installation: {', '.join(missing)} "
            "(import their archives first, with import_tournament)"
        )
    if Season.objects.filter(slug=slug).exists():
        raise SeasonArchiveError(f"a season with the slug {slug!r} already exists here")
    users = get_user_model().objects
    account = users.filter(username=owner or data.get("owner")).first()
    account = account or users.filter(is_superuser=True).order_by("pk").first()
    if account is None:
        raise SeasonArchiveError("no owner: the season's director has no account here")
    season = Season(
        name=name,
        slug=slug,
        owner=account,
        scoring=scoring,
        placing_points=placing,
        points_per_win=_need(data, "points_per_win", int),
        best_of=best_of,
    )
    try:
        season.full_clean(exclude=["tournaments"])
    except ValidationError as error:
        raise SeasonArchiveError(f"season not valid: {'; '.join(error.messages)}") from None
    with transaction.atomic():
        return services.save_season(
            season=season, tournaments=[found[s] for s in slugs], user=account
        )
