"""The director's dispute page: both hands' cards in, the ruling out (melds, lay-offs,
deadwood, whether the knock is legal, and what the hand scores under the tournament's
rules). Nothing is saved; the form is a GET, so a ruling is a link that can be shared.

Directors of the tournament only (``manage_view`` checks it on the server)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from engine import (
    HandCards,
    HandInput,
    HandScore,
    RuleSet,
    Ruling,
    ScoringError,
    Side,
    rule,
    score_hand,
    settle,
)
from engine.hands import Card, knock_limit
from tournaments.models import Tournament
from tournaments.views.base import manage_view
from web.pages import page

from ..forms import RESULT_NAMES, DisputeForm


@dataclass(frozen=True)
class Verdict:
    """The ruling on both hands and what it means under the rules."""

    ruling: Ruling
    limit: int | None
    """The knock limit of this hand (None: no knock card chosen yet, under Oklahoma)."""
    score: HandScore | None
    problem: str
    """Why the rules refuse the hand (an illegal knock, say), or empty."""

    @property
    def knock_legal(self) -> bool:
        return self.problem == "" and self.score is not None

    @property
    def result(self) -> str:
        return str(RESULT_NAMES[self.score.result.value]) if self.score else ""

    @property
    def winner_went_out(self) -> bool:
        return self.score is not None and self.score.winner is Side.A


def verdict(rules: RuleSet, cards: HandCards, knock_card: Card | None) -> Verdict:
    """Rule on ``cards`` (the knocker is side A here) under ``rules``."""
    ruling = rule(cards)
    limit = None if rules.oklahoma and knock_card is None else knock_limit(rules, knock_card)
    try:
        settled = settle(rules, cards)
        hand = HandInput(
            settled.kind,
            Side.A,
            settled.deadwood,
            settled.defender_deadwood,
            knock_card,
        )
        return Verdict(ruling, limit, score_hand(rules, hand), "")
    except ScoringError as error:
        return Verdict(ruling, limit, None, error.problem(gettext))


@require_GET
@manage_view
def dispute(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rules = tournament.ruleset
    bound = "knocker_cards" in request.GET or "defender_cards" in request.GET
    form = DisputeForm(request.GET if bound else None, rules=rules)
    result: Verdict | None = None
    if bound and form.is_valid():
        try:
            cards = HandCards.parse(form.cards() or {"knocker": [], "defender": []})
            text = form.cleaned_data.get("knock_card")
            result = verdict(rules, cards, Card.parse(text) if text else None)
        except ScoringError as error:
            form.add_error("knocker_cards", error.problem(gettext))
    context = {"tournament": tournament, "section": "dispute", "form": form, "verdict": result}
    return page(request, "scoring/dispute.html", context)
