"""Pieces of the live regions rendered once for what they show, and kept by this process.

After a hand, a 256-player page group is rendered again although one match box of its
511 and a few of its 256 standings rows differ from the last render; rendering every
box and row through the template language was two thirds of the time that took. Here a
box or row is rendered from its own template with a plain ``Context`` (nothing of the
visitor) and kept under everything it shows: the language, the template, and a key of
the values it prints (for a match box, the ``repr`` of its frozen
:class:`standings.board.MatchBox`: text, which the garbage collector need not walk). A box
or row that shows the same values is the same HTML, so a cached piece can never be
stale: a change to anything it prints is a different key.

Each process keeps at most :data:`FRAGMENTS` pieces, least recently used first out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from django.template import Context, Engine
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

FRAGMENTS = 20_000

_kept: OrderedDict[tuple[str, str | None, Hashable], SafeString] = OrderedDict()
_lock = threading.Lock()


def fragment(template_name: str, key: Hashable, context: dict[str, Any]) -> SafeString:
    """``template_name`` rendered with ``context``, which ``key`` must determine."""
    kept_key = (template_name, get_language(), key)
    with _lock:
        html = _kept.get(kept_key)
        if html is not None:
            _kept.move_to_end(kept_key)
            return html
    template = Engine.get_default().get_template(template_name)
    html = mark_safe(template.render(Context(context)))
    with _lock:
        _kept[kept_key] = html
        while len(_kept) > FRAGMENTS:
            _kept.popitem(last=False)
    return html


def forget() -> None:
    """Drop this process's pieces (tests and the bench's cold measurements)."""
    with _lock:
        _kept.clear()
