"""The director's season form: name, how points are earned, best N, which tournaments."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament
from web.number_fields import IdsChoiceField

from .models import Season
from .seasons import parse_points


class SeasonForm(forms.ModelForm):
    placing_points_text = forms.CharField(
        label=_("Points per placing"),
        required=False,
        help_text=_("Points for 1st, 2nd, 3rd … separated by commas, e.g. 25, 18, 15, 12."),
    )

    class Meta:
        model = Season
        fields = ["name", "scoring", "points_per_win", "best_of", "tournaments"]
        widgets = {"tournaments": forms.CheckboxSelectMultiple}
        field_classes = {"tournaments": IdsChoiceField}

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        mine = Q(owner=user) | Q(co_directors=user)
        if self.instance.pk:
            mine |= Q(pk__in=self.instance.tournaments.values("pk"))
        tournaments = self.fields["tournaments"]
        # A season ranks players: team events (partnership gin) are not in one.
        tournaments.queryset = (  # type: ignore[attr-defined]
            Tournament.objects.filter(mine)
            .exclude(rules__team_size__gt=1)
            .distinct()
            .order_by("-date", "name")
        )
        tournaments.help_text = _("Tournaments you direct (head to head; not team events).")
        if self.instance.pk and not self.is_bound:
            self.initial["placing_points_text"] = ", ".join(
                str(p) for p in self.instance.placing_points
            )

    def clean_placing_points_text(self) -> list[int]:
        try:
            return list(parse_points(self.cleaned_data.get("placing_points_text", "")))
        except ValueError:
            raise forms.ValidationError(
                _("Give whole numbers from 0 to 1000, separated by commas."), code="points"
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("scoring") == Season.Scoring.PLACING and not data.get("placing_points_text"):
            self.add_error(
                "placing_points_text", _("Give the points for at least the first place.")
            )
        return data
