"""Seasons: the public list, a season's table (its PDF is :func:`printing.views.season_pdf`),
and the director's form.

Anyone reads a season; any director creates one; only its director changes it (from
tournaments they direct)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from club import services
from club.forms import SeasonForm
from club.models import Season
from club.season_archive import dumps, export_season
from club.season_data import season_table
from tournaments.permissions import is_director
from web import repeats


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.only("name", "slug", "created")
    return render(request, "club/season_list.html", {"seasons": seasons})


@require_GET
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    found = season_table(season)
    rows = [
        {
            "row": row,
            "cells": [(row.by_event.get(t.pk), t.pk in row.counted) for t in found.tournaments],
        }
        for row in found.rows
    ]
    context = {
        "season": season,
        "table": found,
        "rows": rows,
        "may_edit": _may_edit(request.user, season),
    }
    return render(request, "club/season.html", context)


def _may_edit(user, season: Season) -> bool:
    """A season published from a venue (club.copies) is changed there, by nobody here."""
    if season.mirrored:
        return False
    return bool(user.is_authenticated and (user.is_superuser or season.owner_id == user.pk))


@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_director(request.user):
        raise PermissionDenied(_("Only tournament directors can do this."))
    return _season_form(request, Season(owner=request.user))


@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if season.mirrored:  # the venue's: read-only here, as its mirrored tournaments
        raise PermissionDenied(_("This season is published from its venue: make changes there."))
    if not _may_edit(request.user, season):
        raise PermissionDenied(_("Only the season's director can change it."))
    return _season_form(request, season)


def _season_form(request: HttpRequest, season: Season) -> HttpResponse:
    form = SeasonForm(request.POST or None, instance=season, user=request.user)
    context: dict[str, Any] = {"form": form, "season": season}
    if request.method == "POST" and form.is_valid():
        season = form.save(commit=False)
        season.placing_points = form.cleaned_data["placing_points_text"]
        adding = season.pk is None

        def find(seen: int) -> repeats.Made | None:
            return _same_season(request.user, season.name, seen) if adding else None

        try:
            with repeats.guard(Season, seen=repeats.besides(request), find=find):
                services.save_season(
                    season=season,
                    tournaments=list(form.cleaned_data["tournaments"]),
                    user=request.user,
                )
        except repeats.Repeat as repeat:
            context.update(repeats.question(repeat.made))
        else:
            messages.success(request, _("Season saved."))
            return redirect("club:season", slug=season.slug)
    return render(request, "club/season_form.html", context)


def _same_season(user: Any, name: str, seen: int) -> repeats.Made | None:
    """The newest season of the same name any director made lately (after ``seen``)."""
    found = (
        Season.objects.filter(name__iexact=name.strip(), created__gte=repeats.since(), pk__gt=seen)
        .select_related("owner")
        .order_by("-pk")
        .first()
    )
    if found is None:
        return None
    return repeats.Made(
        pk=found.pk,
        name=found.name,
        at=found.created,
        url=reverse("club:season", args=[found.slug]),
        by="" if found.owner_id == user.pk else found.owner.get_username(),
    )


@require_GET
@never_cache
def season_export(request: HttpRequest, slug: str) -> HttpResponse:
    """``/seasons/<slug>/export.json``: the season's file, for its director."""
    season = get_object_or_404(Season.objects.select_related("owner"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _may_edit(request.user, season):
        raise PermissionDenied(_("Only the season's director can change it."))
    response = HttpResponse(dumps(export_season(season)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="season-{season.slug}.json"'
    return response
