"""A match's table link (SPEC 8): the absolute URL printed on its scoresheet as a QR code
(:func:`table_url`), and the director switching it off or issuing a new one
(:func:`set_table_link`). Who a table link lets in is :mod:`tables.access`."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse

from tournaments import audit
from tournaments.models import Match
from tournaments.models.matches import new_token
from tournaments.movement import lock_tournament


def table_url(match: Match, request: HttpRequest | None = None) -> str:
    """The absolute table link printed as a QR code (SITE_URL, else the request's host)."""
    path = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + path
    return request.build_absolute_uri(path) if request is not None else path


TABLE_LINK_ACTIONS = ("revoke", "renew")
LINK_FIELDS = ("token", "token_revoked")


def set_table_link(*, match: Match, action: str, user: Any) -> Match:
    """``revoke`` switches the table link off; ``renew`` issues a new one (the old one dies).

    Any other ``action`` is a bug in the caller, not a user's mistake: the view checks the
    POST against ``TABLE_LINK_ACTIONS`` first."""
    if action not in TABLE_LINK_ACTIONS:
        raise ValueError(f"unknown table link action {action!r}")
    with transaction.atomic():
        # The lock order every write follows (tournaments.movement): tournament, then match.
        lock_tournament(match.tournament_id)
        row = Match.objects.select_for_update().filter(pk=match.pk).values(*LINK_FIELDS).get()
        for name, value in row.items():
            setattr(match, name, value)
        before = {"token_revoked": match.token_revoked}
        if action == "revoke":
            match.token_revoked = True
        else:
            match.token, match.token_revoked = new_token(), False
        match.save(update_fields=["token", "token_revoked"])
        audit.record(
            tournament=match.tournament,
            action=f"table link {action}",
            obj=match,
            before=before,
            after={"token_revoked": match.token_revoked},
            user=user,
        )
    return match
