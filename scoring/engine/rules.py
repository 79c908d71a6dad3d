"""Rule knobs, the six presets, and the resolution of a preset plus overrides.

A :class:`RuleSet` is the full snapshot a tournament stores: every knob resolved, so a
later change to a preset never rewrites a finished tournament.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from .errors import ScoringError, _


class Tie(StrEnum):
    UNDERCUT = "undercut"
    NO_SCORE = "no_score"


class Shutout(StrEnum):
    DOUBLE_POINTS = "double_points"
    DOUBLE_TOTAL = "double_total"
    BONUS = "bonus"
    NONE = "none"


class OklahomaAce(StrEnum):
    GIN_ONLY = "gin_only"
    ONE = "one"


class Format(StrEnum):
    GAMES = "games"
    HOLLYWOOD = "hollywood"


class Deal(StrEnum):
    ALTERNATE = "alternate"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every knob of SPEC 2.7, resolved. Field order is the order of the JSON contract."""

    preset: str = "modern"
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int | None = 31
    undercut_bonus: int = 25
    tie: Tie = Tie.UNDERCUT
    game_target: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    gin_extra_boxes: int = 0
    undercut_extra_boxes: int = 0
    shutout: Shutout = Shutout.DOUBLE_POINTS
    shutout_bonus: int = 0
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = OklahomaAce.GIN_ONLY
    spade_double: bool = False
    spade_double_boxes: bool = False
    format: Format = Format.GAMES
    games_to_win: int = 1
    hollywood_columns: int = 3
    deal: Deal = Deal.ALTERNATE

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: enums as their string values, in contract order."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some knobs changed; each value is checked and typed as by resolve_rules."""
        checked: dict[str, Any] = {
            name: value if name == "preset" else check_knob(name, value)
            for name, value in changes.items()
        }
        return dataclasses.replace(self, **checked)

    @property
    def games_in_match(self) -> int:
        """Most games a match can take (best of this many)."""
        return 2 * self.games_to_win - 1

    @property
    def is_hollywood(self) -> bool:
        return self.format is Format.HOLLYWOOD


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


KNOB_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (0, 500),
    "big_gin_bonus": (0, 500),
    "undercut_bonus": (0, 500),
    "game_target": (1, 5000),
    "game_bonus": (0, 500),
    "box_bonus": (0, 500),
    "gin_extra_boxes": (0, 5),
    "undercut_extra_boxes": (0, 5),
    "shutout_bonus": (0, 500),
    "games_to_win": (1, 10),
    "hollywood_columns": (1, 10),
}
"""(least, most) of every whole-number knob: the one definition the setup form, the
archive import and ``score_sheet`` all check against.

The rules give the knock limit (a knock needs 10 or less). The rest are far past anything
played: published rules use bonuses of 10 to 100, targets of 100 to 250, one extra box at
most, best of five or seven, and three Hollywood columns; a knob's most is several times
that. They are bounded so that the largest total a match can reach fits a 32-bit
database column (:func:`scoring.engine.limits.largest_match_total`, held by a test).
"""
MAX_HANDS = 10_000
"""The most hands one match may have: with bonuses of 0 a won hand can score nothing yet
earn boxes, so without this a match's boxes (and total) would have no limit. A real match
has a few dozen hands."""
_BOOL_KNOBS = ("oklahoma", "spade_double", "spade_double_boxes")
_ENUM_KNOBS: dict[str, type[StrEnum]] = {
    "tie": Tie,
    "shutout": Shutout,
    "oklahoma_ace": OklahomaAce,
    "format": Format,
    "deal": Deal,
}
KNOBS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet) if f.name != "preset")


def preset_names() -> list[str]:
    return list(PRESETS)


def resolve_rules(spec: object) -> RuleSet:
    """A preset name, or ``{"preset": name, knob: value, …}``, resolved to a RuleSet.

    Raises :class:`ScoringError` for an unknown preset or knob, or a bad value.
    """
    if isinstance(spec, str):
        return _preset(spec)
    if not isinstance(spec, Mapping):
        raise ScoringError(_("rules must be a preset name or an object"), field="rules")
    if "preset" not in spec:
        raise ScoringError(_("rules: the preset is missing"), field="preset")
    base = _preset(spec["preset"])
    changes: dict[str, Any] = {}
    for name, value in spec.items():
        if name == "preset":
            continue
        if not isinstance(name, str) or name not in KNOBS:
            shown = name if isinstance(name, str) and name.isprintable() else repr(name)
            raise ScoringError(_("rules: unknown rule %(name)s"), {"name": shown}, field="rules")
        changes[name] = check_knob(name, value)
    return base.replace(**changes)


def check_knob(name: str, value: object) -> object:
    """Validate one knob value and return it in its engine type."""
    if name in _BOOL_KNOBS:
        if not isinstance(value, bool):
            raise ScoringError(
                _("rules: %(name)s must be true or false"), {"name": name}, field=name
            )
        return value
    if name in _ENUM_KNOBS:
        enum = _ENUM_KNOBS[name]
        allowed = [member.value for member in enum]
        if not isinstance(value, str) or value not in allowed:
            raise ScoringError(
                _("rules: %(name)s must be one of %(allowed)s"),
                {"name": name, "allowed": ", ".join(allowed)},
                field=name,
            )
        return enum(value)
    if name == "big_gin_bonus" and value is None:
        return None
    low, high = KNOB_RANGES[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(_("rules: %(name)s must be a whole number"), {"name": name}, field=name)
    if not low <= value <= high:
        raise ScoringError(
            _("rules: %(name)s must be between %(low)d and %(high)d"),
            {"name": name, "low": low, "high": high},
            field=name,
        )
    return value


def _preset(name: object) -> RuleSet:
    if not isinstance(name, str) or name not in PRESETS:
        raise ScoringError(
            _("unknown rules preset %(name)s (choose from %(choices)s)"),
            {"name": repr(name), "choices": ", ".join(PRESETS)},
            field="preset",
        )
    return PRESETS[name]


_MODERN = RuleSet()

PRESETS: dict[str, RuleSet] = {
    "modern": _MODERN,
    "tournament": _MODERN.replace(preset="tournament", game_target=250, games_to_win=3),
    "classic": _MODERN.replace(
        preset="classic",
        gin_bonus=20,
        big_gin_bonus=None,
        undercut_bonus=10,
        box_bonus=20,
        shutout=Shutout.BONUS,
        shutout_bonus=100,
        deal=Deal.WINNER,
    ),
    "oklahoma": _MODERN.replace(
        preset="oklahoma", game_target=150, oklahoma=True, spade_double=True
    ),
    "hollywood": _MODERN.replace(preset="hollywood", format=Format.HOLLYWOOD),
    "straight": _MODERN.replace(preset="straight", knock_limit=0),
}
