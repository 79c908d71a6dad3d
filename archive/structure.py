"""The shape of a stored bracket, checked: what ``import_tournament`` refuses and
``verify_tournament`` reports besides the scores.

* A bracket only moves on. Every route (where the winner goes, where the loser goes)
  leads to a later round of the same section, or on to a later section: winners' to
  losers', grand final, third place or consolation; losers' to the grand final; grand
  final to the reset. So the routes can hold no cycle. Each slot is fed by one route
  at most.
* A slot fed by a finished match holds what that match sent: its winner, or its loser
  (nobody, from a bye of nobody, or into a reset that was not needed); a slot fed by an
  unfinished match holds nobody yet.
* A bye is complete and no walkover. It has one player, who won it, or none at all (a
  bye of nobody, a reset that was not needed), or two who both withdrew.
* A played or walked-over match (complete, not a bye) has two players.
* Every table-link token has the shape ``new_token`` gives it.

Entries are whatever the caller identifies them by (archive indexes, database ids).
Nothing here reads or writes the database.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.models import Match, is_token

Section = Match.Section
Status = Match.Status

# Where a route from each section may lead (within a section: only to a later round).
ONWARD: dict[str, frozenset[str]] = {
    Section.WINNERS: frozenset(
        {Section.WINNERS, Section.LOSERS, Section.FINAL, Section.THIRD_PLACE, Section.CONSOLATION}
    ),
    Section.LOSERS: frozenset({Section.LOSERS, Section.FINAL}),
    Section.FINAL: frozenset({Section.RESET}),
    Section.CONSOLATION: frozenset({Section.CONSOLATION}),
}
ROUTES = (("next_match", "next_slot", "winner"), ("loser_next_match", "loser_next_slot", "loser"))


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with the shape of match ``match`` (its key), in ``field``."""

    match: str
    field: str
    text: str

    def __str__(self) -> str:
        return f"{self.match}  {self.field}: {self.text}"


def check_bracket(
    matches: Sequence[Match],
    sides: Mapping[str, tuple[Any, Any]],
    routes: Mapping[str, tuple[str | None, str | None]],
    withdrawn: Collection[Any],
) -> list[Problem]:
    """Every problem with the shape of ``matches``: ``sides`` holds each match's two
    entries (None: nobody) and ``routes`` the keys its winner and loser go to, by key;
    ``withdrawn`` the entries that withdrew. Routes to unknown keys are the caller's to
    refuse; they are skipped here."""
    by_key = {match.key: match for match in matches}
    found: list[Problem] = []
    for match in matches:
        if not is_token(match.token):
            found.append(Problem(match.key, "token", "is not a table-link token"))
        found += _bye(match, sides[match.key], withdrawn)
    found += _routes(by_key, sides, routes)
    return found


def _bye(match: Match, sides: tuple[Any, Any], withdrawn: Collection[Any]) -> list[Problem]:
    filled = [side for side, entry in zip("AB", sides, strict=True) if entry is not None]
    complete = match.status == Status.COMPLETE
    if not match.is_bye:
        if complete and len(filled) < 2:
            return [Problem(match.key, "status", "a played or walked-over match has 2 players")]
        return []
    if not complete:
        return [Problem(match.key, "is_bye", "a bye is complete from the start")]
    if match.forfeit:
        return [Problem(match.key, "forfeit", "a bye is not a walkover")]
    if match.winner_side:
        if filled != [match.winner_side]:
            return [Problem(match.key, "is_bye", "a bye has one player, and that player won it")]
    elif filled and not (len(filled) == 2 and all(entry in withdrawn for entry in sides)):
        return [Problem(match.key, "is_bye", "a bye nobody won has no player (or 2 withdrawn)")]
    return []


def _routes(
    by_key: Mapping[str, Match],
    sides: Mapping[str, tuple[Any, Any]],
    routes: Mapping[str, tuple[str | None, str | None]],
) -> list[Problem]:
    found: list[Problem] = []
    fed: dict[tuple[str, str], str] = {}
    for key, targets in routes.items():
        match = by_key[key]
        for target_key, (field, slot_field, role) in zip(targets, ROUTES, strict=True):
            slot = getattr(match, slot_field)
            if target_key is None:
                if slot:
                    found.append(Problem(key, slot_field, f"is {slot}, but {field} is empty"))
                continue
            target = by_key.get(target_key)
            if target is None:
                continue
            if slot not in ("A", "B"):
                found.append(
                    Problem(key, slot_field, f"must be A or B: {field} leads to {target_key}")
                )
                continue
            if not _onward(match, target):
                found.append(
                    Problem(
                        key,
                        field,
                        f"leads to {target_key}, which is not later in the bracket "
                        "(a result only moves on to a later round or section)",
                    )
                )
                continue
            if (target_key, slot) in fed:
                found.append(
                    Problem(
                        key,
                        field,
                        f"{target_key} side {slot} is fed by {fed[target_key, slot]} too",
                    )
                )
                continue
            fed[target_key, slot] = key
            problem = _arrived(match, role, target, sides[target_key]["AB".index(slot)], sides)
            if problem:
                found.append(Problem(target_key, f"side_{slot.lower()}", problem))
    return found


def _onward(match: Match, target: Match) -> bool:
    if target.section == match.section:
        return target.section in ONWARD and target.round > match.round
    return target.section in ONWARD.get(match.section, ())


def _arrived(
    match: Match, role: str, target: Match, holder: Any, sides: Mapping[str, tuple[Any, Any]]
) -> str:
    """What is wrong with who sits in the slot ``match`` feeds with its ``role`` (winner or
    loser), or "" if nothing is."""
    if match.status != Status.COMPLETE:
        expected = None
        why = f"should be empty until {match.key} is complete"
    elif target.is_bye and target.conditional and not target.winner_side:
        expected, why = None, "should be empty: the reset was not needed"
    elif not match.winner_side:
        expected, why = None, f"should be empty: {match.key} sent nobody"
    else:
        side = match.winner_side if role == "winner" else {"A": "B", "B": "A"}[match.winner_side]
        expected = sides[match.key]["AB".index(side)]
        why = f"should hold the {role} of {match.key}"
    return "" if holder == expected else why
