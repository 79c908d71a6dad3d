"""The rules of a tournament in one plain-language line, for the setup page and PDFs.

``rules_summary(ruleset)`` says only what a player needs at the table: the match format,
how knocking works, the bonuses, and whatever departs from the usual (a tie that scores
nothing or goes to the knocker, a knock base, extra boxes or boxes that count at once,
spades doubling, who deals, Hollywood columns opening in turn or the last one doubled,
aces at more than 1 and runs round the corner). Translated with the active language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from engine import Deal, Format, OklahomaAce, Opponents, RuleSet, Shutout, Tie
from engine.rules import ROLLING_OPEN, BoxTiming, ColumnsOpen

SEPARATOR = " · "


def rules_summary(ruleset: RuleSet) -> str:
    return SEPARATOR.join(_parts(ruleset))


def _parts(r: RuleSet) -> list[str]:
    return [
        *_teams(r),
        *_match_format(r),
        *_knocking(r),
        *_cards(r),
        *_bonuses(r),
        *_spades_and_dealing(r),
    ]


def _teams(r: RuleSet) -> list[str]:
    """Partnership: the team size, who plays whom, the sweep bonus (nothing head to head)."""
    if not r.is_team:
        return []
    opponents = {
        Opponents.FIXED: _("partners keep their opponents"),
        Opponents.ALTERNATE: _("partners alternate opponents from deal to deal"),
        Opponents.ROTATE: _("partners rotate opponents every deal"),
    }
    parts = [_("Teams of %(size)d") % {"size": r.team_size}, opponents[r.opponents]]
    if r.sweep_bonus:
        parts.append(_("sweep %(bonus)d") % {"bonus": r.sweep_bonus})
    return parts


def _match_format(r: RuleSet) -> list[str]:
    """Games or Hollywood, the target, and how many games the match takes."""
    if r.format == Format.HOLLYWOOD:
        parts = [
            ngettext(
                "Hollywood, %(columns)d column to %(target)d",
                "Hollywood, %(columns)d columns to %(target)d",
                r.hollywood_columns,
            )
            % {"columns": r.hollywood_columns, "target": r.game_target}
        ]
        # Rolling only differs from "together" when there are more columns than open.
        if r.hollywood_columns_open == ColumnsOpen.ROLLING and r.hollywood_columns > ROLLING_OPEN:
            parts.append(
                _("%(open)d columns open at a time, the next as one closes")
                % {"open": ROLLING_OPEN}
            )
        if r.hollywood_last_doubled:
            parts.append(_("the last column to finish counts double"))
        return parts
    parts = [_("Games to %(target)d") % {"target": r.game_target}]
    if r.games_to_win == 1:
        parts.append(pgettext("match length", "one game"))
    else:
        parts.append(_("best of %(games)d") % {"games": r.games_in_match})
    return parts


def _knocking(r: RuleSet) -> list[str]:
    """Oklahoma, straight gin or a knock limit other than ten (nothing for the usual)."""
    if r.oklahoma:
        parts = [_("Oklahoma: the first up card sets the knock limit")]
        if r.oklahoma_ace == OklahomaAce.GIN_ONLY:
            parts.append(_("ace up: gin only"))
        else:
            parts.append(_("ace up: knock with 1"))
        return parts
    if r.knock_limit == 0:
        return [_("straight gin (no knocking)")]
    if r.knock_limit != 10:
        return [_("knock with %(limit)d or less") % {"limit": r.knock_limit}]
    return []


def _cards(r: RuleSet) -> list[str]:
    """Aces that count more than 1 against their holder, and runs round the corner."""
    parts = []
    if r.runs_around_the_corner:
        parts.append(_("aces high or low, runs round the corner (K-A-2)"))
    if r.ace_value != 1:
        parts.append(_("an unmatched ace counts %(value)d") % {"value": r.ace_value})
    return parts


def _bonuses(r: RuleSet) -> list[str]:
    """Gin, big gin, undercut (and a tie), boxes, game and shutout."""
    parts = [_("gin %(bonus)d") % {"bonus": r.gin_bonus}]
    if r.big_gin_bonus is None:
        parts.append(_("no big gin"))
    else:
        parts.append(_("big gin %(bonus)d") % {"bonus": r.big_gin_bonus})
    if r.knock_limit != 0 or r.oklahoma:
        parts.append(_("undercut %(bonus)d") % {"bonus": r.undercut_bonus})
        if r.tie == Tie.NO_SCORE:
            parts.append(_("a tie scores nothing"))
        elif r.tie == Tie.KNOCKER:
            parts.append(_("a tie goes to the knocker"))
        if r.knock_base:
            parts.append(_("knock base %(bonus)d") % {"bonus": r.knock_base})
    if r.box_timing == BoxTiming.RUNNING:
        parts.append(_("box %(bonus)d, counted at once") % {"bonus": r.box_bonus})
    else:
        parts.append(_("box %(bonus)d") % {"bonus": r.box_bonus})
    if r.gin_extra_boxes:
        parts.append(
            ngettext("+%(n)d box for gin", "+%(n)d boxes for gin", r.gin_extra_boxes)
            % {"n": r.gin_extra_boxes}
        )
    if r.undercut_extra_boxes:
        parts.append(
            ngettext(
                "+%(n)d box for an undercut",
                "+%(n)d boxes for an undercut",
                r.undercut_extra_boxes,
            )
            % {"n": r.undercut_extra_boxes}
        )
    parts.append(_("game %(bonus)d") % {"bonus": r.game_bonus})
    shutout = {
        Shutout.DOUBLE_POINTS: _("shutout doubles"),
        Shutout.DOUBLE_TOTAL: _("shutout doubles the total"),
        Shutout.BONUS: _("shutout %(bonus)d") % {"bonus": r.shutout_bonus},
        Shutout.NONE: _("no shutout bonus"),
    }
    parts.append(shutout[r.shutout])
    return parts


def _spades_and_dealing(r: RuleSet) -> list[str]:
    """Spades doubling, and who deals if not the players in turn."""
    parts = []
    if r.spade_double:
        parts.append(_("spades double, boxes too") if r.spade_double_boxes else _("spades double"))
    if r.deal == Deal.WINNER:
        parts.append(_("the winner of a hand deals the next"))
    elif r.deal == Deal.LOSER:
        parts.append(_("the loser of a hand deals the next"))
    return parts
