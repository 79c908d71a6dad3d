"""Forms of the director's stages page. Validation only; :mod:`.services` writes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from pairing.tiebreaks import Tiebreak
from web.number_fields import IdChoiceField
from web.numbers import INTEGER_MAX

from ..models import Entry, Stage
from ..models.stages import DEFAULT_TIEBREAKS, MAX_ADVANCE, MAX_SWISS_ROUNDS

TIEBREAK_SLOTS = 4


def tiebreak_choices() -> list[tuple[str, Any]]:
    labels = {
        Tiebreak.MATCH_POINTS: _("Match points"),
        Tiebreak.BUCHHOLZ: _("Opponents' match wins"),
        Tiebreak.GAMES_WON: _("Games won"),
        Tiebreak.POINT_MARGIN: _("Point margin"),
        Tiebreak.HEAD_TO_HEAD: _("Head to head"),
        Tiebreak.TOTAL_POINTS: _("Total points"),
    }
    return [("", "—"), *((str(name), label) for name, label in labels.items())]


class StageForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=Stage.Kind.choices)
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    rounds = forms.IntegerField(
        label=_("Swiss rounds"), min_value=1, max_value=MAX_SWISS_ROUNDS, required=False
    )
    pool_size = forms.IntegerField(label=_("Pool size"), min_value=2, max_value=32, required=False)
    advance = forms.IntegerField(
        label=_("Players advancing (per pool for pools)"),
        min_value=2,
        max_value=MAX_ADVANCE,
        required=False,
    )
    game_target = forms.IntegerField(
        label=_("Game to (points)"), min_value=1, max_value=5000, required=False
    )
    games_to_win = forms.IntegerField(
        label=_("Games to win a match"), min_value=1, max_value=10, required=False
    )
    final_game_target = forms.IntegerField(
        label=_("Final: game to (points)"), min_value=1, max_value=5000, required=False
    )
    final_games_to_win = forms.IntegerField(
        label=_("Final: games to win"), min_value=1, max_value=10, required=False
    )
    third_place = forms.BooleanField(label=_("Third-place match"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)d") % {"n": n},
                choices=tiebreak_choices(),
                required=n == 1,
                initial=DEFAULT_TIEBREAKS[n - 1] if n <= len(DEFAULT_TIEBREAKS) else "",
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        chosen = [name for name in chosen if name]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("A tiebreak is chosen twice."))
        data["tiebreaks"] = chosen
        if data.get("kind") == Stage.Kind.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss stage needs a number of rounds."))
        if data.get("kind") == Stage.Kind.ROUND_ROBIN and not data.get("pool_size"):
            self.add_error("pool_size", _("Round-robin pools need a pool size."))
        return data

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        rules = {name: data[name] for name in ("game_target", "games_to_win") if data.get(name)}
        final = {
            name: data[f"final_{name}"]
            for name in ("game_target", "games_to_win")
            if data.get(f"final_{name}")
        }
        return {
            "kind": data["kind"],
            "name": data.get("name") or "",
            "rounds": data.get("rounds"),
            "pool_size": data.get("pool_size"),
            "advance": data.get("advance"),
            "tiebreaks": data["tiebreaks"],
            "rules": rules,
            "round_rules": {"final": final} if final else {},
            "third_place": bool(data.get("third_place")),
        }


class ClockForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=600, initial=45)


class LateEntryForm(forms.Form):
    """A late entry's starting match points in a running Swiss first stage (0 by default)."""

    entry = IdChoiceField(label=_("Late entry"), queryset=Entry.objects.none())
    points = forms.IntegerField(
        label=_("Starting match points"), min_value=0, max_value=INTEGER_MAX, initial=0
    )

    def __init__(self, *args: Any, candidates: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if candidates is not None:
            self.fields["entry"].queryset = candidates  # type: ignore[attr-defined]


class LuckyLoserForm(forms.Form):
    side = forms.ChoiceField(label=_("In place of"), choices=[("A", "A"), ("B", "B")])
    entry = IdChoiceField(label=_("Lucky loser"), queryset=Entry.objects.none())

    def __init__(self, *args: Any, candidates: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if candidates is not None:
            field = self.fields["entry"]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = candidates
