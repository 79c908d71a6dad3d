"""Names on public pages, linked to the club's player page when the player has one.

``{{ entry|player_link }}`` takes an entry (its player loaded with it);
``{{ name|player_link_to:page }}`` takes a name and the player id of its page (None: the
name alone, for a team or a hidden player)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from public.stats import player_page

register = template.Library()


@register.filter
def player_link_to(name: Any, page: int | None) -> SafeString:
    if page is None:
        return conditional_escape(name)
    return format_html(
        '<a class="player-link" href="{}">{}</a>', reverse("club:player", args=[page]), name
    )


@register.filter
def player_link(entry: Any) -> SafeString:
    if entry is None:
        return SafeString("")
    return player_link_to(entry.name, player_page(entry))
