"""The club's server away during the night (issue 43), the cluster phase's last step: every
node killed while the venue enters hands, started again after ``seconds``; how long until
the mirror holds every change again, counted from the first node's first answer and from
HAProxy's seeing it up (the venue's probe and its changes go through HAProxy). The
venue's back-off is then at its longest (30 s) when ``seconds`` is 45 or more: only its
probe brings it back early."""

from __future__ import annotations

import threading
import time
from typing import Any

from .cluster import Cluster


def enter_hands(tournament: Any, count: int) -> int:
    """Up to ``count`` hands at the venue, written in this process to its database: the
    next hand of matches in play, from the followed tournament's seeds; how many."""
    from demo.hands import match_hands
    from scoring.services import record_hand
    from tools.bench.data import hand_seed
    from tournaments.models import Match

    entered = 0
    playing = Match.objects.filter(tournament=tournament, status=Match.Status.IN_PLAY)
    for match in playing.order_by("pk"):
        if entered >= count:
            break
        hands = list(match_hands(tournament.ruleset, seed=hand_seed("followers", match.key)))
        number = match.hands.count() + 1
        if number <= len(hands):
            record_hand(match=match, number=number, data=hands[number - 1], via="load")
            entered += 1
    return entered


def applied(database_url: str, slug: str) -> int | None:
    import psycopg

    query = (
        "SELECT m.applied_through FROM publishing_mirror m JOIN tournaments_tournament t "
        "ON m.tournament_id = t.id WHERE t.slug = %s"
    )
    with psycopg.connect(database_url, autocommit=True) as connection:
        row = connection.execute(query, (slug,)).fetchone()
    return None if row is None else int(row[0])


def club_outage(the_set: Cluster, tournament: Any, seconds: float, hands: int = 10) -> dict:
    from django.db import connections

    from tournaments.models import AuditEntry

    killed = min(the_set.kill(node.name) for node in the_set.nodes)
    entered = enter_hands(tournament, hands)
    changes = AuditEntry.objects.filter(tournament=tournament).count()
    connections.close_all()
    time.sleep(max(0.0, killed + seconds - time.monotonic()))
    first = the_set.restart(the_set.nodes[0].name)  # the club answers again
    others = threading.Thread(
        target=lambda: [the_set.restart(node.name) for node in the_set.nodes[1:]], daemon=True
    )
    others.start()  # meanwhile: the timing starts at the first answer
    report: dict[str, Any] = {"down_s": seconds, "hands_entered": entered, "changes": changes}
    if the_set.front is not None:
        up = the_set.front.wait_for(the_set.nodes[0].name, "UP", 30)
        report["haproxy_up_after_s"] = round(up - first, 2)
    deadline = first + 120
    while applied(the_set.database_url, tournament.slug) != changes:
        if time.monotonic() > deadline:
            report["failed"] = "the mirror did not catch up within 120 s of the club's answer"
            others.join(timeout=120)
            return report
        time.sleep(0.1)
    equal = time.monotonic()
    others.join(timeout=120)
    report["equal_after_first_answer_s"] = round(equal - first, 2)
    if "haproxy_up_after_s" in report:
        report["equal_after_haproxy_up_s"] = round(equal - first - report["haproxy_up_after_s"], 2)
    return report
