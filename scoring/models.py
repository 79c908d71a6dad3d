"""Hand rows: the source of truth. Every score, total and winner is derived from them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine import MAX_DEADWOOD, HandKind


class Hand(models.Model):
    class Kind(models.TextChoices):
        KNOCK = HandKind.KNOCK.value, _("Knock")
        GIN = HandKind.GIN.value, _("Gin")
        BIG_GIN = HandKind.BIG_GIN.value, _("Big gin")
        DRAW = HandKind.DRAW.value, _("Dead hand (draw)")

    match = models.ForeignKey(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="hands",
    )
    number = models.PositiveIntegerField(_("hand number"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    by = models.CharField(_("went out"), max_length=1, blank=True)
    deadwood = models.PositiveSmallIntegerField(_("knocker deadwood"), null=True, blank=True)
    defender_deadwood = models.PositiveSmallIntegerField(
        _("defender deadwood"), null=True, blank=True
    )
    knock_card = models.CharField(_("knock card"), max_length=3, blank=True)
    # {"knocker": [...], "defender": [...]} when the hand was entered from its cards (the
    # counts beside it are the ones the engine took from them); null when they were typed.
    cards = models.JSONField(_("cards"), null=True, blank=True, default=None)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_via = models.CharField(_("entered via"), max_length=120, blank=True)
    # Through a table link: the phone's short label (tables.devices) and the submission
    # id of the form that stored the hand (web.submissions), so a second phone's
    # different hand for this number is told what was stored and from where.
    device = models.CharField(_("device"), max_length=8, blank=True)
    submission = models.CharField(_("submission id"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
            # A submission id names one hand (a resend finds it; another link's replay of
            # it is refused).
            models.UniqueConstraint(
                fields=["submission"],
                condition=~models.Q(submission=""),
                name="hand_submission_unique",
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=models.Q(kind__in=[k.value for k in HandKind]), name="hand_kind_valid"
            ),
            models.CheckConstraint(condition=models.Q(by__in=["", "A", "B"]), name="hand_by_valid"),
            models.CheckConstraint(
                condition=models.Q(deadwood__isnull=True) | models.Q(deadwood__lte=MAX_DEADWOOD),
                name="hand_deadwood_range",
            ),
            models.CheckConstraint(
                condition=models.Q(defender_deadwood__isnull=True)
                | models.Q(defender_deadwood__lte=MAX_DEADWOOD),
                name="hand_defender_deadwood_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.number}: {self.kind} {self.by}".strip()
