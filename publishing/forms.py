"""The publishing pages' forms: a new publishing token (at the club), and where the venue
publishes (the club's server's address, a token made there, the venue's name)."""

from __future__ import annotations

from django import forms
from django.core.validators import URLValidator
from django.utils.translation import gettext_lazy


class TokenForm(forms.Form):
    label = forms.CharField(
        label=gettext_lazy("Label (optional)"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("What it is for, e.g. the venue laptop's name."),
    )


class WebAddressField(forms.URLField):
    """An http(s) address only (Django's URLField takes ftp:// too)."""

    default_validators = [URLValidator(schemes=["http", "https"])]


class DestinationForm(forms.Form):
    url = WebAddressField(
        label=gettext_lazy("Club server address"),
        max_length=300,
        assume_scheme="https",
        error_messages={
            "invalid": gettext_lazy(
                "The club server's address: a web address starting with https:// (or http://)."
            )
        },
    )
    token = forms.CharField(
        label=gettext_lazy("Publishing token"),
        max_length=100,
        strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        error_messages={
            "required": gettext_lazy(
                "The publishing token a director made on the club's server's "
                "Publishing tokens page."
            )
        },
    )
    venue = forms.CharField(
        label=gettext_lazy("This venue's name"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Shown on the club's server beside each tournament it follows."),
    )
