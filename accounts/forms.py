"""The accounts' forms: a role in a tournament for an account or a new person, a
director by username or a new person."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class RoleForm(forms.Form):
    ROLE_CHOICES = [
        ("co_director", _("Co-director")),
        ("scorekeeper", _("Scorekeeper")),
    ]
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES)


class NewMemberForm(forms.Form):
    """A person without an account yet, for a role: the site makes the account."""

    name = forms.CharField(label=_("Name"), max_length=150)
    email = forms.EmailField(label=_("Email"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=RoleForm.ROLE_CHOICES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "new")
        super().__init__(*args, **kwargs)


class NewDirectorForm(forms.Form):
    """A person without an account yet who may create tournaments: the site makes it."""

    name = forms.CharField(label=_("Name"), max_length=150)
    email = forms.EmailField(label=_("Email"), max_length=254)


class DirectorForm(forms.Form):
    """An existing account that may create tournaments from now on."""

    username = forms.CharField(label=_("Username"), max_length=150)
