"""Reading a team tournament's archive: a team entry's fields and a team match's boards.

Kept apart from :mod:`archive.reading`, which calls it for every entry and every match
(``team_size`` 1: nothing to do).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import HandInput, RuleSet, ScoredHand, Side, deals_of, score_match, score_team_match
from tournaments.models import Entry

from .schema import ENTRY_TEAM_FIELDS, ArchiveError


def check_team(
    data: Mapping[str, Any], where: str, player: int, player_count: int, team_size: int
) -> tuple[str, list[int]] | None:
    """An entry's team name and its players' indexes in seat order (None: a player, in a
    head-to-head tournament). In a team tournament every entry is a team of ``team_size``,
    the first of them the entry's ``player``."""
    given = [key for key in ENTRY_TEAM_FIELDS if key in data]
    if team_size == 1:
        if given:
            raise ArchiveError(f"{where}: a team, but the rules are head to head")
        return None
    if len(given) != len(ENTRY_TEAM_FIELDS):
        raise ArchiveError(f"{where}: not a team, but the rules want teams")
    name = data["team_name"]
    limit = Entry._meta.get_field("team_name").max_length
    if not isinstance(name, str) or not name.strip() or len(name) > limit:
        raise ArchiveError(f"{where}.team_name must be a name of 1 to {limit} characters")
    members = data["members"]
    if not isinstance(members, list) or len(members) != team_size:
        raise ArchiveError(f"{where}.members must name {team_size} players")
    for seat, value in enumerate(members):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < player_count:
            raise ArchiveError(f"{where}.members[{seat}] refers to no player")
    if members[0] != player or len(set(members)) != len(members):
        raise ArchiveError(f"{where}.members must start with the entry's player and name each once")
    return name, list(members)


def scored_boards(
    rules: RuleSet, hands: Sequence[HandInput], dealer: Side | None
) -> list[ScoredHand]:
    """Every hand of a match scored, in order: head to head, or a team match's boards
    deal by deal (a board's ``number``, ``game`` and ``columns`` are not reported)."""
    if not rules.is_team:
        return list(score_match(rules, hands, dealer).hands)
    team = score_team_match(rules, deals_of(rules, hands), dealer)
    return [
        ScoredHand(0, board.hand, score, None, (), None)
        for deal in team.deals
        for board, score in zip(deal.boards, deal.score.boards, strict=True)
    ]
