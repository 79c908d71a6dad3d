"""Names on public pages, linked to the club's player page when the player has one.

``{{ entry|player_link }}`` takes an entry (its player loaded with it);
``{{ name|player_link_to:page }}`` takes a name and the player id of its page (None: the
name alone, for a team or a hidden player); ``{{ name|name_isolated }}`` a name without a link.

Each name is printed in a ``<bdi>``: isolated from the text around it, so that a name in
Arabic or Hebrew does not carry the number beside it (a seed, a score) to its other side,
nor a Latin name turn the order of a right-to-left page."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from standings.stats import player_page

register = template.Library()


@register.filter
def name_isolated(name: Any) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def player_link_to(name: Any, page: int | None) -> SafeString:
    if page is None:
        return name_isolated(name)
    return format_html(
        '<bdi><a class="player-link" href="{}">{}</a></bdi>',
        reverse("club:player", args=[page]),
        name,
    )


@register.filter
def player_link(entry: Any) -> SafeString:
    if entry is None:
        return SafeString("")
    return player_link_to(entry.name, player_page(entry))
