"""The club's memory across tournaments: the stored club rating and seasons.

The rating rows are derived data, never edited: :mod:`club.ratings` rebuilds them from the
completed matches whenever the results they were built from change (a correction to an
old match moves every rating after it).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
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


class PayoutTable(models.Model):
    """A pool's payout table: percent per place, and the unit prizes are rounded down to
    (the main pool's and each side pot's)."""

    payout = models.JSONField(
        _("payout table"),
        default=list,
        blank=True,
        help_text=_("Percent of the prize pool per place, adding up to 100."),
    )
    rounding = models.DecimalField(
        _("round prizes to"),
        max_digits=8,
        decimal_places=2,
        default=1,
        validators=[MinValueValidator(Decimal("0.01"))],
    )

    class Meta:
        abstract = True


class TournamentMoney(PayoutTable):
    """A tournament's entry fee, prize pool and payout table (no payment provider: the
    director records who paid what at the door)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="money",
    )
    entry_fee = models.DecimalField(
        _("entry fee"),
        max_digits=8,
        decimal_places=2,
        default=0,
        validators=[MinValueValidator(0)],
    )
    currency = models.CharField(_("currency"), max_length=8, blank=True, default="€")

    class Meta:
        verbose_name = _("tournament money")
        verbose_name_plural = _("tournament money")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.entry_fee} {self.currency}"


class Payment(models.Model):
    """What one entry paid, and how."""

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CARD = "card", _("Card")
        FREE = "free", _("Free")

    entry = models.OneToOneField(
        "tournaments.Entry",
        verbose_name=_("entry"),
        on_delete=models.CASCADE,
        related_name="payment",
    )
    method = models.CharField(_("paid by"), max_length=8, choices=Method.choices)
    amount = models.DecimalField(
        _("amount"), max_digits=8, decimal_places=2, validators=[MinValueValidator(0)]
    )

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(method__in=["cash", "card", "free"]),
                name="payment_method_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0), name="payment_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.amount} ({self.method})"


class SidePot(PayoutTable):
    """An optional extra pool that only the entries who buy in play for ("Side pot 10 €,
    60/40"). Its prizes go by the entrants' order in the tournament's final standings."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="side_pots",
    )
    name = models.CharField(_("name"), max_length=80)
    buy_in = models.DecimalField(
        _("buy-in"), max_digits=8, decimal_places=2, validators=[MinValueValidator(0)]
    )

    class Meta:
        verbose_name = _("side pot")
        verbose_name_plural = _("side pots")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="side_pot_name_once"),
            models.CheckConstraint(
                condition=models.Q(buy_in__gte=0), name="side_pot_buy_in_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(rounding__gt=0), name="side_pot_rounding_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.name} ({self.buy_in})"


class SidePotEntry(models.Model):
    """One entry bought into one side pot."""

    pot = models.ForeignKey(
        SidePot, verbose_name=_("side pot"), on_delete=models.CASCADE, related_name="entrants"
    )
    entry = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("entry"),
        on_delete=models.CASCADE,
        related_name="side_pot_entries",
    )

    class Meta:
        verbose_name = _("side pot entry")
        verbose_name_plural = _("side pot entries")
        constraints = [
            models.UniqueConstraint(fields=["pot", "entry"], name="side_pot_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.pot_id}: {self.entry_id}"

    def clean(self) -> None:
        if self.entry.tournament_id != self.pot.tournament_id:
            raise ValidationError(
                _("%(name)s is not in this tournament.") % {"name": self.entry.player.name},
                code="tournament",
            )
