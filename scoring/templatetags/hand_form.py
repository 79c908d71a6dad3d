"""Tags for the match page: the hand form (``scoring/partials/hand_fields.html``) and each hand's
links."""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

CHECKED = mark_safe(" checked")
REQUIRED = mark_safe(" required")
NOTHING = mark_safe("")
AUTOFOCUS = mark_safe(" autofocus")


@register.simple_tag
def hand_url(urls: Any, action: str, number: int) -> str:
    """The reversed URL that edits or deletes hand ``number`` (``urls``: the page's
    :class:`scoring.views.base.MatchUrls`, which knows whether it is a table link)."""
    return str(urls.hand(action, number))


@register.simple_tag
def choice_buttons(
    field: BoundField, *, required: bool = False, autofocus: bool = False
) -> SafeString:
    """The radio inputs of a choice field, each in its ``label.choice`` button.

    Written in Python rather than as a template loop: this form is rendered again after
    every hand entered, and a loop costs several template look-ups per choice.
    """
    current = field.value()
    name = field.html_name
    return format_html_join(
        "",
        '<label class="choice"><input type="radio" name="{}" value="{}" id="id_{}_{}"{}{}{}>'
        "<span>{}</span></label>",
        (
            (
                name,
                value,
                name,
                index,
                REQUIRED if required else NOTHING,
                CHECKED if current == value else NOTHING,
                AUTOFOCUS if autofocus and index == 0 else NOTHING,
                label,
            )
            for index, (value, label) in enumerate(field.field.choices)
        ),
    )


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PICK = (
    '<label class="pick{}"><input type="checkbox" name="{}" value="{}"{}>'
    '<span class="pc pc-{}">{}</span></label>'
)
TAKEN = mark_safe(" taken")


def card_text(code: str) -> str:
    """``"TH"`` as people write it: ``10♥``."""
    return code[:-1].replace("T", "10") + SUIT_SYMBOLS[code[-1]]


@register.simple_tag
def card_grid(form: Any, name: str, other: str) -> SafeString:
    """The card picker of one hand: a checkbox per card, a row of them per suit; the cards
    ticked in the ``other`` hand are greyed (the server refuses a card in both hands).

    Written in Python for the same reason as :func:`choice_buttons`: the hand form is
    rendered again after every hand entered."""
    picked, taken = set(form.picked(name)), set(form.picked(other))
    if not picked and not taken:  # a fresh form, after every hand entered: the same HTML
        return _empty_grid(name)
    return _grid(name, picked, taken)


@functools.cache
def _empty_grid(name: str) -> SafeString:
    return _grid(name, set(), set())


def _grid(name: str, picked: set[str], taken: set[str]) -> SafeString:
    rows = []
    for suit in "SHDC":
        cells = format_html_join(
            "",
            PICK,
            (
                (
                    TAKEN if code in taken and code not in picked else NOTHING,
                    name,
                    code,
                    CHECKED if code in picked else NOTHING,
                    suit,
                    card_text(code),
                )
                for code in (f"{rank}{suit}" for rank in "A23456789TJQK")
            ),
        )
        rows.append(format_html('<div class="suit-row">{}</div>', cells))
    return format_html(
        '<div class="card-grid" data-hand="{}">{}</div>', name, mark_safe("".join(rows))
    )


@register.simple_tag
def playing_cards(cards: Any) -> SafeString:
    """Engine cards (:class:`engine.Card`) as ``7♥`` chips, red for hearts and
    diamonds; the suit symbol says the suit without the colour."""
    return format_html_join(
        " ",
        '<span class="pc pc-{}">{}</span>',
        ((card.suit, card_text(str(card))) for card in cards),
    )
