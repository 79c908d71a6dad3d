"""A form's submission id and what its first POST answered (:mod:`web.submissions`).

The model was the tournaments app's and keeps its table, ``tournaments_submission``
(``web.0001_initial`` and ``tournaments.0014_submission_moves_to_web``, state only)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Submission(models.Model):
    """One submitted form, by the id its page gave it: who sent it where, and the answer
    (status, headers, body, and the messages a redirect carried) that a second POST of
    the same form gets again instead of doing the write twice."""

    key = models.CharField(_("submission id"), max_length=32, primary_key=True)
    # None: sent through a table link (no account); its path names the link.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    path = models.CharField(_("path"), max_length=500)
    status = models.PositiveSmallIntegerField(_("status"), default=0)
    headers = models.JSONField(_("headers"), default=dict)
    body = models.BinaryField(_("body"), default=b"")
    messages = models.JSONField(_("messages"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        db_table = "tournaments_submission"
        verbose_name = _("form submission")
        verbose_name_plural = _("form submissions")

    def __str__(self) -> str:
        return f"{self.key} {self.path} → {self.status}"
