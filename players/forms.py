"""The registry's forms: one CSV row, the search, the upload. (The player's own form,
PlayerForm, is :mod:`tournaments.forms`': registration at the door uses it too.)"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.forms import rating_field
from tournaments.models import Player
from tournaments.models.players import PLAYER_FIELDS

from . import csv_files


class PlayerRowForm(forms.Form):
    """PlayerForm's fields without its registry look-ups: the CSV import checks every
    row first and reports duplicates itself, with their line numbers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(forms.fields_for_model(Player, fields=PLAYER_FIELDS))
        self.fields["rating"] = rating_field()


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)


class PlayerImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The column names and encodings are the file format's, the same in every language.
        self.fields["file"].help_text = gettext(
            "A CSV file as a spreadsheet saves it: cells separated by commas, semicolons "
            "or tabs, text in %(encodings)s. The first line names the columns, in English "
            "or Spanish: %(columns)s. Only a name is required."
        ) % {"encodings": csv_files.ENCODINGS, "columns": csv_files.KNOWN_HEADERS}
