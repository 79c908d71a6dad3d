"""Stages: a tournament played as qualifying stages then a cut into a knockout.

A tournament with no stage rows is what it always was: one bracket, its format and
rules on the tournament itself. Once a director adds stages, the tournament is those
stages in order (``number`` 1, 2 …): each has its kind (Swiss, round-robin pools, single
or double elimination), its settings, how many advance into the next (the top K overall
or of each pool), its tiebreak order and its match length (rules knobs laid over the
tournament's rules, and optionally over those per round: a longer final). A match of a
stage names it (:attr:`Match.stage`); a match without one belongs to the one-bracket
tournament.

The pairing (:mod:`pairing.swiss`), standings (:mod:`pairing.tiebreaks`) and
cut are pure modules; :mod:`tournaments.stages.services` writes.
"""

from __future__ import annotations

import datetime
import functools

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine import RuleSet, resolve_rules

DEFAULT_TIEBREAKS = ["match_points", "buchholz", "games_won", "point_margin"]
MAX_STAGES = 6
FINAL_ROUND = "final"  # the key of a knockout's final in round_rules
GRAND_FINAL = ("final", "reset")  # a double elimination's final sections (Match.Section)
MAX_SWISS_ROUNDS = 30
MAX_ADVANCE = 4096  # players going on to the next stage: the form's limit, and an archive's


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Stage(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round-robin pools")
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")

    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        RUNNING = "running", _("Running")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="stages",
    )
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    rounds = models.PositiveIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SWISS_ROUNDS)],
        help_text=_("Swiss: how many rounds are played."),
    )
    pool_size = models.PositiveIntegerField(
        _("pool size"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(32)],
        help_text=_("Round-robin pools: players in each pool."),
    )
    advance = models.PositiveIntegerField(
        _("players advancing"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
        help_text=_("How many go on to the next stage (per pool for pools)."),
    )
    tiebreaks = models.JSONField(_("tiebreaks"), default=default_tiebreaks)
    # Knobs laid over the tournament's rules for the whole stage, then per round
    # ({"4": {"games_to_win": 3}}): the match length of a qualifying round, of a final.
    rules = models.JSONField(_("match length"), default=dict, blank=True)
    round_rules = models.JSONField(_("match length per round"), default=dict, blank=True)
    rules_locked_at = models.DateTimeField(_("rules locked at"), null=True, blank=True)
    pairing_seed = models.BigIntegerField(_("pairing seed"), null=True, blank=True)
    # Who plays in the stage, as entry ids in seed order (the cut writes them); for
    # pools, the pools; late entries' starting match points, by entry id.
    entrants = models.JSONField(_("entrants"), default=list, blank=True)
    pools = models.JSONField(_("pools"), default=list, blank=True)
    start_points = models.JSONField(_("starting match points"), default=dict, blank=True)
    third_place = models.BooleanField(_("third-place match"), default=False)
    bracket_reset = models.BooleanField(_("bracket reset"), default=True)
    # The round clock: when the current round's clock was started and how long it runs.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    clock_minutes = models.PositiveIntegerField(_("round minutes"), null=True, blank=True)
    # When time is called: how unfinished matches are decided, and how many hands each
    # unfinished match had then (by match id), for "N more hands".
    time_procedure = models.CharField(_("time procedure"), max_length=12, blank=True)
    time_extra_hands = models.PositiveIntegerField(_("extra hands"), default=0)
    time_called = models.JSONField(_("time called at"), default=dict, blank=True)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=[
                        "swiss",
                        "round_robin",
                        "single_elimination",
                        "double_elimination",
                    ]
                ),
                name="stage_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return str(self.name)

    @property
    def is_knockout(self) -> bool:
        return self.kind in (self.Kind.SINGLE_ELIMINATION, self.Kind.DOUBLE_ELIMINATION)

    @property
    def key_prefix(self) -> str:
        """What this stage's match keys start with (keys are unique per tournament)."""
        return f"S{self.number}."

    def rules_for_round(self, round_: int | None = None, section: str = "") -> dict[str, object]:
        """The rules snapshot of a match of this stage in ``round_`` of ``section``. A
        double elimination keeps its "final" match length under that name: it is the
        grand final's (and the reset's), whose round number its losers' bracket shares."""
        spec = dict(self.tournament.rules)
        spec.update(self.rules or {})
        round_rules = self.round_rules or {}
        if round_ is not None:
            spec.update(round_rules.get(str(round_), {}))
        if section in GRAND_FINAL and FINAL_ROUND in round_rules:
            spec.update(round_rules[FINAL_ROUND])
        return spec

    def ruleset_for_round(self, round_: int | None = None, section: str = "") -> RuleSet:
        spec = self.rules_for_round(round_, section)
        try:
            key = tuple(sorted((name, type(value), value) for name, value in spec.items()))
            hash(key)
        except TypeError:
            return resolve_rules(spec)
        return _resolved(key)

    @property
    def clock_ends_at(self) -> datetime.datetime | None:
        """When the round clock runs out (None: no clock started)."""
        if self.clock_started_at is None or not self.clock_minutes:
            return None
        return self.clock_started_at + datetime.timedelta(minutes=self.clock_minutes)

    @property
    def clock_end_ms(self) -> int | None:
        """The same, in milliseconds since the epoch, for the page's countdown script."""
        ends = self.clock_ends_at
        return int(ends.timestamp() * 1000) if ends is not None else None

    @property
    def tiebreak_names(self) -> list[str]:
        return list(self.tiebreaks or DEFAULT_TIEBREAKS)

    def cut_seed(self, entry_id: int) -> int | None:
        """The seed the cut gave ``entry_id`` in this stage: its place in the order the
        cut wrote (:attr:`entrants`, 1 first). None in the first stage, which plays with
        the registration seeds, and for a player the cut did not bring in."""
        if self.number <= 1:
            return None
        entrants = self.entrants or []
        cached = getattr(self, "_cut_seeds", None)
        if cached is None or cached[0] is not entrants:
            seeds = {int(pk): place for place, pk in enumerate(entrants, start=1)}
            cached = (entrants, seeds)
            self._cut_seeds = cached  # read once per stage as loaded, not once per box
        return cached[1].get(entry_id)


@functools.lru_cache(maxsize=256)
def _resolved(key: tuple[tuple[str, type, object], ...]) -> RuleSet:
    return resolve_rules({name: value for name, _type, value in key})
