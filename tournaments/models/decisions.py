"""Decisions: what settled or changed a match other than its hands (issue 28).

Hands are the source of truth for a match played out. A match can also be decided, or
its players changed, by something that is not a hand: time called on the round (the
side leading wins), the director's ruling on a match level on time, a walkover (a
no-show, a withdrawal), a lucky loser put in for a player who did not come, a bye. Each
is stored as a :class:`Decision`: what was decided (the kind and the side), by whom
(the user, or the table link in ``via``), when, and on what basis: the hands the match
had (``hands``) and, in ``basis``, what the decision read, e.g. the score at the call.

A match row keeps the summary (``decided_on_time``, ``forfeit``, ``is_bye``, the
winner); :mod:`archive.verify` replays each match from its hands *plus* its decisions and
reports any that the hands contradict, and the archive carries them
(:mod:`archive.decision_rows`). A result decision (every kind but a lucky loser) is
taken back when the match's result is (reopened, or undone by the bracket).
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .matches import SIDE_CHOICES


class Decision(models.Model):
    class Kind(models.TextChoices):
        TIME = "time", _("decided on time")
        RULING = "ruling", _("director's ruling on a level match")
        WALKOVER = "walkover", _("walkover")
        LUCKY_LOSER = "lucky_loser", _("lucky loser")
        BYE = "bye", _("bye")

    RESULTS = (Kind.TIME, Kind.RULING, Kind.WALKOVER, Kind.BYE)
    """The kinds that decide the match's result (a lucky loser changes its players)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="decisions",
    )
    match = models.ForeignKey(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="decisions",
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    # The winner (time, ruling, walkover, bye); for a lucky loser, the side they came into.
    side = models.CharField(_("side"), max_length=1, choices=SIDE_CHOICES)
    # A lucky loser: who came in, and who they replaced; a bye: who had it; a walkover
    # for a withdrawal: who withdrew.
    entry = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    replaced = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("replaced"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    hands = models.PositiveIntegerField(_("hands played"), default=0)
    basis = models.JSONField(_("basis"), default=dict, blank=True, encoder=DjangoJSONEncoder)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    via = models.CharField(_("via"), max_length=120, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")
        ordering = ["tournament", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=["time", "ruling", "walkover", "lucky_loser", "bye"],
                    side__in=["A", "B"],
                ),
                name="decision_kind_side_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.side}"
