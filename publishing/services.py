"""The venue's publishing settings, written and audited: where it publishes
(:func:`set_destination`: the one :class:`.models.Destination` row, replaced), stopping it
(:func:`stop`), and publishing a tournament under another name on the club's server
(:func:`publish_as`). Tokens are :mod:`.tokens`'."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments import audit
from tournaments.models import Tournament

from .models import Destination, Publication


def set_destination(*, url: str, token: str, venue: str, user: Any) -> Destination:
    """Publish to ``url`` with ``token`` from now on (replacing where it published). What
    the old destination answered is forgotten: the next pass tries the new one at once."""
    with transaction.atomic():
        before = Destination.objects.order_by("-pk").first()
        Destination.objects.all().delete()
        saved = Destination.objects.create(url=url, token=token, venue=venue)
        Publication.objects.exclude(error="").update(error="", error_code="", failing_since=None)
        audit.record(
            tournament=None,
            action="publishing destination set",
            obj=saved,
            before={"url": before.url, "venue": before.venue} if before else None,
            after={"url": saved.url, "venue": saved.venue, "token": saved.token[:6]},
            user=user,
        )
    return saved


def stop(*, user: Any) -> None:
    """Publish nowhere (nothing to do when it publishes nowhere already)."""
    with transaction.atomic():
        before = Destination.objects.order_by("-pk").first()
        if before is not None:
            Destination.objects.all().delete()
            audit.record(
                tournament=None,
                action="publishing stopped",
                obj=None,
                before={"url": before.url, "venue": before.venue},
                user=user,
            )


def publish_as(*, tournament: Tournament, slug: str, user: Any) -> None:
    """Publish ``tournament`` as ``slug`` on the club's server, from the start again (a new
    mirror there); the old name there is left as it is."""
    with transaction.atomic():
        publication, _created = Publication.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        before = publication.slug or tournament.slug
        publication.slug = slug
        publication.error = publication.error_code = ""
        publication.acknowledged_through = 0  # a new mirror there: everything again
        publication.save(update_fields=["slug", "error", "error_code", "acknowledged_through"])
        audit.record(
            tournament=tournament,
            action="published under another name",
            obj=publication,
            before={"slug": before},
            after={"slug": slug},
            user=user,
        )
