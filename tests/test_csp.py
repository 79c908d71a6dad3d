"""The Content-Security-Policy header comes from one setting (config/csp.py);
tests/e2e/test_csp.py shows the pages pass it in a real browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config.csp import HEADER, ContentSecurityPolicyMiddleware

pytestmark = pytest.mark.django_db


def test_every_response_carries_the_policy():
    assert Client().get("/")[HEADER] == (
        "default-src 'self'; script-src 'self'; style-src 'self'; base-uri 'self'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
    assert HEADER in Client().get("/no-such-page/")  # error pages too


def test_the_header_follows_the_setting(settings):
    settings.SECURE_CSP = {"default-src": ["'none'"], "img-src": "'self' data:"}
    assert Client().get("/")[HEADER] == "default-src 'none'; img-src 'self' data:"
    settings.SECURE_CSP = {}
    assert HEADER not in Client().get("/")


def test_a_header_set_by_the_view_stays():
    own = HttpResponse()
    own[HEADER] = "default-src 'none'"
    middleware = ContentSecurityPolicyMiddleware(lambda request: own)
    assert middleware(RequestFactory().get("/"))[HEADER] == "default-src 'none'"


def test_debug_error_pages_keep_their_inline_styles(settings):
    settings.DEBUG = True  # Django's technical 404 page styles itself inline
    assert HEADER not in Client().get("/no-such-page/")
    assert HEADER in Client().get("/")


TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>"  # a script without src
    r"|<style\b|\sstyle\s*=|\shx-on|\son[a-z]+\s*=\s*[\"']|javascript:",
    re.IGNORECASE,
)


def test_templates_have_no_inline_script_or_style():
    """What the policy would block, in every template, including the screens the browser
    test does not open."""
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []
