"""Django's model choice fields, asking :func:`web.numbers.is_id` first: a value
that cannot be an id (30 digits: SQLite's ``OverflowError``) is an invalid choice."""

from __future__ import annotations

from typing import Any

from django import forms

from .numbers import is_id


class IdChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField whose value must be an id before the database is asked."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not is_id(value):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """A ModelMultipleChoiceField whose values must be ids before the database is asked."""

    def clean(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else []:
            if not is_id(pk):
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super().clean(value)
