"""Teams of a partnership tournament: the players of a team entry, one per seat."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TeamMember(models.Model):
    """A player in seat ``seat`` (1 to the team size) of a team entry.

    ``tournament`` repeats the entry's so that the database itself keeps a player in one
    team per event (the seat-1 member is also the entry's ``player``).
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="team_members",
    )
    entry = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("team"),
        on_delete=models.CASCADE,
        related_name="members",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="team_memberships",
    )
    seat = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["entry", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="team_member_once",
                violation_error_message=_("This player is already in a team of this event."),
            ),
            models.UniqueConstraint(fields=["entry", "seat"], name="team_member_seat_unique"),
            models.CheckConstraint(condition=models.Q(seat__gte=1), name="team_member_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} #{self.seat}: {self.player_id}"
