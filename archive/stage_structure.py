"""The shape of a stage, checked as the stage forms and the cut make it: what
``import_tournament`` refuses and ``verify_tournament`` reports (with
:mod:`archive.structure`, the bracket's shape).

* A player plays in a stage once: no entry twice among its entrants, nor in its pools
  (twice in one pool, or in two pools). A stage that lists a player twice breaks every
  page that shows it.
* How many advance is within the stage form's limits (2 to ``MAX_ADVANCE``); the rounds
  and pool size are the model's to check (its validators).

Entries are whatever the caller identifies them by (archive indexes, database ids).
Nothing here reads or writes the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.models import Stage
from tournaments.models.stages import MAX_ADVANCE

from .structure import Problem


def stage_problems(
    stage: Stage, entrants: Sequence[Any], pools: Sequence[Sequence[Any]]
) -> list[Problem]:
    """Every problem with the shape of ``stage``, its ``entrants`` and its ``pools``."""
    where = stage.key_prefix
    found = []
    if stage.advance is not None and not 2 <= stage.advance <= MAX_ADVANCE:
        text = f"{stage.advance} is outside the stage form's limits (2 to {MAX_ADVANCE})"
        found.append(Problem(where, "advance", text))
    if len(set(entrants)) != len(entrants):
        found.append(Problem(where, "entrants", "a player appears twice"))
    members = [entry for pool in pools for entry in pool]
    if len(set(members)) != len(members):
        found.append(Problem(where, "pools", "a player appears twice (in one pool or in two)"))
    return found
