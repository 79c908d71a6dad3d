"""Issue 41's invariant: a creation form the director sent again from a second render
(Back and submit, :meth:`.driver.Event.back_and_submit`) was asked about and made nothing
more: the event's tournament is the only one of its name and date, and no two of its stages
are the same stage."""

from __future__ import annotations

from collections import Counter

from tournaments.models import Stage, Tournament

from .driver import Event
from .problems import Problem

SAME_STAGE = ("name", "kind", "rounds", "pool_size", "advance", "third_place")


def made_once(event: Event) -> list[Problem]:
    tournament = event.tournament
    problems = []
    if event.repeats_asked != event.repeats_sent:
        sent, asked = event.repeats_sent, event.repeats_asked
        problems.append(Problem("creation forms", "", f"sent again {sent} times, asked {asked}"))
    twins = Tournament.objects.filter(name=tournament.name, date=tournament.date).count()
    if twins != 1:
        problems.append(
            Problem("creation forms", "", f"{twins} tournaments named {tournament.name!r}")
        )
    stages = Counter(
        Stage.objects.filter(tournament=tournament).values_list(*SAME_STAGE).order_by()
    )
    problems += [
        Problem("creation forms", "", f"the stage {same[0]!r} made {count} times")
        for same, count in stages.items()
        if count > 1
    ]
    return problems
