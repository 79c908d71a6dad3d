"""``{% submission_field %}``: the hidden submission id every write form carries
(:mod:`web.submissions`). A builtin (settings.TEMPLATES), so no ``{% load %}``."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..submissions import FIELD, new_id

register = template.Library()


@register.simple_tag
def submission_field() -> SafeString:
    """A fresh id each time the form is rendered: a re-rendered form is a new submission."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_id())
