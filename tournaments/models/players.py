"""The club's player registry: people who persist from one tournament to the next."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

# A club rating (Elo-like): anything outside this is a typo, not a strong player.
RATING_MIN = 0
RATING_MAX = 4000
# What a director edits of a player, as the registry's CSV import reads them (its columns)…
PLAYER_FIELDS = ("name", "email", "phone", "club_id", "rating", "notes")
# …and with whether the club's public player page shows the player (a player may ask to be
# left off it): what the registry's form edits and its audit rows record.
REGISTRY_FIELDS = (*PLAYER_FIELDS, "hidden")
# What every director sees of a player (registration, seeding), and what only registrars
# and the player's own director see.
SHARED_FIELDS = ("name", "club_id", "rating")
PRIVATE_FIELDS = ("email", "phone", "notes")


class Player(models.Model):
    """A club member or guest. Email, phone and notes are private: never shown on public
    pages, and among directors only to registrars and to whoever added the player (see
    :mod:`players.registry`).

    Two rows are the same person when they share a club id, or the same name and email
    (compared case-insensitively; a blank email counts as a value, so a second
    "Ann Lee" needs an email to tell her apart). Both rules are database constraints.
    """

    name = models.CharField(_("name"), max_length=120)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    club_id = models.CharField(_("club id"), max_length=40, blank=True)
    rating = models.IntegerField(
        _("rating"),
        null=True,
        blank=True,
        validators=[MinValueValidator(RATING_MIN), MaxValueValidator(RATING_MAX)],
    )
    notes = models.TextField(_("notes"), blank=True)
    hidden = models.BooleanField(
        _("hidden from player pages"),
        default=False,
        help_text=_("The club's public player page of this player answers “not found”."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("added by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_(
            "Empty for players registered before the registry had owners, or restored "
            "from an archive."
        ),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]
        permissions = [
            ("manage_registry", _("Can edit every player and see contact details (registrar)"))
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["club_id"],
                condition=~models.Q(club_id=""),
                name="player_club_id_unique",
                violation_error_message=_("Another player already has this club id."),
            ),
            models.UniqueConstraint(
                Lower("name"),
                Lower("email"),
                name="player_name_email_unique",
                violation_error_message=_(
                    "A player with this name and email is already registered."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name
