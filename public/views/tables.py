"""``/t/<slug>/tables.json``: the tables in play with their estimated finish, and the queue
with when each match should get a table (issue 33; built by :mod:`standings.tables`).

Kept per public version like ``standings.json`` (:mod:`public.live`): the same ``ETag``
and ``Last-Modified``, a 304 for a follower who has it, one render per version.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import condition, require_GET

from public import live as live_pages
from public.live import headers, last_modified, live, not_modified, packed, sent
from standings.data import load
from standings.tables import payload, room
from tournaments.match_names import names_for
from tournaments.models import Tournament


def _etag(request: HttpRequest, slug: str) -> str:
    return live(request, slug).etag("tables")


def _render(tournament: Tournament) -> dict[str, Any]:
    data = load(tournament)
    found = room(data, timezone.now())
    names = names_for(data.tournament, data.matches)
    return {"json": packed(json.dumps(payload(found, names), ensure_ascii=False))}


@require_GET
@condition(etag_func=_etag, last_modified_func=last_modified)
def tables_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The tables in play and the queue, as JSON::

        {
          "tables": [  # by table number: every match at a table with both players
            {"table": int, "match": its key ("W2-1"),
             "stage": its stage's name (null: one bracket), "round": as the pages name it
             ("Quarterfinals"), "label": "Quarterfinals · Match 1" …,
             "players": [name, name],
             "hands": int (a team match: deals), "started_at": ISO or null (no hand yet),
             "estimated_finish": ISO or null}
          ],
          "queue": [  # matches ready for a table without one, in the order they get one
            {"match": key, "stage", "round", "label" (as above), "players": [name, name],
             "estimated_start": ISO or null}
          ]
        }

    A match in play with at least one hand has an estimated finish; one with no hand yet,
    or decided and awaiting confirmation, has none. A queued match's estimated start is
    the next table expected to be free (a decided match's table: at once); past the
    tables with an estimate it is null. Names only, as the public pages show them.
    """
    found = live(request, slug)
    rendered = live_pages.group(found, "tables", lambda: _render(found.tournament))
    unchanged = not_modified(request, found, "tables", rendered.tag)
    if unchanged is not None:
        return unchanged
    response = sent(request, rendered.parts["json"], content_type="application/json")
    return headers(response, found, "tables", rendered.tag)
