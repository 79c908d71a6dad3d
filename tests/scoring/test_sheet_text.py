"""The match page's name sizes and the outbox's clock format (sheet_text template tags)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.templatetags.sheet_text import clock_format, name_fit


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("Ana Ruiz", ""),
        ("Søren Kierkegaard", "name-long"),  # an 11-letter word
        ("Anna Wojciechowska", "name-longer"),
        ("Bartholomew Athanasopoulos", "name-longest"),
        ("María de los Ángeles Fernández-Castellanos", "name-longest"),  # 42 letters
        ("Ana Lucía de la Cruz Marín", "name-long"),  # short words, a long name
        ("Jean-Baptiste Dupont", ""),  # a hyphen is a place to break
    ],
)
def test_a_long_name_is_set_smaller(name, size):
    assert name_fit(name) == size


@pytest.mark.parametrize(
    ("language", "format_", "pm", "noon"),
    [
        ("en", "P", "p.m.", "noon"),
        ("es", "H:i", "p.m.", "mediodía"),
        ("af", "H:i", "nm.", "middag"),
    ],
)
def test_the_outbox_is_given_the_languages_time_format_and_words(language, format_, pm, noon):
    with translation.override(language):
        attributes = clock_format()

    assert f'data-time-format="{format_}"' in attributes
    assert f'data-pm="{pm}"' in attributes
    assert f'data-noon="{noon}"' in attributes
