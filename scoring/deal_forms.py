"""The deal form of a team match: one form, a fieldset of hand fields per board.

Each board's fields carry the prefix ``b<board>-`` (``b1-kind``, ``b2-deadwood`` …);
types and ranges are checked here, the rules of gin (and of the deal) in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import MAX_DEADWOOD, MAX_HANDS, RuleSet, Seats, pairing
from tournaments.models import Match

from .forms import MISSING, card_choices, kind_choices
from .loading import HandData
from .models import Hand


@dataclass(frozen=True)
class BoardSeats:
    """Who plays at one board of a deal: the seat and name of each team's player."""

    number: int
    seats: Seats
    a_name: str
    b_name: str


def board_seats(rules: RuleSet, deal: int, members: dict[str, list[str]]) -> list[BoardSeats]:
    """The boards of deal ``deal`` with the players' names (``members``: each side's
    players in seat order; a missing one shows as the seat number)."""

    def name(side: str, seat: int) -> str:
        names = members.get(side, [])
        return names[seat - 1] if seat <= len(names) else gettext("seat %(seat)d") % {"seat": seat}

    return [
        BoardSeats(index, seats, name("A", seats.a), name("B", seats.b))
        for index, seats in enumerate(pairing(rules, deal), start=1)
    ]


class DealForm(forms.Form):
    """A whole deal: its number, who dealt (the first deal only) and each board's hand."""

    number = forms.IntegerField(min_value=1, max_value=MAX_HANDS, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        match: Match,
        number: int,
        members: dict[str, list[str]],
        replacing: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        rules: RuleSet = match.ruleset
        self.rules = rules
        self.deal_number = number
        self.fields["number"].initial = number
        sides = [("A", match.side_name("A")), ("B", match.side_name("B"))]
        kinds = kind_choices(
            knock=rules.oklahoma or rules.knock_limit > 0, big_gin=rules.big_gin_bonus is not None
        )
        self.boards = board_seats(rules, number, members)
        for board in self.boards:
            prefix = f"b{board.number}-"
            self.fields[prefix + "kind"] = forms.ChoiceField(
                label=_("How the board ended"), choices=kinds, widget=forms.RadioSelect
            )
            self.fields[prefix + "by"] = forms.ChoiceField(
                label=_("Went out"),
                choices=[("A", board.a_name), ("B", board.b_name)],
                required=False,
                widget=forms.RadioSelect,
            )
            for field, label in (
                ("deadwood", _("Knocker's deadwood")),
                ("defender_deadwood", _("Opponent's deadwood (after lay-offs)")),
            ):
                self.fields[prefix + field] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=min(MAX_DEADWOOD, rules.max_deadwood),
                    required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
            if rules.oklahoma:
                self.fields[prefix + "knock_card"] = forms.ChoiceField(
                    label=_("Knock card"), choices=card_choices(), required=False
                )
        if number == 1 and not replacing and not match.first_dealer:
            self.fields["first_dealer"] = forms.ChoiceField(
                label=_("Which team dealt the first deal?"),
                choices=[("", _("— not recorded —")), *sides],
                required=False,
            )

    def board_fields(self) -> list[tuple[BoardSeats, list[forms.BoundField]]]:
        """Each board with its bound fields, in board order (for the template)."""
        result = []
        for board in self.boards:
            prefix = f"b{board.number}-"
            names = ["kind", "by", "deadwood", "defender_deadwood", "knock_card"]
            result.append(
                (board, [self[prefix + name] for name in names if prefix + name in self.fields])
            )
        return result

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for board in self.boards:
            prefix = f"b{board.number}-"
            kind = data.get(prefix + "kind")
            if not kind or kind == Hand.Kind.DRAW:
                continue
            needed = ["by", "defender_deadwood"]
            if kind == Hand.Kind.KNOCK:
                needed.insert(1, "deadwood")
            if prefix + "knock_card" in self.fields:
                needed.append("knock_card")
            for name in needed:
                if data.get(prefix + name) in (None, ""):
                    self.add_error(prefix + name, MISSING[name])
        return data

    def boards_data(self) -> list[HandData]:
        data = self.cleaned_data
        return [
            HandData(
                kind=data.get(f"b{board.number}-kind") or "",
                by=data.get(f"b{board.number}-by") or "",
                deadwood=data.get(f"b{board.number}-deadwood"),
                defender_deadwood=data.get(f"b{board.number}-defender_deadwood"),
                knock_card=data.get(f"b{board.number}-knock_card") or "",
            )
            for board in self.boards
        ]


def initial_for(boards: list[Hand]) -> dict[str, Any]:
    """A deal's stored boards as the form's initial values (a correction)."""
    initial: dict[str, Any] = {}
    for index, hand in enumerate(boards, start=1):
        prefix = f"b{index}-"
        initial.update(
            {
                prefix + "kind": hand.kind,
                prefix + "by": hand.by,
                prefix + "deadwood": hand.deadwood,
                prefix + "defender_deadwood": hand.defender_deadwood,
                prefix + "knock_card": hand.knock_card,
            }
        )
    return initial
