"""The hand entry form: types and ranges here, the rules of gin in the engine."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import (
    MAX_DEADWOOD,
    MAX_HANDS,
    HandCards,
    HandKind,
    RuleSet,
    Ruling,
    ScoredHand,
    ScoringError,
    rule,
    settle,
)
from tournaments.models import Match

from . import loading
from .loading import HandData
from .models import Hand

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARD_RANKS = "A23456789TJQK"
SUITS = [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]
RESULT_NAMES = {
    "knock": _("knock"),
    "undercut": _("undercut"),
    "tie": _("tie"),
    "gin": _("gin"),
    "big_gin": _("big gin"),
    "draw": _("dead hand"),
}
MISSING = {
    "kind": _("Say how the hand ended."),
    "by": _("Say who went out."),
    "deadwood": _("Enter the knocker's deadwood."),
    "defender_deadwood": _("Enter the opponent's deadwood."),
    "knock_card": _("Pick the knock card."),
}
SUIT_NAMES = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}


def sentence(text: str) -> str:
    """An engine message ("deadwood 12 is over the knock limit") as a sentence for the
    form: capital first letter, a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:" else f"{text}."


def labelled_problem(error: ScoringError, fields: Mapping[str, Any], prefix: str = "") -> str:
    """The engine's refusal, translated, with the form field it names (``%(field)s``:
    ``defender_deadwood``) said by that field's translated label (the field is
    ``prefix`` + its name in ``fields``)."""
    params = dict(error.params)
    field = fields.get(f"{prefix}{params.get('field')}")
    if field is not None and field.label:
        params["field"] = str(field.label)
    return gettext(error.template) % params


def card_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", _("— knock card —"))]
    for suit, symbol in SUITS:
        group = [(f"{'T' if rank == '10' else rank}{suit}", f"{rank}{symbol}") for rank in RANKS]
        choices.append((SUIT_NAMES[suit], group))
    return choices


@functools.cache
def kind_choices(*, knock: bool, big_gin: bool) -> list[tuple[str, Any]]:
    """The ways a hand can end under rules that allow knocking and big gin or not."""
    kinds = [Hand.Kind.KNOCK] if knock else []
    kinds += [Hand.Kind.GIN, Hand.Kind.BIG_GIN] if big_gin else [Hand.Kind.GIN]
    return [(kind.value, kind.label) for kind in [*kinds, Hand.Kind.DRAW]]


class WrittenOut(forms.Widget):
    """The hand form's inputs are written out in ``scoring/partials/hand_fields.html``, so its
    fields need a widget only to read the POST. Django copies every field and widget for
    each form, twice per hand entered; a plain widget keeps that cheap (a radio or
    select widget copies and re-checks its choices)."""

    template_name = ""


