"""``{% mirror_status tournament %}``: on a mirrored tournament's pages, how fresh it is
(nothing on a tournament of this site's own)."""

from __future__ import annotations

from typing import Any

from django import template

from ..lag import freshness
from ..mirrors import mirrored
from ..models import Mirror

register = template.Library()


@register.inclusion_tag("publishing/mirror_status.html")
def mirror_status(tournament: Any) -> dict[str, Any]:
    if tournament.slug not in mirrored():  # no query for the site's own tournaments
        return {"mirror": None}
    mirror = Mirror.objects.filter(tournament_id=tournament.pk).first()
    if mirror is None:
        return {"mirror": None}
    found = freshness(mirror)
    return {"mirror": mirror, "status": found.line, "behind": found.behind}
