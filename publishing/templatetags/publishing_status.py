"""``{% publishing_status tournament %}``: on Round control at a venue that publishes, how
far the tournament's publishing has gone, and a rename when the club's server has its
slug taken (rendered by tournaments' template, which does not import publishing)."""

from __future__ import annotations

from typing import Any

from django import template

from ..models import Publication
from ..status import status_of

register = template.Library()


@register.inclusion_tag("publishing/publishing_status.html", takes_context=True)
def publishing_status(context: template.Context, tournament: Any) -> dict[str, Any]:
    found = status_of(tournament)
    slug = ""
    if found is not None and found.slug_taken:
        publication = Publication.objects.filter(tournament=tournament).first()
        slug = (publication.slug if publication else "") or tournament.slug
    return {
        "status": found,
        "tournament": tournament,
        "slug": slug,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("publishing/publishing_banner.html")
def publishing_banner(tournament: Any) -> dict[str, Any]:
    """The same line in the banner of the tournament's other director pages."""
    return {"status": status_of(tournament), "tournament": tournament}
