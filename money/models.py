"""One tournament's money: the entry fee, prize pool and payout table, who paid what,
and the side pots. The tables keep the names they had in the club app (``club_...``):
the models moved here with state-only migrations, the rows never moved."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


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
    venue_pool = models.PositiveIntegerField(
        _("prize pool at the venue (cents)"), null=True, blank=True
    )
    """A copy's pool (a mirror, an imported archive): the venue's sum, in cents. Who paid
    stays at the venue, so a copy has no payments to count; None: counted from them."""

    class Meta:
        db_table = "club_tournamentmoney"
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
        db_table = "club_payment"
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
    venue_results = models.JSONField(_("results at the venue"), null=True, blank=True)
    """A copy's results (a mirror, an imported archive): ``{"entrants": n, "winners":
    [[entry id, place label, cents], ...]}`` as the venue counted them. Who bought in
    stays at the venue, so a copy has no entrants of its own; None: counted from them."""

    class Meta:
        db_table = "club_sidepot"
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
        db_table = "club_sidepotentry"
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
