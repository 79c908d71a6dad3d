"""Who is looking at a match sheet, and what they may do there.

A match is reached either by a signed-in user (``/t/<slug>/matches/<id>/…``) or by a
table link (``/table/<token>/…``), which opens that one match only, without an account.
The same views serve both; :class:`MatchAccess` tells them which, and builds the URLs.

Wrong table links are counted per client address (:mod:`web.limiter`): past
:data:`TOKEN_FAILURE_LIMIT` in :data:`TOKEN_FAILURE_WINDOW`, a wrong link is answered 429
with ``Retry-After`` and the time the window ends, instead of 404 (issue 43). A right link
always opens, whatever its address guessed before, and that is on purpose:

- a table link is 256 random bits (:func:`tournaments.models.matches.new_token`): at a
  million guesses a second, finding one of a night's few hundred live links would take
  some 10^60 years, so holding right links back would add no safety worth having;
- the phones of a venue often share one address (on the club's server, the venue Wi-Fi's
  one public address behind its NAT), so locking out an address would let one phone,
  mistyping or malicious, stop every table in the room entering hands.

What the limit buys is a guessing client told plainly, and early, that it is guessing
(well-behaved clients and scanners honour ``Retry-After`` and stop), and a 429 line for
each in the server's log; the look-up of a wrong link is one indexed query either way
(docs/club-server.md says so for the club's server).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Match, Tournament
from tournaments.permissions import can_direct, can_score
from web import limiter
from web.clients import client_address
from web.language import use_tournament_language

# Wrong table links per client address before its wrong links are turned away (429), for
# TOKEN_FAILURE_WINDOW seconds from its first; a real link always opens (see above).
TOKEN_FAILURE_LIMIT = 20
TOKEN_FAILURE_WINDOW = 15 * 60


class TokenRateLimited(Exception):
    """A wrong table link from an address past the limit; ``until`` (a Unix time) is when
    its window ends and its wrong links are answered 404 again."""

    def __init__(self, until: float) -> None:
        super().__init__(until)
        self.until = until


class TableLinkClosed(Exception):
    """A real table link that no longer works (match complete or link revoked)."""

    def __init__(self, match: Match, reason: str) -> None:
        super().__init__(reason)
        self.match = match
        self.reason = reason


@dataclass(frozen=True)
class MatchAccess:
    match: Match
    tournament: Tournament
    user: Any
    token: str | None
    can_enter: bool
    can_direct: bool
    request: HttpRequest
    # The match row is locked for the caller's transaction (a write view, see match_view),
    # and with tournament_locked the tournament row before it (tournaments.movement).
    locked: bool = False
    tournament_locked: bool = False

    @property
    def via(self) -> str:
        if self.token is None:
            return ""
        return _("table link, table %(table)s") % {"table": self.match.table or "?"}

    @property
    def actor(self) -> Any:
        return None if self.token else self.user

    def url(self, view_name: str, **kwargs: Any) -> str:
        """The URL of ``view_name`` ("app:name") for this visitor: by a table link, its
        twin "app:table-name" under ``/table/<token>/`` (each match view is served under
        both, see scoring.urls)."""
        if self.token is not None:
            namespace, name = view_name.split(":")
            return reverse(f"{namespace}:table-{name}", kwargs={"token": self.token, **kwargs})
        return reverse(
            view_name, kwargs={"slug": self.tournament.slug, "match_id": self.match.pk, **kwargs}
        )


# Bracket plumbing and timestamps that entering a hand neither reads nor shows.
ROUTING_ONLY = {
    "queued_at",
    "is_bye",
    "conditional",
    "next_match",
    "next_slot",
    "loser_next_match",
    "loser_next_slot",
    "completed_at",
}
# What hand entry (and the page it may answer with) reads of the match and its tournament.
# Hand entry is the site's hottest request; a field missing here costs a query when
# touched (tests/scoring/test_views.py counts them). The players' names come as two
# annotations rather than four joined rows.
ENTRY_FIELDS = (
    *(field.name for field in Match._meta.concrete_fields if field.name not in ROUTING_ONLY),
    *(
        f"tournament__{name}"
        for name in ("name", "slug", "language", "owner", "rules", "rules_locked_at", "status")
    ),
)


def _matches(lock: bool) -> QuerySet[Match]:
    """A match with what its sheet shows. ``lock`` (hand entry) also locks its row until
    the caller's transaction ends (only the match table's, so a missing side is no
    problem) and loads only ENTRY_FIELDS and the players' names."""
    if lock:
        return (
            Match.objects.select_related("tournament")
            .only(*ENTRY_FIELDS)
            .annotate(**Match.side_names())
            .select_for_update(of=("self",))
        )
    return Match.objects.select_related("tournament", "side_a__player", "side_b__player")


def _find(field: str, value: Any, *, lock: bool) -> Match | None:
    # get(), not first(): ordering by Match.Meta.ordering cost the look-up about 1 ms.
    try:
        return _matches(lock).get(**{field: value})
    except Match.DoesNotExist:
        return None


def for_user(request: HttpRequest, slug: str, match_id: int, *, lock: bool = False) -> MatchAccess:
    match = _find("pk", match_id, lock=lock)
    if match is None or match.tournament.slug != slug:  # a join in the filter costs more
        raise Http404
    tournament = match.tournament
    use_tournament_language(request, tournament.language)
    user = request.user
    directing = can_direct(user, tournament)
    if tournament.status == Tournament.Status.DRAFT and not directing:
        raise Http404  # a draft is not public yet (tournaments.permissions.shown_to)
    scoring = directing or can_score(user, tournament)
    return MatchAccess(match, tournament, user, None, scoring, directing, request, lock)


def for_token(request: HttpRequest, token: str, *, lock: bool = False) -> MatchAccess:
    # The link is looked up first: a real one opens whatever its address guessed before
    # (behind a proxy or a shared Wi-Fi, someone else's guesses count against it too).
    # Only wrong links are counted and, past the limit, turned away.
    match = _find("token", token, lock=lock) if 20 <= len(token) <= 64 else None
    if match is None:
        address = client_address(request)
        # Reading first spares the counter's lock once an address is over the limit.
        if (
            limiter.failures(address) >= TOKEN_FAILURE_LIMIT
            or limiter.add_failure(address, window=TOKEN_FAILURE_WINDOW) > TOKEN_FAILURE_LIMIT
        ):
            until = limiter.window_end(address)
            raise TokenRateLimited(time.time() if until is None else until)
        raise Http404(_("This table link is not valid."))
    use_tournament_language(request, match.tournament.language)
    if match.token_revoked:
        raise TableLinkClosed(match, _("The director has switched off this table link."))
    if match.status == Match.Status.COMPLETE:
        raise TableLinkClosed(match, _("This match is complete: the table link has closed."))
    return MatchAccess(match, match.tournament, request.user, token, True, False, request, lock)


def resolve(request: HttpRequest, *, lock: bool = False, **kwargs: Any) -> MatchAccess:
    """The match of a ``/table/<token>/…`` or ``/t/<slug>/matches/<id>/…`` URL; ``lock``
    needs the caller's transaction."""
    if "token" in kwargs:
        return for_token(request, kwargs["token"], lock=lock)
    return for_user(request, kwargs["slug"], kwargs["match_id"], lock=lock)


def require_entry(access: MatchAccess) -> None:
    if not access.can_enter:
        raise PermissionDenied(_("You may not enter hands in this match."))
