"""Forms for the director's screens. Validation only; the services do the writing."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import (
    KNOB_RANGES,
    KNOBS,
    PRESETS,
    TEAM_KNOBS,
    TEAM_PRESETS,
    RuleSet,
    ScoringError,
    check_knob,
    resolve_rules,
)
from web.number_fields import IdChoiceField, IdsChoiceField

from .models import Player, Tournament
from .models.players import RATING_MAX, RATING_MIN
from .models.tournaments import BRACKET_FIELDS, DEFAULT_PRESET, DETAIL_FIELDS
from .services import rules_locked_error

# -- players ---------------------------------------------------------------------------------


def rating_field() -> forms.IntegerField:
    """The rating, bounded as the model is, with one message for every way it is wrong
    (the registry's form here, and each row of its CSV import in :mod:`players.forms`)."""
    message = gettext("A rating is a whole number from %(low)d to %(high)d.") % {
        "low": RATING_MIN,
        "high": RATING_MAX,
    }
    return forms.IntegerField(
        label=capfirst(Player._meta.get_field("rating").verbose_name),
        required=False,
        min_value=RATING_MIN,
        max_value=RATING_MAX,
        error_messages={"invalid": message, "min_value": message, "max_value": message},
    )


class PlayerForm(forms.ModelForm):
    """A player of the registry: added from the registry's pages and at the door
    (registration's new player), edited from the registry."""

    class Meta:
        model = Player
        fields = ["name", "email", "phone", "club_id", "rating", "notes", "hidden"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rating"] = rating_field()


# -- tournament setup ------------------------------------------------------------------------

KNOB_LABELS: dict[str, Any] = {
    "knock_limit": _("Knock limit"),
    "gin_bonus": _("Gin bonus"),
    "big_gin_bonus": _("Big gin bonus"),
    "undercut_bonus": _("Undercut bonus"),
    "tie": _("Knock tie"),
    "game_target": _("Game target"),
    "game_bonus": _("Game bonus"),
    "box_bonus": _("Box (line) bonus"),
    "gin_extra_boxes": _("Extra boxes for gin"),
    "undercut_extra_boxes": _("Extra boxes for an undercut"),
    "shutout": _("Shutout"),
    "shutout_bonus": _("Shutout bonus"),
    "oklahoma": _("Oklahoma (up card sets the knock limit)"),
    "oklahoma_ace": _("Oklahoma ace"),
    "spade_double": _("Spades double"),
    "spade_double_boxes": _("Spades double the boxes too"),
    "format": _("Match format"),
    "games_to_win": _("Games to win the match"),
    "hollywood_columns": _("Hollywood columns"),
    "deal": _("Next dealer"),
    "knock_base": _("Knock base (added to every won knock)"),
    "box_timing": _("Boxes count"),
    "hollywood_last_doubled": _("Hollywood: the last column to finish counts double"),
    "hollywood_columns_open": _("Hollywood columns open"),
    "ace_value": _("An unmatched ace counts"),
    "runs_around_the_corner": _("Aces high or low, runs round the corner (K-A-2)"),
}
CHOICE_LABELS: dict[str, Any] = {
    "undercut": _("counts as an undercut"),
    "no_score": _("scores nothing"),
    "double_points": _("doubles the winner's points"),
    "double_total": _("doubles the winner's total"),
    "bonus": _("fixed bonus"),
    "none": _("none"),
    "gin_only": _("gin only"),
    "one": _("knock with 1"),
    "games": _("best of N games"),
    "hollywood": _("Hollywood"),
    "alternate": _("alternates"),
    "winner": _("winner of the hand"),
    "loser": _("loser of the hand"),
    "knocker": _("goes to the knocker"),
    "end": _("when the game ends"),
    "running": _("at once, toward the target"),
    "together": _("all at once"),
    "rolling": _("three at a time, the next as one closes"),
}
PRESET_LABELS: dict[str, Any] = {
    "modern": _("Modern (one game to 100)"),
    "tournament": _("Tournament (best of five to 250)"),
    "classic": _("Classic (10/20 system)"),
    "oklahoma": _("Oklahoma"),
    "hollywood": _("Hollywood (three columns)"),
    "straight": _("Straight gin"),
    "palace": _("Palace (boxes count at once)"),
    "tedesco": _("Tedesco (Oklahoma, Hollywood to 200, aces 15)"),
    "partnership": _("Partnership: teams of two, game to 125"),
    "tedesco_pairs": _("Tedesco pairs: teams of two, Hollywood to 200"),
    "tedesco_threes": _("Tedesco threes: teams of three to 300, sweep bonus 25"),
}
ALL_PRESETS = {**PRESETS, **TEAM_PRESETS}
"""What the setup form offers: the head-to-head presets, then the team ones (a team
preset sets the team size; its team knobs are not edited one by one)."""
NO_BIG_GIN = "none"
FORM_KNOBS = tuple(name for name in KNOBS if name not in TEAM_KNOBS)
"""The knobs the setup form offers: not the partnership ones, which the preset sets (a team
preset chooses the team size, the opponents and the sweep bonus)."""
_KNOB_TYPES = {f.name: f.type for f in dataclass_fields(RuleSet)}


def _display(value: object) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("none")
    return str(CHOICE_LABELS.get(str(getattr(value, "value", value)), value))


def _knob_field(name: str) -> forms.Field:
    """A field that is empty for "as the preset says"; anything entered overrides it."""
    sample = getattr(PRESETS["modern"], name)
    label = KNOB_LABELS.get(name, name)
    if isinstance(sample, bool):
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset")), ("yes", _("yes")), ("no", _("no"))],
        )
    enum = type(sample) if hasattr(sample, "value") else None
    if enum is not None:
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset"))]
            + [(member.value, CHOICE_LABELS.get(member.value, member.value)) for member in enum],
        )
    if name == "big_gin_bonus":
        return forms.CharField(
            label=label,
            required=False,
            max_length=20,
            help_text=_("A number, or “none” to refuse big gin (record it as gin)."),
        )
    # The range is the engine's (KNOB_RANGES), checked by check_knob in clean() so that the
    # message is the one score_sheet and the archive import give; the browser gets it too.
    low, high = KNOB_RANGES[name]
    field = forms.IntegerField(label=label, required=False)
    field.widget.attrs.update(min=low, max=high)
    return field