class WrittenOutCards(WrittenOut):
    """The card picker's checkboxes: every card ticked under one name."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        getlist = getattr(data, "getlist", None)
        if getlist is not None:
            return list(getlist(name))
        value = data.get(name)
        return list(value) if isinstance(value, list | tuple) else []


class CardsField(forms.Field):
    """The cards ticked for one hand, as codes (``"TS"``). A plain field, not a
    MultipleChoiceField: Django copies each field for every form, and 52 choices each
    time would weigh on every hand entered."""

    widget = WrittenOutCards
    default_error_messages = {"invalid": _("%(value)s is not a card.")}

    def to_python(self, value: Any) -> list[str]:
        return [str(code) for code in value or []]

    def validate(self, value: list[str]) -> None:
        for code in value:
            if code not in CARD_CODES:
                raise forms.ValidationError(
                    self.error_messages["invalid"], code="invalid", params={"value": code}
                )


def cards_field(label: Any) -> CardsField:
    """One hand's cards as a field of ticked card boxes (optional: a hand may be entered by
    its counts). The hand form's two hands, and the dispute page's, are such fields."""
    return CardsField(label=label, required=False)


CARD_CODES = frozenset(f"{rank}{suit}" for suit in "SHDC" for rank in CARD_RANKS)


class CardPicker:
    """The card picker's side of a form (``knocker_cards``, ``defender_cards``): what was
    ticked, as sent or as the hand being corrected has it (``initial["cards"]``)."""

    is_bound: bool
    data: Any
    initial: dict[str, Any]
    fields: dict[str, forms.Field]
    cleaned_data: dict[str, Any]

    @property
    def picked_counts(self) -> dict[str, int]:
        knocker, defender = len(self.picked("knocker_cards")), len(self.picked("defender_cards"))
        return {"knocker_cards": knocker, "defender_cards": defender, "any": knocker + defender}

    def picked(self, name: str) -> list[str]:
        """The cards ticked under ``name`` as sent, or as the hand being corrected has them."""
        if self.is_bound:
            return self.fields[name].widget.value_from_datadict(self.data, None, name)
        cards = self.initial.get("cards") or {}
        return list(cards.get(name.removesuffix("_cards"), []))

    def cards(self) -> dict[str, list[str]] | None:
        data = self.cleaned_data
        knocker, defender = data.get("knocker_cards"), data.get("defender_cards")
        return {"knocker": knocker, "defender": defender} if knocker or defender else None


class HandForm(CardPicker, forms.Form):
    """One hand. ``number`` travels with every entry so a repeat is recognised, not doubled."""

    number = forms.IntegerField(min_value=1, max_value=MAX_HANDS, widget=WrittenOut)
    # Not required as such: entered from the cards, the cards say (checked in clean()).
    kind = forms.ChoiceField(label=_("How did the hand end?"), widget=WrittenOut, required=False)
    by = forms.ChoiceField(label=_("Who went out?"), widget=WrittenOut, required=False)
    deadwood = forms.IntegerField(
        label=_("Knocker's deadwood"),
        min_value=0,
        max_value=MAX_DEADWOOD,
        required=False,
        widget=WrittenOut,
    )
    defender_deadwood = forms.IntegerField(
        label=_("Opponent's deadwood (after lay-offs)"),
        min_value=0,
        max_value=MAX_DEADWOOD,
        required=False,
        widget=WrittenOut,
    )
    knock_card = forms.ChoiceField(label=_("Knock card"), required=False, widget=WrittenOut)
    knocker_cards = cards_field(_("Cards of the player who went out"))
    defender_cards = cards_field(_("Cards of the opponent"))

    def __init__(
        self,
        *args: Any,
        match: Match,
        hands: Sequence[Hand] | None,
        replacing: int | None = None,
        next_number: int | None = None,
        **kwargs: Any,
    ) -> None:
        """``hands`` are the match's hands so far; None when the caller lets the service
        check the hand against them (entering a hand: the service does it in its
        transaction, so the rules run once). ``next_number`` labels a fresh form then."""
        super().__init__(*args, **kwargs)
        self.match = match
        self.hands = hands
        self.replacing = replacing
        self.preview: ScoredHand | None = None
        self.ruling: Ruling | None = None  # what the cards say, when they were picked
        self.cards_incomplete = False
        self.missing: list[str] = []  # labels of required fields left empty
        # The live preview (only #hand-preview swapped) repeats the field errors there;
        # a whole form shows each next to its field, once.
        self.live_preview = False
        rules: RuleSet = match.ruleset
        # The engine refuses more than the rules allow (98, or more when an ace counts
        # more than 10); the browser is told the same.
        self.max_deadwood = rules.max_deadwood
        self.fields["kind"].choices = kind_choices(
            knock=rules.oklahoma or rules.knock_limit > 0, big_gin=rules.big_gin_bonus is not None
        )
        self.fields["by"].choices = [("A", match.side_name("A")), ("B", match.side_name("B"))]
        if rules.oklahoma:
            self.fields["knock_card"].choices = card_choices()
        else:
            del self.fields["knock_card"]
        if hands is None and next_number is None and self.is_bound:
            # A form sent back with errors stays the hand it was (no first-dealer
            # question on hand 7).
            posted = str(self.data.get("number", ""))
            fits = posted.isdigit() and len(posted) <= len(str(MAX_HANDS))
            next_number = int(posted) if fits else None
        count = len(hands) if hands is not None else (next_number or 1) - 1
        if replacing is None and count == 0 and not match.first_dealer:
            self.fields["first_dealer"] = forms.ChoiceField(
                label=_("Who dealt the first hand?"),
                choices=self.fields["by"].choices,
                widget=WrittenOut,
                required=False,
                help_text=_("Optional: the sheet then shows who deals each hand."),
            )
        self.fields["number"].initial = replacing if replacing is not None else count + 1

    @property
    def first_error(self) -> str:
        """The name of the first field in the form with an error: it takes the focus."""
        errors = self.errors if self.is_bound else {}
        return next((name for name in self.fields if name in errors), "")

    @property
    def asks_dealer(self) -> bool:
        return "first_dealer" in self.fields

    @property
    def takes_knock_card(self) -> bool:
        return "knock_card" in self.fields

    @property
    def card_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The knock card choices as (group, options) pairs; the blank choice has no group."""
        groups: list[tuple[str, list[tuple[str, str]]]] = []
        for value, label in self.fields["knock_card"].choices:
            if isinstance(label, list | tuple):
                groups.append((str(value), [(v, str(text)) for v, text in label]))
            else:
                groups.append(("", [(value, str(label))]))
        return groups

    @property
    def preview_winner(self) -> str:
        winner = self.preview.score.winner if self.preview else None
        return self.match.side_name(winner.value) if winner else ""

    @property
    def preview_result(self) -> str:
        return RESULT_NAMES[self.preview.score.result.value] if self.preview else ""

    def hand_data(self) -> HandData:
        data = self.cleaned_data
        return HandData(
            kind=data.get("kind") or "",
            by=data.get("by") or "",
            deadwood=data.get("deadwood"),
            defender_deadwood=data.get("defender_deadwood"),
            knock_card=data.get("knock_card") or "",
            cards=self.cards(),
        )

    def required_fields(self, kind: str) -> list[str]:
        if kind == Hand.Kind.DRAW:
            return []
        needed = ["by", "defender_deadwood"]
        if kind == Hand.Kind.KNOCK:
            needed.insert(1, "deadwood")
        if "knock_card" in self.fields:
            needed.append("knock_card")
        return needed

    def _settle_from_cards(self, data: dict[str, Any]) -> None:
        """Take the kind and the counts from the picked cards, or say where the typed ones
        disagree with them (naming both numbers); nothing is saved then."""
        if data.get("kind") == Hand.Kind.DRAW:
            self.add_error("knocker_cards", gettext("A dead hand has no cards to settle."))
            return
        rules: RuleSet = self.match.ruleset
        cards = self.cards()
        assert cards is not None
        # Still picking: the preview says how far along, rather than an error.
        self.cards_incomplete = len(cards["knocker"]) < 10 or len(cards["defender"]) < 10
        try:
            hand_cards = HandCards.parse(cards)
            self.ruling = rule(hand_cards)
            kind = data.get("kind")
            settled = settle(
                rules,
                hand_cards,
                kind=HandKind(kind) if kind else None,
                deadwood=data.get("deadwood"),
                defender_deadwood=data.get("defender_deadwood"),
            )
        except ScoringError as error:
            field = (
                error.field if error.field in ("kind", "deadwood", "defender_deadwood") else None
            )
            self.add_error(field or "knocker_cards", sentence(labelled_problem(error, self.fields)))
            return
        data["kind"] = settled.kind.value
        data["deadwood"] = settled.deadwood
        data["defender_deadwood"] = settled.defender_deadwood

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        number = data.get("number")
        hands = self.hands
        if (
            self.replacing is None
            and hands is not None
            and number is not None
            and number <= len(hands)
        ):
            # A double tap or a second device: say so, rather than scoring the hand as the
            # next one (which, after the deciding hand, fails with a confusing message).
            self.add_error(
                None, gettext("Hand %(number)d is already entered.") % {"number": number}
            )
            return data
        if self.errors:
            return data
        if self.cards() is not None:
            self._settle_from_cards(data)
            if self.errors:
                return data
        if not data.get("kind"):
            self.missing.append(str(self.fields["kind"].label))
            self.add_error("kind", MISSING["kind"])
            return data
        for name in self.required_fields(data["kind"]):
            if data.get(name) in (None, ""):
                self.missing.append(str(self.fields[name].label))
                self.add_error(name, MISSING[name])
        if self.missing or hands is None:
            return data
        hand = self.hand_data()
        earlier = hands if self.replacing is None else hands[: self.replacing - 1]
        try:
            self.preview = loading.preview(
                self.match, earlier, hand, dealer=data.get("first_dealer") or None
            )
        except ScoringError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, sentence(labelled_problem(error, self.fields)))
        return data


class DisputeForm(CardPicker, forms.Form):
    """Both hands' cards (and the knock card under Oklahoma) for the director's ruling
    on a dispute (:mod:`scoring.views.disputes`); nothing is saved."""

    knocker_cards = cards_field(_("Cards of the player who went out"))
    defender_cards = cards_field(_("Cards of the opponent"))
    knock_card = forms.ChoiceField(label=_("Knock card"), required=False)

    def __init__(self, *args: Any, rules: RuleSet, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        if rules.oklahoma:
            self.fields["knock_card"].choices = card_choices()
        else:
            del self.fields["knock_card"]

    takes_knock_card = HandForm.takes_knock_card
    card_groups = HandForm.card_groups
