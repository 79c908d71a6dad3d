"""Recording the audit log. Every service that writes calls :func:`record` once per change.

This module only writes rows; reading and showing the log is the director's audit page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import models

from .models import AuditEntry, Tournament


def record(
    *,
    tournament: Tournament | None,
    action: str,
    obj: models.Model | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    user: Any = None,
    via: str = "",
) -> AuditEntry:
    """Store one audit row. ``user`` may be anonymous or None (a table link: say so in
    ``via``, e.g. "table link, table 3")."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    return AuditEntry.objects.create(
        tournament=tournament,
        action=action,
        object_type=obj._meta.model_name if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
        user=user,
        via=via[:120],
    )


def record_each(
    *,
    tournament: Tournament | None,
    action: str,
    changes: Iterable[tuple[models.Model, Mapping[str, Any]]],
    user: Any = None,
) -> list[AuditEntry]:
    """One audit row per (object, after) pair, as :func:`record` would store each, written
    in one query: a write of many rows at once (several players entered) is audited row
    by row at no cost per row."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    return AuditEntry.objects.bulk_create(
        AuditEntry(
            tournament=tournament,
            action=action,
            object_type=obj._meta.model_name,
            object_id=str(obj.pk),
            after=dict(after),
            user=user,
        )
        for obj, after in changes
    )


def snapshot(obj: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``obj`` as JSON-ready values (foreign keys as their ids)."""
    data: dict[str, Any] = {}
    for name in fields:
        field = obj._meta.get_field(name)
        if field.is_relation and field.many_to_one:
            data[name] = getattr(obj, field.attname)
        else:
            data[name] = getattr(obj, name)
    return data


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict, dict]:
    """Only the keys whose value differs, as a (before, after) pair."""
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}
