"""Tags for the match page: the hand form (``scoring/_hand_fields.html``) and each hand's
links."""

from __future__ import annotations

from typing import Any

from django import template
from django.forms import BoundField
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

CHECKED = mark_safe(" checked")
REQUIRED = mark_safe(" required")
NOTHING = mark_safe("")


@register.simple_tag
def hand_url(urls: Any, action: str, number: int) -> str:
    """The reversed URL that edits or deletes hand ``number`` (``urls``: the page's
    :class:`scoring.views.MatchUrls`, which knows whether it is a table link)."""
    return str(urls.hand(action, number))


@register.simple_tag
def choice_buttons(field: BoundField, *, required: bool = False) -> SafeString:
    """The radio inputs of a choice field, each in its ``label.choice`` button.

    Written in Python rather than as a template loop: this form is rendered again after
    every hand entered, and a loop costs several template look-ups per choice.
    """
    current = field.value()
    name = field.html_name
    return format_html_join(
        "",
        '<label class="choice"><input type="radio" name="{}" value="{}" id="id_{}_{}"{}{}>'
        "<span>{}</span></label>",
        (
            (
                name,
                value,
                name,
                index,
                REQUIRED if required else NOTHING,
                CHECKED if current == value else NOTHING,
                label,
            )
            for index, (value, label) in enumerate(field.field.choices)
        ),
    )
