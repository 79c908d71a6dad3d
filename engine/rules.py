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

from engine.errors import ScoringError, _


class Tie(StrEnum):
    UNDERCUT = "undercut"
    NO_SCORE = "no_score"
    KNOCKER = "knocker"


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


class BoxTiming(StrEnum):
    """When a won hand's boxes are paid: when the game closes, or into the running score."""

    END = "end"
    RUNNING = "running"


class ColumnsOpen(StrEnum):
    """Hollywood: every column open from the first hand, or a few at a time (``ROLLING_OPEN``)."""

    TOGETHER = "together"
    ROLLING = "rolling"


class Opponents(StrEnum):
    """Partnership play: who plays whom each deal (``teams.pairing``)."""

    FIXED = "fixed"
    ALTERNATE = "alternate"
    ROTATE = "rotate"


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
    # House rules (docs/rules.md, "House-rule knobs"): each one off by default.
    knock_base: int = 0
    box_timing: BoxTiming = BoxTiming.END
    hollywood_last_doubled: bool = False
    hollywood_columns_open: ColumnsOpen = ColumnsOpen.TOGETHER
    ace_value: int = 1
    runs_around_the_corner: bool = False
    # Partnership play (docs/rules.md, "Partnership gin"): head to head by default.
    team_size: int = 1
    opponents: Opponents = Opponents.FIXED
    sweep_bonus: int = 0

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

    @property
    def max_deadwood(self) -> int:
        """The most deadwood a hand can hold under these rules (98 with aces at 1)."""
        return largest_deadwood(self.ace_value)

    @property
    def is_team(self) -> bool:
        """Partnership rules: a match is played deal by deal, ``team_size`` boards a deal."""
        return self.team_size > 1

    @property
    def running_box_bonus(self) -> int:
        """What one box adds to the running score at once (0 when boxes wait for the end)."""
        return self.box_bonus if self.box_timing is BoxTiming.RUNNING else 0


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
    "knock_base": (0, 500),
    "ace_value": (1, 15),
    "team_size": (1, 4),
    "sweep_bonus": (0, 500),
}
"""(least, most) of every whole-number knob: the one definition the setup form, the
archive import and ``score_sheet`` all check against.

The rules give the knock limit (a knock needs 10 or less). The rest are far past anything
played: published rules use bonuses of 10 to 100, targets of 100 to 250, one extra box at
most, best of five or seven, and three Hollywood columns; a knob's most is several times
that. A knock base is a bonus like the others; an unmatched ace counts 1 to 15 (round-the-
corner gin counts it 15). Teams have two to four players (1: head to head); a sweep bonus is
a bonus like the others. They are bounded so that the largest total a match can reach fits a 32-bit
database column (:func:`engine.limits.largest_match_total`, held by a test).
"""
MAX_HANDS = 10_000
"""The most hands one match may have: with bonuses of 0 a won hand can score nothing yet
earn boxes, so without this a match's boxes (and total) would have no limit. A real match
has a few dozen hands. In a partnership match every board is a hand: deals × team size."""
_BOOL_KNOBS = (
    "oklahoma",
    "spade_double",
    "spade_double_boxes",
    "hollywood_last_doubled",
    "runs_around_the_corner",
)
_ENUM_KNOBS: dict[str, type[StrEnum]] = {
    "tie": Tie,
    "shutout": Shutout,
    "oklahoma_ace": OklahomaAce,
    "format": Format,
    "deal": Deal,
    "box_timing": BoxTiming,
    "hollywood_columns_open": ColumnsOpen,
    "opponents": Opponents,
}
KNOBS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet) if f.name != "preset")
ROLLING_OPEN = 3
"""Columns open at once under ``hollywood_columns_open: rolling``: the three games of a
Hollywood sheet, kept going (the Hollywood rules of rummy-games.com: after the first game
has ended, game 4 begins, and so on)."""


def largest_deadwood(ace_value: int) -> int:
    """The most deadwood ten cards can hold when an unmatched ace counts ``ace_value``.

    Three cards of a rank are a set, so at most two of each rank are unmatched: the bound
    is two of each of the five highest-valued ranks (98 with aces at 1: four ranks of 10
    and the nines; 110 with aces at 15). It is reached whatever the runs rule: giving the
    five ranks, in rank order, alternately spades and hearts, then diamonds and clubs,
    leaves no three of a suit in sequence, even round the corner (K-A-2). More melds can
    only lower deadwood, so ``runs_around_the_corner`` never raises this.
    """
    values: list[int] = sorted([ace_value, *range(2, 10), 10, 10, 10, 10], reverse=True)
    return 2 * sum(values[:5])


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
    if isinstance(name, str) and name in PRESETS:
        return PRESETS[name]
    if isinstance(name, str) and name in TEAM_PRESETS:
        return TEAM_PRESETS[name]
    raise ScoringError(
        _("unknown rules preset %(name)s (choose from %(choices)s)"),
        {"name": repr(name), "choices": ", ".join([*PRESETS, *TEAM_PRESETS])},
        field="preset",
    )


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
    # House-rule presets (docs/rules.md gives each one's source).
    "palace": _MODERN.replace(
        preset="palace",
        big_gin_bonus=None,
        undercut_bonus=20,
        box_bonus=10,
        box_timing=BoxTiming.RUNNING,
        game_bonus=0,
        shutout=Shutout.NONE,
    ),
    "tedesco": _MODERN.replace(
        preset="tedesco",
        oklahoma=True,
        format=Format.HOLLYWOOD,
        game_target=200,
        ace_value=15,
        runs_around_the_corner=True,
    ),
}

# Partnership presets (docs/rules.md, "Partnership gin", gives each one's source). They are
# kept apart from PRESETS, the head-to-head rule sets the tournament setup offers, until
# team tournaments exist; resolve_rules and score_sheet know both.
TEAM_KNOBS: tuple[str, ...] = ("team_size", "opponents", "sweep_bonus")
"""The partnership knobs: they matter only to a match played in deals (``teams.py``)."""

_TEDESCO = PRESETS["tedesco"]

TEAM_PRESETS: dict[str, RuleSet] = {
    "partnership": _MODERN.replace(
        preset="partnership",
        team_size=2,
        game_target=125,
        shutout=Shutout.BONUS,
        shutout_bonus=100,
        deal=Deal.WINNER,
        opponents=Opponents.ALTERNATE,
    ),
    "tedesco_pairs": _TEDESCO.replace(preset="tedesco_pairs", team_size=2),
    "tedesco_threes": _TEDESCO.replace(
        preset="tedesco_threes", team_size=3, game_target=300, sweep_bonus=25
    ),
}
