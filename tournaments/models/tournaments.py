"""A tournament, its rules snapshot and the players entered in it."""

from __future__ import annotations

import datetime
import functools

from anyascii import anyascii
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import NoReverseMatch, reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from engine import PRESETS, RuleSet, resolve_rules

from .versions import PublicVersion

DEFAULT_PRESET = "tournament"
# The settings a director edits: the event itself, then the bracket format (frozen once
# the bracket exists). The setup form and :mod:`tournaments.organising` both work from these.
DETAIL_FIELDS = ("name", "date", "venue", "tables", "auto_call", "page_size", "language")
BRACKET_FIELDS = (
    "bracket_kind",
    "third_place",
    "consolation",
    "bracket_reset",
    "random_draw",
    "draw_seed",
)
MAX_TABLES = 500


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (``settings.LANGUAGES``): a tournament may speak any of them.

    A callable, so the migrations name this function rather than copy the list: adding a
    language is its catalogue and one line of settings, with no migration.
    """
    return list(settings.LANGUAGES)


def default_rules() -> dict[str, object]:
    """Best of five games to 250: what SPEC 1 calls the default match."""
    return PRESETS[DEFAULT_PRESET].to_dict()


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class PageSize(models.TextChoices):
        A4 = "A4", _("A4")
        LETTER = "LETTER", _("Letter")

    class BracketKind(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, blank=True)
    date = models.DateField(_("date"), default=datetime.date.today)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("director"),
        on_delete=models.PROTECT,
        related_name="owned_tournaments",
    )
    co_directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("co-directors"),
        blank=True,
        related_name="co_directed_tournaments",
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("scorekeepers"),
        blank=True,
        related_name="scorekept_tournaments",
    )
    tables = models.PositiveIntegerField(
        _("tables"),
        default=8,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_TABLES)],
        help_text=_("How many card tables the venue has."),
    )
    auto_call = models.BooleanField(
        _("call tables automatically"),
        default=True,
        help_text=_(
            "A table that frees goes to the next match in the queue. Off: it stays free until "
            "you send a match to it from Round control."
        ),
    )
    page_size = models.CharField(
        _("page size"), max_length=6, choices=PageSize.choices, default=PageSize.A4
    )
    # Long enough for any code Django knows ("zh-hans", "sr-latn").
    language = models.CharField(
        _("language"), max_length=12, choices=language_choices, default="en"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    rules = models.JSONField(_("rules"), default=default_rules)
    rules_locked_at = models.DateTimeField(_("rules locked at"), null=True, blank=True)
    bracket_kind = models.CharField(
        _("format"),
        max_length=20,
        choices=BracketKind.choices,
        default=BracketKind.SINGLE_ELIMINATION,
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    consolation = models.BooleanField(_("consolation bracket"), default=False)
    bracket_reset = models.BooleanField(_("bracket reset"), default=True)
    random_draw = models.BooleanField(_("random draw"), default=False)
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # Self check-in (tournaments.self_checkin): players check in from their own page with
    # the code of the day the director turned it on (a code of another day is closed).
    self_checkin = models.BooleanField(_("self check-in"), default=False)
    checkin_code = models.CharField(_("check-in code"), max_length=8, blank=True)
    checkin_code_date = models.DateField(_("check-in code date"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tables__gte=1), name="tournament_tables_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["draft", "registration", "running", "finished"]),
                name="tournament_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        # A missing slug is filled in so that every way of creating a tournament (form,
        # admin, import, shell) ends up with a stable public URL.
        if not self.slug:
            self.slug = unique_slug(self.name, exclude_pk=self.pk)
        adding = self._state.adding
        super().save(*args, **kwargs)  # type: ignore[arg-type]
        if adding:
            # Its public pages start at version 1 (tournaments.public_version counts from there).
            PublicVersion.objects.get_or_create(tournament=self)

    def get_absolute_url(self) -> str:
        """The public page. Its path is a stable interface (SPEC 8), served by scoring."""
        try:
            return reverse("public:tournament", kwargs={"slug": self.slug})
        except NoReverseMatch:
            return f"/t/{self.slug}/"

    @property
    def ruleset(self) -> RuleSet:
        """The engine's rules, resolved once per distinct rules value in this process
        (every hand entered asks for them, from a freshly loaded tournament)."""
        try:
            # The type goes into the key too: 1 == True, but only True is a valid switch.
            key = tuple(sorted((name, type(value), value) for name, value in self.rules.items()))
            hash(key)
        except (AttributeError, TypeError):
            return resolve_rules(self.rules)  # not a flat object: the engine says why
        return _resolved_rules(key)

    @property
    def rules_locked(self) -> bool:
        return self.rules_locked_at is not None

    @property
    def bracket_generated(self) -> bool:
        return self.matches.exists()


@functools.lru_cache(maxsize=256)
def _resolved_rules(key: tuple[tuple[str, type, object], ...]) -> RuleSet:
    return resolve_rules({name: value for name, _type, value in key})


def unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
    """``slugify(name)``, with ``-2``, ``-3`` … appended when it is taken.

    The name is transliterated to ASCII first ("Żółć Cup" → "zolc-cup", "Кубок" →
    "kubok"): slugify alone drops every letter that does not decompose to ASCII (ł, ß,
    every non-Latin script)."""
    field = Tournament._meta.get_field("slug")
    base = slugify(anyascii(name))[: field.max_length - 6].strip("-") or "tournament"
    taken = set(
        Tournament.objects.filter(slug__startswith=base)
        .exclude(pk=exclude_pk)
        .values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


class Entry(models.Model):
    """A player registered in one tournament, or a team of players in a team tournament.

    A team is an entry with a ``team_name`` and its members (:class:`TeamMember`, seats
    1 to N); ``player`` is then the member in seat 1. Brackets, seeding, advancement and
    standings work on entries, so they work on teams unchanged.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="entries",
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    self_checked_in = models.BooleanField(_("checked in by the player"), default=False)
    paid = models.BooleanField(_("paid"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    team_name = models.CharField(_("team name"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = [models.F("seed").asc(nulls_last=True), "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_player_once",
                violation_error_message=_("This player is already entered."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=models.Q(seed__isnull=False),
                name="entry_seed_unique",
                violation_error_message=_("Another player already has this seed."),
            ),
            models.CheckConstraint(condition=models.Q(seed__gte=1), name="entry_seed_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """What pages call this entry: the team's name, or the player's."""
        return self.team_name or self.player.name

    @property
    def is_team(self) -> bool:
        return bool(self.team_name)
