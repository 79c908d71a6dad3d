"""Matches: one pairing in a bracket, its table, its state and the route of its result."""

from __future__ import annotations

import re
import secrets

from django.db import models
from django.db.models.functions import Coalesce, NullIf
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import RuleSet

SIDES = ("A", "B")
SIDE_CHOICES = [("A", "A"), ("B", "B")]


TOKEN_BYTES = 32
# What new_token makes: 32 bytes in URL-safe base64, without padding.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def new_token() -> str:
    """256 random bits, URL-safe: the secret in a table link (QR code)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(value: object) -> bool:
    """Whether ``value`` has the shape of a table-link token (as :func:`new_token` makes)."""
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        READY = "ready", _("Ready")
        IN_PLAY = "in_play", _("In play")
        AWAITING = "awaiting_confirmation", _("Awaiting confirmation")
        COMPLETE = "complete", _("Complete")

    class Section(models.TextChoices):
        WINNERS = "winners", _("Winners' bracket")
        LOSERS = "losers", _("Losers' bracket")
        FINAL = "final", _("Grand final")
        RESET = "reset", _("Bracket reset")
        THIRD_PLACE = "third_place", _("Third-place match")
        CONSOLATION = "consolation", _("Consolation")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="matches",
    )
    # None: the match belongs to a tournament of one bracket (no stages).
    stage = models.ForeignKey(
        "tournaments.Stage",
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
    )
    key = models.CharField(_("key"), max_length=16)
    section = models.CharField(_("section"), max_length=12, choices=Section.choices)
    round = models.PositiveIntegerField(_("round"))
    position = models.PositiveIntegerField(_("position"))
    side_a = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("side A"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    side_b = models.ForeignKey(
        "tournaments.Entry",
        verbose_name=_("side B"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    status = models.CharField(
        _("status"), max_length=24, choices=Status.choices, default=Status.WAITING
    )
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    winner_side = models.CharField(_("winner"), max_length=1, choices=SIDE_CHOICES, blank=True)
    score_a = models.PositiveIntegerField(_("games won by A"), default=0)
    score_b = models.PositiveIntegerField(_("games won by B"), default=0)
    total_a = models.IntegerField(_("points A"), default=0)
    total_b = models.IntegerField(_("points B"), default=0)
    is_bye = models.BooleanField(_("bye"), default=False)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    decided_on_time = models.BooleanField(_("decided on time"), default=False)
    conditional = models.BooleanField(
        _("conditional"),
        default=False,
        help_text=_("Played only if needed (the bracket reset of a double elimination)."),
    )
    token = models.CharField(_("table link token"), max_length=64, unique=True, default=new_token)
    token_revoked = models.BooleanField(_("table link revoked"), default=False)
    next_match = models.ForeignKey(
        "self",
        verbose_name=_("winner goes to"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fed_by_winner",
    )
    next_slot = models.CharField(_("winner's slot"), max_length=1, choices=SIDE_CHOICES, blank=True)
    loser_next_match = models.ForeignKey(
        "self",
        verbose_name=_("loser goes to"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fed_by_loser",
    )
    loser_next_slot = models.CharField(
        _("loser's slot"), max_length=1, choices=SIDE_CHOICES, blank=True
    )
    first_dealer = models.CharField(
        _("first dealer"), max_length=1, choices=SIDE_CHOICES, blank=True
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    # One more with every write of the match's hands. A confirmation or a walkover names
    # the version its page showed, and is refused if the hands changed since.
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["tournament", "round", "section", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="match_key_unique"),
            # A table holds one unfinished match at a time. A finished match keeps its
            # table number as a record of where it was played.
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=models.Q(table__isnull=False) & ~models.Q(status="complete"),
                name="match_table_in_use_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(winner_side__in=["", "A", "B"]),
                name="match_winner_side_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(next_slot__in=["", "A", "B"])
                & models.Q(loser_next_slot__in=["", "A", "B"])
                & models.Q(first_dealer__in=["", "A", "B"]),
                name="match_slots_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    status__in=[
                        "waiting",
                        "ready",
                        "in_play",
                        "awaiting_confirmation",
                        "complete",
                    ]
                ),
                name="match_status_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="complete", is_bye=False, winner_side=""),
                name="match_complete_has_winner",
            ),
            models.CheckConstraint(
                condition=models.Q(table__isnull=True) | models.Q(table__gte=1),
                name="match_table_positive",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="match_status_idx")]

    def __str__(self) -> str:
        return f"{self.key}: {self.side_name('A')} v {self.side_name('B')}"

    # -- sides ---------------------------------------------------------------------------

    def entry(self, side: str):  # -> Entry | None
        if side == "A":
            return self.side_a
        if side == "B":
            return self.side_b
        raise ValueError(f"side must be 'A' or 'B', not {side!r}")

    def entry_id(self, side: str) -> int | None:
        return self.side_a_id if side == "A" else self.side_b_id

    # A query can bring the players' names along instead of their entries (on the hot
    # path of hand entry): .annotate(**Match.side_names()). side_name() then uses them.
    @staticmethod
    def side_names() -> dict[str, models.Func]:
        # A team's name, else the player's (Entry.name).
        return {
            f"side_{side}_name": Coalesce(
                NullIf(models.F(f"side_{side}__team_name"), models.Value("")),
                models.F(f"side_{side}__player__name"),
            )
            for side in ("a", "b")
        }

    def side_name(self, side: str) -> str:
        if side in ("A", "B") and self.entry_id(side) is not None:
            named = self.__dict__.get("side_a_name" if side == "A" else "side_b_name")
            if named is not None:
                return named
        entry = self.entry(side)
        return str(entry) if entry is not None else gettext("TBD")

    @property
    def name_a(self) -> str:
        return self.side_name("A")

    @property
    def name_b(self) -> str:
        return self.side_name("B")

    @property
    def loser_side(self) -> str:
        return {"A": "B", "B": "A"}.get(self.winner_side, "")

    @property
    def winner(self):  # -> Entry | None
        return self.entry(self.winner_side) if self.winner_side else None

    @property
    def loser(self):  # -> Entry | None
        return self.entry(self.loser_side) if self.winner_side else None

    @property
    def has_both_sides(self) -> bool:
        return self.side_a_id is not None and self.side_b_id is not None

    @property
    def is_skipped(self) -> bool:
        """A match that never needed playing (an unneeded bracket reset, a bye of nobody)."""
        return self.is_bye and self.status == self.Status.COMPLETE and not self.winner_side

    @property
    def is_open(self) -> bool:
        """Hands can be entered: both players known and the result not confirmed."""
        return self.has_both_sides and self.status in (
            self.Status.READY,
            self.Status.IN_PLAY,
            self.Status.AWAITING,
        )

    @property
    def is_queued(self) -> bool:
        """Playable but without a table: in the room's queue, not to be played until the
        director (or the automatic call) gives it one."""
        return (
            self.has_both_sides
            and self.table is None
            and self.status in (self.Status.READY, self.Status.IN_PLAY)
        )

    # -- display -------------------------------------------------------------------------

    named = ""
    """What the pages call this match, once :class:`tournaments.match_names.RoundNames`
    has named it ("Knockout · Quarterfinals · Match 1": it needs the match's whole stage);
    until then :attr:`label` says the round's number and the match's."""

    @property
    def label(self) -> str:
        if self.named:
            return self.named
        params = {"round": self.round, "position": self.position}
        if self.section == self.Section.FINAL:
            return gettext("Grand final")
        if self.section == self.Section.RESET:
            return gettext("Grand final · reset")
        if self.section == self.Section.THIRD_PLACE:
            return gettext("Third-place match")
        if self.section == self.Section.LOSERS:
            return gettext("Losers' round %(round)d · Match %(position)d") % params
        if self.section == self.Section.CONSOLATION:
            return gettext("Consolation round %(round)d · Match %(position)d") % params
        return gettext("Round %(round)d · Match %(position)d") % params

    @property
    def ruleset(self) -> RuleSet:
        """The rules of this match: its stage's, for its round, or the tournament's."""
        if self.stage_id is None:
            return self.tournament.ruleset
        stage = self.stage
        if stage.tournament_id == self.tournament_id:
            stage.tournament = self.tournament  # the loaded one: no query for its rules
        return stage.ruleset_for_round(self.round, self.section)
