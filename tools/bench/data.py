"""Played tournaments for the bench and the load test, stored as the app stores them.

Entering ~15,000 hands one ``record_hand`` at a time takes minutes (each call locks the
match, reloads and rescores it, and writes the hand, the summary and an audit row), so
:func:`store_hands` writes a whole match in one go instead: the same Hand rows, the match
summary through :func:`tournaments.services.set_match_progress` (the service
``record_hand`` itself uses), the rules lock, and one "hand entered" audit row per hand.
``tests/bench/test_bench_smoke.py`` proves the stored rows equal what ``record_hand``
stores for the same hands. Results are then confirmed with the real ``confirm_match``, so
every later round is routed by the app itself.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from django.db import transaction

from demo.hands import match_hands
from engine import MatchSheet, RuleSet, score_match
from scoring import loading, services
from scoring.loading import HandData
from scoring.models import Hand
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Match, Tournament
from tournaments.public_version import changed


def hand_seed(tag: str, key: str) -> int:
    """A stable seed for the demo hands of match ``key`` (reproducible across runs)."""
    return zlib.crc32(f"{tag}:{key}".encode())


def long_seed(rules: RuleSet, at_least: int, start: int = 0) -> int:
    """The first seed from ``start`` whose demo match lasts at least ``at_least`` hands."""
    seed = start
    while sum(1 for _ in match_hands(rules, seed=seed)) < at_least:
        seed += 1
    return seed


def _account(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def store_hands(
    match: Match, hands: Iterable[HandData], *, user: Any = None, via: str = ""
) -> MatchSheet:
    """Store ``hands`` as hands 1..n of a match that has none, as ``record_hand`` would.

    ``hands`` must be a match's opening hands in which only the last may decide it (as
    :func:`demo.hands.match_hands` gives them), so the status goes READY → IN_PLAY
    (hand 1) → AWAITING (if the last decides) exactly as hand-by-hand entry moves it.
    """
    data = [hand.cleaned() for hand in hands]
    if not data:
        raise ValueError("no hands to store")
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("tournament").get(pk=match.pk)
        if match.hands.exists():
            raise ValueError(f"match {match.key} has hands already")
        tournament = match.tournament
        rules = tournament.ruleset
        dealer = loading.first_dealer(match)
        inputs = [hand.to_input() for hand in data]
        sheet = score_match(rules, inputs, dealer)  # refuses bad hands before any write
        rows = Hand.objects.bulk_create(
            Hand(
                match=match,
                number=number,
                entered_by=_account(user),
                entered_via=via,
                **asdict(hand),
            )
            for number, hand in enumerate(data, start=1)
        )
        if any(row.pk is None for row in rows):  # a backend that returns no ids
            pks = Hand.objects.filter(match=match).order_by("number").values_list("pk", flat=True)
            for row, pk in zip(rows, pks, strict=True):
                row.pk = pk
        services.store_summary(match, score_match(rules, inputs[:1], dealer), user=user, via=via)
        if len(data) > 1:
            services.store_summary(match, sheet, user=user, via=via)
        if tournament.rules_locked_at is None:
            tournament_services.lock_rules(tournament=tournament, user=user, via=via)
        AuditEntry.objects.bulk_create(
            AuditEntry(
                tournament=tournament,
                action="hand entered",
                object_type="hand",
                object_id=str(row.pk),
                after={"match": match.key, "number": row.number, **asdict(hand)},
                user=_account(user),
                via=via[:120],
            )
            for row, hand in zip(rows, data, strict=True)
        )
        changed(tournament)
    return sheet


def ready_matches(tournament: Tournament) -> list[Match]:
    return [
        match
        for match in Match.objects.filter(
            tournament=tournament, status=Match.Status.READY
        ).order_by("round", "section", "position", "pk")
        if match.has_both_sides
    ]


def play_out(tournament: Tournament, *, user: Any, tag: str = "bench") -> int:
    """Play and confirm every match of ``tournament`` round by round; returns hands stored."""
    rules = tournament.ruleset
    stored = 0
    with transaction.atomic():
        while ready := ready_matches(tournament):
            for match in ready:
                hands = list(match_hands(rules, seed=hand_seed(tag, match.key)))
                store_hands(match, hands, user=user)
                stored += len(hands)
                tournament_services.confirm_match(match=match, user=user)
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.FINISHED:
        raise RuntimeError(f"{tournament.slug} did not finish: {tournament.status}")
    return stored


def new_tournament(
    players: int, *, owner: Any, name: str, rules: dict[str, Any] | None = None, **fields: Any
) -> Tournament:
    """A running tournament of ``players`` seeded players with its bracket generated."""
    from tests.factories import make_bracket

    return make_bracket(players=players, owner=owner, name=name, rules=rules, **fields)


def check_summaries(tournament: Tournament) -> list[str]:
    """How stored summaries differ from the engine's view of the hands (verify_tournament)."""
    from archive.verify import verify

    return [str(difference) for difference in verify(tournament)[1]]
