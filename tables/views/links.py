"""What every view behind a table link shares (its own, and scoring's hand views, which
build their ``match_view`` on it): :func:`link_view` resolves the match and the visitor's
rights (:mod:`tables.access`), answers a guessed link past the limit (429, with
``Retry-After``) or a closed one (410) with a page that says why, gives the phone its
label (:mod:`tables.devices`) and keeps a table link's submission ids
(:func:`web.submissions.by_link`).
"""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import time_format
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from tournaments.match_names import parts_of
from tournaments.models import Match
from web.submissions import by_link

from .. import access, devices
from ..access import MatchAccess, TableLinkClosed, TokenRateLimited

View = Callable[..., HttpResponse]
Call = Callable[[View, HttpRequest, dict[str, Any], dict[str, Any]], HttpResponse]
"""How the view is called with the match it names: ``(view, request, where, kwargs)``,
``where`` being the URL's ``slug`` and ``match_id``, or its ``token``."""
Kept = Callable[[HttpRequest, Match], HttpResponse | None]
"""What a write sent to a closed link already did, if anything (scoring: a hand stored)."""

WHERE = ("slug", "match_id", "token")


def link_view(view: View, *, call: Call | None = None, kept: Kept | None = None) -> View:
    """``view(request, access, **kwargs)`` served under a match URL or a table link.

    ``call`` runs the view (by default: resolve, then call it; scoring's hand writes lock
    the match first). ``kept`` may answer a POST to a closed link for what it already
    stored, before the closed page does."""
    run = call or _resolved

    @wraps(view)
    def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        where = {name: kwargs.pop(name) for name in WHERE if name in kwargs}
        try:
            response = run(view, request, where, kwargs)
        except TokenRateLimited as limited:
            return too_many_wrong_links(request, limited.until)
        except TableLinkClosed as closed:
            answered = kept(request, closed.match) if kept is not None else None
            return answered if answered is not None else closed_link(request, closed)
        patch_vary_headers(response, ("HX-Request",))
        if "token" in where:
            devices.remember(request, response)
        return response

    # A table link's writes keep their submission ids too (web.submissions).
    return by_link(wrapper)


def _resolved(
    view: View, request: HttpRequest, where: dict[str, Any], kwargs: dict[str, Any]
) -> HttpResponse:
    return view(request, access.resolve(request, **where), **kwargs)


def too_many_wrong_links(request: HttpRequest, until: float) -> HttpResponse:
    """429 for a wrong link past the limit: until when its address's wrong links are
    turned away (the page, and ``Retry-After`` in seconds), and that the link on the
    scoresheet still opens."""
    ends = timezone.localtime(datetime.datetime.fromtimestamp(until, tz=datetime.UTC))
    # A minute up, so that the time shown is never before the window ends.
    shown = time_format(ends.replace(second=0, microsecond=0) + datetime.timedelta(minutes=1))
    reason = _(
        "This table link is not valid. Too many wrong table links have come from this "
        "network: wrong ones are refused until %(time)s, and the QR code on your "
        "scoresheet still opens."
    ) % {"time": shown}
    context = {"reason": reason, "table_link": True}
    response = render(request, "tables/table_closed.html", context, status=429)
    response["Retry-After"] = str(max(1, math.ceil(until - time.time())))
    return response


def closed_link(request: HttpRequest, closed: TableLinkClosed) -> HttpResponse:
    """410 for a real link that no longer works: why, and the match sheet to read."""
    reason = closed.reason
    if request.method == "POST" and closed.match.status == Match.Status.COMPLETE:
        # Sent from a page opened before the result was confirmed.
        reason = f"{_('The result was confirmed meanwhile; nothing was changed.')} {reason}"
    context = {
        "reason": reason,
        "match": closed.match,
        "match_name": lazy_name(closed.match),
        "table_link": True,
    }
    return render(request, "tables/table_closed.html", context, status=410)


def lazy_name(match: Match | None) -> Any:
    """The match's name as :func:`match_name_html` gives it, worked out only if shown."""
    return SimpleLazyObject(lambda: match_name_html(match) if match is not None else "")


def match_name_html(match: Match) -> str:
    """The match's name, each part kept whole on a line of its own if need be."""
    parts = ((part,) for part in parts_of(match))
    return format_html_join(" · ", '<span class="nowrap">{}</span>', parts)


def link_context(access: MatchAccess) -> dict[str, Any]:
    """What every page or region behind a match URL or table link shows of it."""
    return {
        "access": access,
        "match": access.match,
        "tournament": access.tournament,
        # "Qualifying · Round 1 · Match 6", as every page names it (a query, if shown),
        # wrapping on a narrow phone between its parts only.
        "match_name": lazy_name(access.match),
        # The players' pages (base.html): no log-in link or director navigation.
        "table_link": access.token is not None,
    }
