"""The audit log: one row per write, saying who (or which table link) changed what."""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Actions are stored as stable English codes (filterable, exportable) and shown through
# these labels; an action without a label is shown as stored.
ACTION_LABELS = {
    "tournament created": _("tournament created"),
    "tournament edited": _("tournament edited"),
    "tournament imported": _("tournament imported"),
    "status changed": _("status changed"),
    "rules locked": _("rules locked"),
    "role added": _("role added"),
    "role removed": _("role removed"),
    "player added": _("player added"),
    "player edited": _("player edited"),
    "players imported": _("players imported"),
    "registrar added": _("registrar role given"),
    "registrar removed": _("registrar role taken away"),
    "director added": _("director account made"),
    "entry added": _("player entered"),
    "entry removed": _("entry removed"),
    "entry withdrawn": _("player withdrawn"),
    "entry reinstated": _("player reinstated"),
    "entry checked in": _("check-in changed"),
    "entry checked in by the player": _("checked in by the player"),
    "self check-in on": _("self check-in turned on"),
    "self check-in off": _("self check-in turned off"),
    "entry paid": _("paid changed"),
    "seed changed": _("seed changed"),
    "seeded by rating": _("seeded by rating"),
    "bracket generated": _("bracket generated"),
    "bracket cleared": _("bracket cleared"),
    "tables assigned": _("tables assigned"),
    "sent to table": _("match sent to a table"),
    "match status": _("match status changed"),
    "match confirmed": _("match confirmed"),
    "match reopened": _("match reopened"),
    "walkover": _("walkover"),
    "walkover (withdrawal)": _("walkover (withdrawal)"),
    "decided on time": _("decided on time"),
    "ruling": _("director's ruling on a level match"),
    "lucky loser": _("lucky loser"),
    "hand entered": _("hand entered"),
    "hand corrected": _("hand corrected"),
    "hand deleted": _("hand deleted"),
    "table link revoke": _("table link switched off"),
    "table link renew": _("new table link issued"),
    "director called": _("director called from the table"),
    "director call answered": _("director on the way"),
    "director call closed": _("director's call closed"),
}


class AuditEntry(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
        help_text=_("Empty for changes to the player registry."),
    )
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    via = models.CharField(_("via"), max_length=120, blank=True)
    action = models.CharField(_("action"), max_length=80)
    object_type = models.CharField(_("object type"), max_length=40, blank=True)
    object_id = models.CharField(_("object id"), max_length=40, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("after"), null=True, blank=True, encoder=DjangoJSONEncoder)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["tournament", "-at"], name="audit_tournament_at_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action}"

    @property
    def action_label(self) -> str:
        return str(ACTION_LABELS.get(self.action, self.action))

    @property
    def before_json(self) -> str:
        """What was stored before, as JSON (the audit page's stored detail); "" if nothing."""
        return _json(self.before)

    @property
    def after_json(self) -> str:
        return _json(self.after)

    @property
    def object_label(self) -> str:
        """The object's kind in the active language (its model's verbose name)."""
        for config in apps.get_app_configs():
            model = config.models.get(self.object_type)
            if model is not None:
                return str(model._meta.verbose_name)
        return self.object_type

    @property
    def who(self) -> str:
        """The user, the table link, or both, for display."""
        parts = [str(self.user)] if self.user_id else []
        if self.via:
            parts.append(self.via)
        return " · ".join(parts)


def _json(value: Any) -> str:
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)
