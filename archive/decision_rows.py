"""The decisions of an archive (issue 28), read and checked (see :mod:`archive.api` and
:data:`archive.schema.DECISION_FIELDS`).

An archive from before decisions has no ``"decisions"``: nothing to read. Otherwise each
row names a match of the archive by key, its players by entry index and who decided by
username; its kind and side are checked as the model checks them, its basis is a JSON
object. Whether a decision agrees with the match's hands is ``verify_tournament``'s
business (:mod:`archive.decisions_check`), as it is for a match's stored summary.
Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import Decision, Match

from .fields import Record, quote, read_json, read_list
from .schema import DECISION_FIELDS, DECISION_REFS, ArchiveError


@dataclass
class DecisionPlan:
    decision: Decision
    match: str
    entry: int | None
    replaced: int | None
    by: str | None


def check_decisions(data: Any, matches: dict[str, Match], entry_count: int) -> list[DecisionPlan]:
    plans = []
    for i, raw in enumerate(read_list(data, "decisions")):
        record = Record(raw, f"decisions[{i}]", (*DECISION_REFS, *DECISION_FIELDS))
        key = record["match"]
        if not isinstance(key, str) or key not in matches:
            raise ArchiveError(f"{record.at('match')} refers to no match: {quote(key)}")
        values = record.fields(Decision, DECISION_FIELDS)
        basis = read_json(values["basis"], record.at("basis"))
        if not isinstance(basis, dict):
            raise ArchiveError(f"{record.at('basis')} must be an object, not {quote(basis)}")
        values["basis"] = basis
        plans.append(
            DecisionPlan(
                Decision(**values),
                key,
                record.index("entry", entry_count),
                record.index("replaced", entry_count),
                record.username("by"),
            )
        )
    return plans