class TournamentForm(forms.ModelForm):
    """Tournament details, format, and rules: a preset plus optional per-knob overrides.

    Once the rules are locked (the first hand was scored) a submitted change to them is
    refused; once the bracket exists, so is a change to its format.
    """

    preset = forms.ChoiceField(
        label=_("Rules preset"),
        choices=[(name, PRESET_LABELS.get(name, name)) for name in ALL_PRESETS],
        initial=DEFAULT_PRESET,
    )

    class Meta:
        model = Tournament
        fields = [*DETAIL_FIELDS, *BRACKET_FIELDS]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in FORM_KNOBS:
            self.fields[name] = _knob_field(name)
        tournament = self.instance
        self.rules_locked = bool(tournament.pk and tournament.rules_locked_at)
        self.bracket_generated = bool(tournament.pk and tournament.matches.exists())
        # Two choices, not a checkbox: a form that does not send it (a script, an older
        # page) keeps the setting, where a missing checkbox would switch calling off.
        self.fields["auto_call"] = forms.TypedChoiceField(
            label=_("Tables"),
            choices=[
                ("auto", _("Call tables automatically")),
                ("hand", _("I send each match to a table from Round control")),
            ],
            coerce=lambda value: value == "auto",
            empty_value=None,
            required=False,
            widget=forms.RadioSelect,
            help_text=_(
                "Automatically: a table that frees goes to the next match in the queue, and "
                "its players are called."
            ),
        )
        self.initial["auto_call"] = "auto" if tournament.auto_call else "hand"
        self.fields["draw_seed"].help_text = _(
            "Recorded so the draw can be repeated; left empty, one is picked for you."
        )
        if tournament.pk:
            current = tournament.ruleset
            base = ALL_PRESETS.get(current.preset, PRESETS[DEFAULT_PRESET])
            self.initial["preset"] = current.preset
            for name in FORM_KNOBS:
                value = getattr(current, name)
                if value != getattr(base, name):
                    self.initial[name] = self._as_input(name, value)
        for name in FORM_KNOBS:
            self.fields[name].widget.attrs["placeholder"] = _display(
                getattr(ALL_PRESETS.get(self._preset_name(), PRESETS[DEFAULT_PRESET]), name)
            )
        if self.rules_locked:
            # Disabled fields show (and clean to) the stored rules whatever is posted; a
            # posted change is refused in clean() with a message.
            for name in ("preset", *FORM_KNOBS):
                self.fields[name].disabled = True
                self.fields[name].required = False
        if self.bracket_generated:
            for name in BRACKET_FIELDS:
                self.fields[name].widget.attrs["disabled"] = True

    def clean_auto_call(self) -> bool:
        value = self.cleaned_data.get("auto_call")
        return self.instance.auto_call if value is None else bool(value)

    def _preset_name(self) -> str:
        if self.is_bound and self.data.get("preset") in ALL_PRESETS:
            return str(self.data["preset"])
        return str(self.initial.get("preset", DEFAULT_PRESET))

    @staticmethod
    def _as_input(name: str, value: object) -> object:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return NO_BIG_GIN
        return getattr(value, "value", value)

    def knob_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in FORM_KNOBS]

    def detail_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in DETAIL_FIELDS]

    def bracket_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in BRACKET_FIELDS]

    def _knob_value(self, name: str, raw: object) -> object:
        if raw in ("", None):
            return None
        if isinstance(self.fields[name], forms.ChoiceField) and raw in ("yes", "no"):
            return raw == "yes"
        if name == "big_gin_bonus":
            text = str(raw).strip().lower()
            if text in (NO_BIG_GIN, gettext("none").lower(), "-"):
                return None
            try:
                return int(text)
            except ValueError:
                raise ScoringError(
                    "rules: %(name)s must be a whole number", {"name": name}, field=name
                ) from None
        return raw

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        tournament = self.instance
        if self.rules_locked:
            cleaned["rules"] = tournament.rules
            # A browser does not send disabled inputs; anything else that sends rules must
            # send the stored ones.
            if "preset" in self.data and rules_from_query(self.data) != tournament.ruleset:
                self.add_error(None, rules_locked_error(tournament))
                self.add_error(
                    None, gettext("The rules were not changed. They are shown below as stored.")
                )
        else:
            cleaned["rules"] = self._clean_rules(cleaned)
        if self.bracket_generated:
            changed = [
                name
                for name in BRACKET_FIELDS
                if name in self.data and cleaned.get(name) != getattr(tournament, name)
            ]
            for name in BRACKET_FIELDS:
                if name not in self.data or name in changed:
                    cleaned[name] = getattr(tournament, name)
            if changed:
                self.add_error(
                    None,
                    gettext("The bracket has been generated: clear it before changing the format."),
                )
        seed = cleaned.get("draw_seed")
        if seed is not None and not 0 <= seed <= 2**63 - 1:
            self.add_error("draw_seed", gettext("The draw seed must be a positive number."))
        return cleaned

    def _clean_rules(self, cleaned: dict[str, Any]) -> dict[str, Any] | None:
        preset = cleaned.get("preset") or DEFAULT_PRESET
        overrides: dict[str, object] = {}
        for name in FORM_KNOBS:
            try:
                value = self._knob_value(name, cleaned.get(name))
                if value is None and not (
                    name == "big_gin_bonus" and str(cleaned.get(name) or "").strip()
                ):
                    continue
                overrides[name] = check_knob(name, value)
            except ScoringError as error:
                self.add_error(name, _friendly(error, name))
        if any(name in self.errors for name in FORM_KNOBS):
            return None
        try:
            return resolve_rules({"preset": preset, **_plain(overrides)}).to_dict()
        except ScoringError as error:
            self.add_error(None, error.render(gettext))
            return None


