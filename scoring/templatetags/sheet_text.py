"""How the match page writes names and times: the size of a name in the score header, and
the clock of the phone's outbox (``static/js/outbox.js``) in the language's own format."""

from __future__ import annotations

import datetime
import re
from typing import Final

from django import template
from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

# (class, longest word, or whole name, in characters from which it applies), largest
# first. On a 390 px phone a name's column is about 120 px: at 1.1rem a bold word of 10
# letters fills it in a wide face (DejaVu Sans), at .95rem 11, at .8rem 13, at .7rem 15.
_SIZES: Final = (
    ("name-longest", 14, 40),
    ("name-longer", 12, 30),
    ("name-long", 10, 22),
)
_BREAKS: Final = re.compile(r"[\s\-\u2010]+")


@register.filter
def name_fit(name: object) -> str:
    """The class that shrinks a long name in the score header (``name-long``,
    ``name-longer`` or ``name-longest``; ``""`` for a short one), so on a phone a name
    wraps at its spaces and hyphens and a word like "Kierkegaard" stays whole
    (static/css/site.css). Judged by the name's longest word, and by its length: a long
    name of short words takes fewer lines."""
    text = str(name)
    longest = max((len(word) for word in _BREAKS.split(text)), default=0)
    for size, word, whole in _SIZES:
        if longest >= word or len(text) >= whole:
            return size
    return ""


# Django's words for the time formats that have words ("a", "A", "P"), at these times.
_WORDS: Final = {
    "am": ("a", datetime.time(1, 0)),
    "pm": ("a", datetime.time(13, 0)),
    "am-upper": ("A", datetime.time(1, 0)),
    "pm-upper": ("A", datetime.time(13, 0)),
    "midnight": ("P", datetime.time(0, 0)),
    "noon": ("P", datetime.time(12, 0)),
}


@register.simple_tag
def clock_format() -> SafeString:
    """``data-`` attributes that give the outbox's script the active language's
    ``TIME_FORMAT`` (as every page writes times: "6:40 p.m." in English, "18:40" in
    Spanish and Afrikaans) and the words it may need, so the phone's clock says the time
    as the server's pages do."""
    words = {key: dateformat.time_format(at, code) for key, (code, at) in _WORDS.items()}
    return format_html(
        'data-time-format="{}" data-am="{}" data-pm="{}" data-am-upper="{}" '
        'data-pm-upper="{}" data-midnight="{}" data-noon="{}"',
        get_format("TIME_FORMAT"),
        *words.values(),
    )
