"""Publishing tokens, at the club's server: a director's key for publishing a venue's
night here. Only a token's SHA-256 is stored; the token is shown once, when it is made."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import audit

from .models import PublishToken

PREFIX_LENGTH = 6


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def make_token(*, user: Any, label: str = "") -> tuple[PublishToken, str]:
    """A new token for ``user``: its row and the token itself (to show once)."""
    secret = secrets.token_urlsafe(32)
    with transaction.atomic():
        token = PublishToken.objects.create(
            user=user, label=label[:60], digest=digest(secret), prefix=secret[:PREFIX_LENGTH]
        )
        audit.record(
            tournament=None,
            action="publishing token made",
            obj=token,
            after={"prefix": token.prefix, "label": token.label},
            user=user,
        )
    return token, secret


def token_for(secret: str) -> PublishToken | None:
    """The live token ``secret`` is (None: unknown or revoked), with its director."""
    if not secret or len(secret) > 200:
        return None
    found = PublishToken.objects.select_related("user").filter(digest=digest(secret)).first()
    if found is None or found.revoked_at is not None or not found.user.is_active:
        return None
    return found


def revoke(*, token: PublishToken, user: Any) -> PublishToken:
    """Revoke ``token`` (revoking a revoked one changes nothing)."""
    with transaction.atomic():
        locked = PublishToken.objects.select_for_update().get(pk=token.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
            audit.record(
                tournament=None,
                action="publishing token revoked",
                obj=locked,
                after={"prefix": locked.prefix},
                user=user,
            )
    return locked