def _plain(values: dict[str, object]) -> dict[str, object]:
    return {k: getattr(v, "value", v) for k, v in values.items()}


def _friendly(error: ScoringError, name: str) -> str:
    """The engine names knobs by their code name; the form shows the label instead."""
    message = error.render(gettext)
    return message.replace(name, str(KNOB_LABELS.get(name, name)))


def rules_from_query(data: Any) -> RuleSet | None:
    """The rules a (possibly half-filled) setup form describes, for the live summary."""
    form = TournamentForm(data=data)
    form.is_valid()
    rules = form.cleaned_data.get("rules") if hasattr(form, "cleaned_data") else None
    return resolve_rules(rules) if rules else None


# -- registration ----------------------------------------------------------------------------


class AddEntryForm(forms.Form):
    """Enter a registered player (chosen by id) in the tournament."""

    player = IdChoiceField(
        label=_("Player"),
        queryset=Player.objects.all(),
        error_messages={"invalid_choice": _("Choose a player from the registry.")},
    )
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1, max_value=100_000)


class AddEntriesForm(forms.Form):
    """Enter the registered players ticked on the registration page (chosen by id)."""

    players = IdsChoiceField(
        label=_("Players"),
        queryset=Player.objects.all(),
        error_messages={
            "required": _("Tick the players to enter first."),
            "invalid_choice": _("Choose players from the registry."),
            "invalid_pk_value": _("Choose players from the registry."),
        },
    )


class AddTeamForm(forms.Form):
    """Enter a team: its name and one registered player per seat (``seat1`` … ``seatN``)."""

    team_name = forms.CharField(label=_("Team name"), max_length=80)

    def __init__(self, *args: Any, size: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size = size
        for seat in range(1, size + 1):
            self.fields[f"seat{seat}"] = IdChoiceField(
                label=_("Player %(seat)d") % {"seat": seat},
                queryset=Player.objects.all(),
                error_messages={"invalid_choice": _("Choose a player from the registry.")},
            )
        self.fields["seed"] = forms.IntegerField(
            label=_("Seed"), required=False, min_value=1, max_value=100_000
        )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat{seat}"] for seat in range(1, self.size + 1)]

    def players(self) -> list[Player]:
        return [self.cleaned_data[f"seat{seat}"] for seat in range(1, self.size + 1)]


class SeedForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1, max_value=100_000)


class WalkoverForm(forms.Form):
    winner_side = forms.ChoiceField(label=_("Winner"), choices=[("A", "A"), ("B", "B")])
    # Sent by the confirmation that names the winner; without it nothing is awarded yet.
    confirmed = forms.BooleanField(required=False)
