"""Replaying a match's decisions (:class:`tournaments.models.Decision`) against its hands and
its stored summary, for :mod:`archive.verify`.

* **on time**: the hands the decision read are the match's hands; the side it names leads
  on them (:func:`engine.time_leader`), and the score at the call it stored is
  theirs (:func:`engine.time_basis`); the match is complete, decided on time,
  won by that side.
* **a ruling** on a level match: the same, except that the hands leave the match level.
* **a walkover**: the match is complete, a walkover, won by the side the decision names
  (by the other side's withdrawal: that side's player is the one who withdrew).
* **a bye**: the match is a bye, won by the player the decision names.
* **a lucky loser**: the latest one of each side sits in that side, and the stage has
  them among its entrants in place of the player they replaced.

A match has at most one decision of its result. Nothing here reads the database except
the names of players shown in a difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import MatchSheet, time_basis, time_leader
from tournaments.models import Decision, Match

Kind = Decision.Kind
Status = Match.Status


@dataclass(frozen=True, slots=True)
class Difference:
    match: str
    field: str
    stored: object
    computed: object

    def __str__(self) -> str:
        stored, computed = show(self.stored), show(self.computed)
        return f"{self.match}  {self.field}: stored {stored}, computed {computed}"


def show(value: object) -> str:
    return "none" if value in ("", None) else str(value)


def check_decisions(
    match: Match, sheet: MatchSheet | None, decisions: Sequence[Decision], played: int = 0
) -> list[Difference]:
    """How ``match`` (its summary, and ``sheet``, the engine's reading of its ``played``
    hands; None for a bye) disagrees with its ``decisions``."""
    found: list[Difference] = []

    def differ(field: str, stored: object, computed: object) -> None:
        found.append(Difference(match.key, field, stored, computed))

    results = [d for d in decisions if d.kind in Decision.RESULTS]
    if len(results) > 1:
        differ("decisions", f"{len(results)} of the result", "at most one")
        return found
    latest: dict[str, Decision] = {}
    for decision in sorted(decisions, key=lambda d: (d.at, d.pk or 0)):
        if decision.kind == Kind.LUCKY_LOSER:
            latest[decision.side] = decision
    for decision in latest.values():
        found += _lucky_loser(match, decision)
    if not results:
        return found
    decision = results[0]
    if decision.kind == Kind.BYE:
        found += _bye(match, decision)
    elif decision.kind == Kind.WALKOVER:
        found += _walkover(match, decision)
    elif sheet is not None:
        found += _on_time(match, decision, sheet, played)
    else:
        differ("decision", f"{decision.get_kind_display()} for {decision.side}", "a bye")
    return found


def _on_time(match: Match, decision: Decision, sheet: MatchSheet, played: int) -> list[Difference]:
    found: list[Difference] = []

    def differ(field: str, stored: object, computed: object) -> None:
        found.append(Difference(match.key, field, stored, computed))

    if decision.hands != played:
        differ("decision hands", decision.hands, played)
    leader = time_leader(sheet)
    reading = f"{leader.value} leads on time" if leader else "level on time"
    if decision.kind == Kind.RULING and leader is not None:
        differ("decision", f"a ruling on a level match for {decision.side}", reading)
    elif decision.kind == Kind.TIME and (leader is None or leader.value != decision.side):
        differ("decision", f"on time for {decision.side}", reading)
    basis = decision.basis if isinstance(decision.basis, dict) else {}
    for name, computed in time_basis(sheet).items():
        if basis.get(name) != computed:
            differ(f"decision basis {name}", basis.get(name), computed)
    found += _result(match, on_time=True, winner=decision.side)
    return found


def _walkover(match: Match, decision: Decision) -> list[Difference]:
    found = []
    stored = f"walkover for {decision.side}"
    if match.status == Status.COMPLETE and match.winner_side and not match.forfeit:
        found.append(Difference(match.key, "decision", stored, "not a walkover"))
    elif decision.side != match.winner_side:
        computed = f"the match's winner is {show(match.winner_side)}"
        found.append(Difference(match.key, "decision", stored, computed))
    loser = match.entry_id({"A": "B", "B": "A"}[decision.side])
    if decision.entry_id is not None and decision.entry_id != loser:
        computed = f"{decision.entry} did not play here"
        found.append(Difference(match.key, "decision", f"{decision.entry} withdrew", computed))
    return found + _result(match, on_time=False)


def _result(match: Match, *, on_time: bool, winner: str = "") -> list[Difference]:
    """The summary of a match a decision decided: complete (won by ``winner``, when
    given), decided on time or not."""
    found = []
    if winner and match.winner_side != winner:
        computed = f"{winner} (by the decision)"
        found.append(Difference(match.key, "winner_side", match.winner_side, computed))
    if match.status != Status.COMPLETE:
        found.append(Difference(match.key, "status", match.status, Status.COMPLETE))
    if match.decided_on_time != on_time:
        found.append(Difference(match.key, "decided_on_time", match.decided_on_time, on_time))
    if on_time and match.forfeit:
        found.append(Difference(match.key, "forfeit", match.forfeit, False))
    return found


def _bye(match: Match, decision: Decision) -> list[Difference]:
    if not match.is_bye or not match.winner_side:
        return [Difference(match.key, "decision", f"a bye for {decision.entry}", "not a bye")]
    holder = match.entry_id(match.winner_side)
    if decision.side != match.winner_side or decision.entry_id != holder:
        computed = f"{match.entry(match.winner_side)} has the bye"
        return [Difference(match.key, "decision", f"a bye for {decision.entry}", computed)]
    return []


def _lucky_loser(match: Match, decision: Decision) -> list[Difference]:
    found = []
    stored = f"lucky loser {decision.entry} in side {decision.side}"
    if match.entry_id(decision.side) != decision.entry_id:
        computed = f"side {decision.side} is {match.side_name(decision.side)}"
        found.append(Difference(match.key, "decision", stored, computed))
    stage = match.stage if match.stage_id is not None else None
    entrants = {int(pk) for pk in stage.entrants} if stage is not None else set()
    if decision.entry_id not in entrants or (
        decision.replaced_id is not None and decision.replaced_id in entrants
    ):
        found.append(Difference(match.key, "decision", stored, "not among the stage's entrants"))
    return found
