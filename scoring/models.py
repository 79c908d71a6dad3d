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
    # Through a table link: the phone's short label (scoring.devices) and the submission
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


class PhoneEvent(models.Model):
    """A table-link submission a phone sent that did not simply store a hand: refused
    (the number was taken, or the score had changed since the page showed it) or a resend
    of one already answered. The director's device board (:mod:`scoring.devices`) reads
    them; hands stored are the ``Hand`` rows themselves (their ``device``). Only a
    match's most recent :data:`scoring.devices.EVENTS_KEPT` of each kind are kept (issue
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
    then closed. One call at a time per match (:mod:`scoring.calls`)."""

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
