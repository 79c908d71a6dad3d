"""What the public pages of a tournament show, counted: one row per tournament.

Every write that changes something a public page, ``standings.json``, the projector or a
public PDF shows adds one to :attr:`PublicVersion.number` in its own transaction
(:func:`tournaments.public_version.changed`). The public views key their cache and their
``ETag`` on it, so a poll that finds the number unchanged costs one query and a 304.

The row lives beside the tournament rather than in it: hand entry, the hottest write,
never locks the tournament row (see the lock order in :mod:`tournaments.movement`), and
this row is locked last, just before commit, by every write.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PublicVersion(models.Model):
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="public_version",
    )
    number = models.PositiveBigIntegerField(_("version"), default=1)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("public version")
        verbose_name_plural = _("public versions")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.number}"
