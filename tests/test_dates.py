"""One date format per language, on director and public pages and in the PDFs."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import formats, translation
from pypdf import PdfReader

from tests.factories import make_bracket, make_tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 24)


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "Nov. 24, 2026"), ("es", "24 de noviembre de 2026"), ("af", "24 November 2026")],
)
def test_dashboard_and_public_page_write_the_date_alike(director_client, director, language, shown):
    with translation.override(language):
        assert formats.date_format(DAY, "DATE_FORMAT") == shown
    tournament = make_tournament(owner=director, date=DAY, language=language)
    director_client.cookies["django_language"] = language
    dashboard = director_client.get(reverse("tournaments:dashboard")).content.decode()
    public = director_client.get(tournament.get_absolute_url()).content.decode()
    assert shown in dashboard and shown in public
    assert "11/24/2026" not in dashboard and "2026-11-24<" not in dashboard


@pytest.mark.parametrize(
    ("language", "shown"), [("en", "Nov. 24, 2026"), ("es", "24 de noviembre de 2026")]
)
def test_the_bracket_pdf_writes_it_the_same_way(director_client, director, language, shown):
    import io

    tournament = make_bracket(players=4, owner=director, date=DAY, language=language)
    response = director_client.get(reverse("printing:bracket-pdf", args=[tournament.slug]))
    assert response.status_code == 200
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert shown in text
