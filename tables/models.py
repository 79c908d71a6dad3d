"""The phones at the tables and their calls to the director.

These models were scoring's until issue 42 gave the table plumbing an app of its own; they
keep their original tables (``scoring_phoneevent``, ``scoring_phonetally``,
``scoring_directorcall``, named in each ``Meta.db_table``): moved by state-only
migrations, tables 0001 and scoring 0008, so no row moved.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PhoneEvent(models.Model):
    """A table-link submission a phone sent that did not simply store a hand: refused
    (the number was taken, or the score had changed since the page showed it) or a resend
    of one already answered. The director's device board (:mod:`tables.devices`) reads
    them; hands stored are the ``Hand`` rows themselves (their ``device``). Only a
    match's most recent :data:`tables.devices.EVENTS_KEPT` of each kind are kept (issue
    41: a phone refused over and over must not grow what Round control reads); how many
    there were of each kind is its :class:`PhoneTally`."""

    class Kind(models.TextChoices):
        RESENT = "resent", _("resent")
        TAKEN = "taken", _("refused: hand already entered")
        STALE = "stale", _("refused: score changed")

    match = models.ForeignKey(
        "tournaments.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+"
    )
    device = models.CharField(_("device"), max_length=8, blank=True)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        db_table = "scoring_phoneevent"
        verbose_name = _("phone event")
        verbose_name_plural = _("phone events")
        indexes = [models.Index(fields=["match", "at"], name="phone_event_match_at")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.device} {self.kind}"


class PhoneTally(models.Model):
    """How many :class:`PhoneEvent` of one kind a match has had, all of them (its rows
    keep only the latest): one row per match and kind, counted up with each event."""

    match = models.ForeignKey(
        "tournaments.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=PhoneEvent.Kind.choices)
    count = models.PositiveIntegerField(_("count"), default=0)

    class Meta:
        db_table = "scoring_phonetally"
        verbose_name = _("phone tally")
        verbose_name_plural = _("phone tallies")
        constraints = [
            models.UniqueConstraint(fields=["match", "kind"], name="phone_tally_one_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.kind} {self.count}"


class DirectorCall(models.Model):
    """The players at a table call the director from their table link (a dispute, a
    missing player, a phone problem): open until the director answers it ("on my way"),
    then closed. One call at a time per match (:mod:`tables.calls`)."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("A dispute")
        MISSING = "missing", _("A missing player")
        PHONE = "phone", _("A phone problem")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Sent")
        ANSWERED = "answered", _("The director is coming")
        CLOSED = "closed", _("Closed")

    match = models.ForeignKey(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="director_calls",
    )
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=140, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    device = models.CharField(_("device"), max_length=8, blank=True)
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_directorcall"
        verbose_name = _("director call")
        verbose_name_plural = _("director calls")
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status__in=["open", "answered"]),
                name="director_call_one_open",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["open", "answered", "closed"]),
                name="director_call_status_valid",
            ),
        ]
        indexes = [models.Index(fields=["match", "made_at"], name="director_call_match_made")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.reason} {self.status}"
