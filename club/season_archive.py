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
from web.numbers import integer_in

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
        raise SeasonArchiveError(f"season.{key} is missing or not valid: {_show(value)}")
    if isinstance(value, str):
        _text(value, f"season.{key}")
    return value


def _show(value: Any) -> str:
    return ascii(value)[:80]


def _text(value: str, where: str) -> str:
    """Text every database stores: no NUL character, no lone surrogate."""
    if "\x00" in value:
        raise SeasonArchiveError(f"{where} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SeasonArchiveError(f"{where} is not valid Unicode text") from None
    return value


def _whole(data: Mapping[str, Any], key: str, *, low: int, high: int, null: bool) -> int | None:
    """A whole number within the season form's bounds (web.numbers)."""
    value = data.get(key)
    if value is None and null:
        return None
    try:
        return integer_in(value, low=low, high=high)
    except ValueError:
        raise SeasonArchiveError(
            f"season.{key} must be a whole number {low}–{high}: {_show(value)}"
        ) from None


def _no_constant(name: str) -> None:
    raise SeasonArchiveError(f"not JSON: {name} is not a number")


def _loads(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise SeasonArchiveError(f"not JSON: {error.msg} (line {error.lineno})") from None
    except RecursionError:
        raise SeasonArchiveError("not a season file: nested too deeply") from None


def import_season(
    text: str, *, renamed: Mapping[str, str] | None = None, owner: str | None = None
) -> Season:
    """Create the season of ``text`` (an exported season file). ``renamed`` maps a
    tournament's slug in the file to its slug here (``import_tournament --slug``)."""
    document = _loads(text)
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
    best_of = _whole(data, "best_of", low=1, high=500, null=True)
    points_per_win = _whole(data, "points_per_win", low=0, high=1000, null=False)
    listed = _need(data, "tournaments", list)
    for n, listed_slug in enumerate(listed):
        if not isinstance(listed_slug, str):
            raise SeasonArchiveError(f"season.tournaments[{n}] is not a slug: {_show(listed_slug)}")
        _text(listed_slug, f"season.tournaments[{n}]")
    slugs = [(renamed or {}).get(s, s) for s in listed]
    found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise SeasonArchiveError(
            f"tournaments not on this installation: {', '.join(missing)} "
            "(import their archives first, with import_tournament)"
        )
    teams = [s for s in slugs if found[s].ruleset.is_team]
    if teams:
        raise SeasonArchiveError(
            f"season.tournaments: {', '.join(teams)} is a team event; a season ranks "
            "players, as its form says (head to head only)"
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
        points_per_win=points_per_win,
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
