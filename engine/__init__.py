"""The gin rummy scoring engine: pure Python, standard library only, no Django.

Glossary
--------
hand
    One deal. It is entered as a *kind* (``knock``, ``gin``, ``big_gin`` or ``draw``), who
    went out (``by``, side ``A`` or ``B``) and the deadwood counts.
deadwood
    The value of the unmatched cards (ace 1, two to ten face value, court cards 10).
meld, lay-off
    A set (3 or 4 of a rank) or run (3 or more in a suit, ace low) counts no deadwood. After
    a knock (not gin) the defender may lay off unmatched cards on the knocker's melds.
    ``cards.py`` settles a hand's counts from both hands' cards.
knock
    Going out with a little deadwood (1 up to the knock limit). The knocker scores the
    difference with the defender's deadwood after lay-offs.
undercut
    The defender's deadwood is below the knocker's (or equal, under ``tie: undercut``):
    the defender scores the difference plus the undercut bonus.
gin / big gin
    Going out with no deadwood (10 melded cards; all 11 for big gin): the bonus plus the
    defender's deadwood. Gin is never undercut.
draw
    A dead hand: the stock ran down to two cards. Nobody scores.
box
    A line bonus unit: one per hand won (plus optional extras for gin or undercut), paid
    out as ``box_bonus`` each when the game closes.
game
    The race to the target (100, 150, 250…). Closing it pays boxes, the game bonus and,
    when the loser won no hand in it, the shutout.
shutout
    A game (or column) the loser never scored in; settled by the ``shutout`` rule.
column
    Hollywood scoring keeps several games (columns) running at once; a player's wins go
    into the columns they have entered plus the next one.
match
    Best of N games, or one Hollywood session.
deal / board
    Partnership play (``teams.py``): two teams of ``team_size`` players; each deal every
    player plays one hand (a board) against a player of the other team. The boards are
    netted into one result for the deal, which counts as a hand does head to head.
estimate
    When a match in play should finish (``estimate.py``): the rest of it played out many
    times from where it stands, with hands like the table's, at the table's own pace.
limits
    Every whole-number knob has a least and a most value (``KNOB_RANGES``) and a match has
    at most ``MAX_HANDS`` hands, so that no total outgrows a 32-bit database column
    (``limits.py`` works out the largest one).

What this package does not do: store anything, translate messages (it marks them), or
know about players, tournaments or tables. Recomputing a match is replaying its hands.
"""

from engine.cards import Ruling, Settled, rule, score_hand, settle
from engine.contract import (
    parse_board,
    parse_hand,
    parse_request,
    parse_side,
    parse_team_request,
    score_request,
)
from engine.errors import ScoringError
from engine.estimate import (
    Estimate,
    Playouts,
    estimate,
    hands_left,
    intervals,
    room_pace,
    running_behind,
)
from engine.games import GameSummary, Pair
from engine.hands import (
    MAX_DEADWOOD,
    Card,
    HandCards,
    HandInput,
    HandKind,
    HandScore,
    Result,
    Side,
)
from engine.limits import largest_deal, largest_match_total
from engine.match import MatchSheet, MatchState, MatchSummary, ScoredHand, preview_hand, score_match
from engine.rules import (
    KNOB_RANGES,
    KNOBS,
    MAX_HANDS,
    PRESETS,
    TEAM_KNOBS,
    TEAM_PRESETS,
    Deal,
    Format,
    OklahomaAce,
    Opponents,
    RuleSet,
    Shutout,
    Tie,
    check_knob,
    preset_names,
    resolve_rules,
)
from engine.teams import (
    BoardInput,
    DealScore,
    ScoredDeal,
    Seats,
    TeamSheet,
    deals_of,
    pairing,
    score_boards,
    score_deal,
    score_played,
    score_team_match,
)
from engine.timing import points_at_call, time_basis, time_leader

__all__ = [
    "KNOBS",
    "KNOB_RANGES",
    "MAX_DEADWOOD",
    "MAX_HANDS",
    "PRESETS",
    "TEAM_KNOBS",
    "TEAM_PRESETS",
    "BoardInput",
    "Card",
    "Deal",
    "DealScore",
    "Estimate",
    "Format",
    "GameSummary",
    "HandCards",
    "HandInput",
    "HandKind",
    "HandScore",
    "MatchSheet",
    "MatchState",
    "MatchSummary",
    "OklahomaAce",
    "Opponents",
    "Pair",
    "Playouts",
    "Result",
    "RuleSet",
    "Ruling",
    "ScoredDeal",
    "ScoredHand",
    "ScoringError",
    "Seats",
    "Settled",
    "Shutout",
    "Side",
    "TeamSheet",
    "Tie",
    "check_knob",
    "deals_of",
    "estimate",
    "hands_left",
    "intervals",
    "largest_deal",
    "largest_match_total",
    "pairing",
    "parse_board",
    "parse_hand",
    "parse_request",
    "parse_side",
    "parse_team_request",
    "points_at_call",
    "preset_names",
    "preview_hand",
    "resolve_rules",
    "room_pace",
    "rule",
    "running_behind",
    "score_boards",
    "score_deal",
    "score_hand",
    "score_match",
    "score_played",
    "score_request",
    "score_team_match",
    "settle",
    "time_basis",
    "time_leader",
]
