"""The club's memory across tournaments: the stored club rating and seasons.

The rating rows are derived data, never edited: :mod:`club.ratings` rebuilds them from the
completed matches whenever the results they were built from change (a correction to an
old match moves every rating after it).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingState(models.Model):
    """One row: what the stored ratings were computed from (a fingerprint of the results)."""

    fingerprint = models.CharField(_("fingerprint"), max_length=200, blank=True)
    matches = models.PositiveIntegerField(_("matches rated"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating state")
        verbose_name_plural = _("rating states")

    def __str__(self) -> str:
        return f"{self.matches} matches"


class RatingChange(models.Model):
    """One player's club rating before and after one rated match (OpenSkill's mean and
    uncertainty, on the club's scale: see :mod:`club.rating`)."""

    match = models.ForeignKey(
        "tournaments.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    opponent = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("opponent"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    sequence = models.PositiveIntegerField(_("order played"))
    won = models.BooleanField(_("won"))
    mu_before = models.FloatField(_("rating before"))
    sigma_before = models.FloatField(_("uncertainty before"))
    mu_after = models.FloatField(_("rating after"))
    sigma_after = models.FloatField(_("uncertainty after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["sequence", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["player", "sequence"], name="rating_player_seq_idx"),
            models.Index(fields=["tournament", "sequence"], name="rating_tournament_seq_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.mu_before:.0f} → {self.mu_after:.0f}"

    @property
    def change(self) -> float:
        return self.mu_after - self.mu_before


class Season(models.Model):
    """A league: tournaments grouped, points per placing or per match won, best N of M."""

    class Scoring(models.TextChoices):
        PLACING = "placing", _("Points per placing")
        MATCH_WINS = "match_wins", _("Points per match won")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("director"),
        on_delete=models.PROTECT,
        related_name="seasons",
    )
    scoring = models.CharField(
        _("points for"), max_length=12, choices=Scoring.choices, default=Scoring.PLACING
    )
    # Points for 1st, 2nd, 3rd …: a place past the end of the list earns nothing. A shared
    # place ("3–4") earns the points of its best place.
    placing_points = models.JSONField(_("points per placing"), default=list, blank=True)
    points_per_win = models.PositiveIntegerField(
        _("points per match won"), default=1, validators=[MaxValueValidator(1000)]
    )
    best_of = models.PositiveIntegerField(
        _("events counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text=_("Best N events count for each player; empty counts them all."),
    )
    tournaments = models.ManyToManyField(
        "tournaments.Tournament",
        verbose_name=_("tournaments"),
        blank=True,
        related_name="seasons",
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    mirrored = models.BooleanField(_("kept for a venue"), default=False)
    """A venue's season, kept here as its published tournaments arrive (:mod:`club.copies`):
    read-only here, like a mirrored tournament."""

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scoring__in=["placing", "match_wins"]),
                name="season_scoring_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(best_of__isnull=True) | models.Q(best_of__gte=1),
                name="season_best_of_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name
