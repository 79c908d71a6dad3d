"""The projector's standings in pages (issue 41): every entrant, at most
:data:`ROWS_PER_PAGE` rows a page, each page a ``data-page`` of the standings panel.

The panel holds every page, the first shown and the others ``hidden``; the projector's
script (``static/js/projector.js``) shows the next page each time the panel would be
fetched again, and the next panel comes after the last page. Without JavaScript the first
page shows with links to the pages near it, the first and the last
(``?panel=standings&page=2``): that answer is
the panel with only that page, rendered with the others once per public version
(:mod:`public.live`), its ``ETag`` naming the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

ROWS_PER_PAGE = 16
PAGER_REACH = 2


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of the projector's standings: at most :data:`ROWS_PER_PAGE` rows."""

    number: int
    rows: list[Any]
    pages: int
    """How many pages the standings have."""

    @property
    def numbers(self) -> list[int | None]:
        """The pages the pager links to: the first, the last, and those within
        :data:`PAGER_REACH` of this one (this one too), in order, ``None`` where pages are
        left out between them. A few links whatever the field's size, so each page's
        pager costs the same at 1,024 players as at 64."""
        near = range(
            max(1, self.number - PAGER_REACH), min(self.pages, self.number + PAGER_REACH) + 1
        )
        shown = sorted({1, self.pages, *near})
        numbers: list[int | None] = []
        for number in shown:
            if numbers and number - (numbers[-1] or 0) > 1:
                numbers.append(None)
            numbers.append(number)
        return numbers


def standings_pages(rows: list[Any]) -> list[StandingsPage]:
    """Every row of the standings in pages of at most :data:`ROWS_PER_PAGE`, in order:
    the projector shows them one after the other, every entrant on exactly one."""
    size = ROWS_PER_PAGE
    chunks = [rows[i : i + size] for i in range(0, len(rows), size)]
    return [StandingsPage(n, chunk, len(chunks)) for n, chunk in enumerate(chunks, 1)]


def pages_shown(request: HttpRequest, parts: dict[str, Any]) -> tuple[dict, dict]:
    """The projector's panels' bodies and wrapped regions, the standings at the page asked for
    (``?page=``, for a projector without JavaScript; the first page otherwise)."""
    bodies, wrapped = parts["bodies"], parts["wrapped"]
    page = request.GET.get("page", "")
    later = parts.get("standings_pages", {})  # .get: a render cached by an older version
    if page.isdigit() and int(page) in later:
        body, region = later[int(page)]
        bodies, wrapped = {**bodies, "standings": body}, {**wrapped, "standings": region}
    return bodies, wrapped
