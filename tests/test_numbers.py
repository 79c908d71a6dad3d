"""One place reads every number (web.numbers): finite, within bounds, plain form;
the payout table and the prizes show it in the page's language, never as 1E+2."""

from __future__ import annotations

import datetime
import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from money.forms import parse_percentages
from money.models import SidePot, TournamentMoney
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from web.numbers import ID_MAX, INTEGER_MAX, decimal_in, integer_in, is_id


@pytest.mark.parametrize(
    "text",
    ["NaN", "sNaN", "-nan", "Infinity", "-Infinity", "1e400", "abc", "", "12.345", "101", "-1"],
)
def test_a_decimal_must_be_finite_in_range_and_not_too_precise(text):
    with pytest.raises(ValueError):
        decimal_in(text, low=0, high=100)


@pytest.mark.parametrize(
    ("text", "plain"), [("1e2", "100"), ("1E+1", "10"), ("12.5", "12.5"), (" 7 ", "7")]
)
def test_a_decimal_comes_back_in_plain_form(text, plain):
    value = decimal_in(text, low=0, high=100)
    assert str(value) == plain


@pytest.mark.parametrize(
    "value", ["9" * 30, str(INTEGER_MAX + 1), "-" + "9" * 30, "1.5", "1e3", True, 2.0, None, "٣"]
)
def test_an_integer_must_be_whole_and_fit_the_column(value):
    with pytest.raises(ValueError):
        integer_in(value)


def test_an_id_is_a_positive_bigint():
    assert is_id("1") and is_id(ID_MAX) and is_id(str(ID_MAX))
    assert not is_id("0") and not is_id(str(ID_MAX + 1)) and not is_id("9" * 30)


@pytest.mark.parametrize("text", ["NaN", "sNaN", "50,NaN", "50, Infinity", "1e400"])
def test_a_payout_table_of_not_a_number_is_refused(text):
    with pytest.raises(ValueError):
        parse_percentages(text)


def test_a_payout_in_exponent_form_is_read_as_plain_percentages():
    assert [str(p) for p in parse_percentages("1e2")] == ["100"]


@pytest.mark.django_db
@pytest.mark.parametrize("payout", ["NaN", "sNaN", "50,NaN"])
def test_the_money_page_refuses_not_a_number(client, payout):
    director = make_director()
    players = [make_player() for _ in range(2)]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    client.force_login(director)
    response = client.post(
        reverse("money:money-save", args=[tournament.slug]),
        {"entry_fee": "10", "currency": "€", "payout": payout, "rounding": "1"},
    )
    assert response.status_code == 400 and "add up to 100" in response.content.decode()
    assert not TournamentMoney.objects.exists()


@pytest.mark.django_db
def test_money_and_percentages_show_in_the_pages_language(client):
    director = make_director()
    players = [make_player(name=n) for n in ("Ann", "Ben")]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    tournament.language = "es"
    tournament.save(update_fields=["language"])
    client.force_login(director)
    client.post(
        reverse("money:money-save", args=[tournament.slug]),
        {"entry_fee": "12.50", "currency": "€", "payout": "1e2", "rounding": "0.01"},
    )
    assert TournamentMoney.objects.get().payout == ["100"]
    for entry in tournament.entries.all():
        client.post(
            reverse("money:payment-save", args=[tournament.slug, entry.pk]), {"method": "cash"}
        )
    client.logout()
    with translation.override("es"):
        html = client.get(
            reverse("money:prizes", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es"
        ).content.decode()
    assert "100 %" in html and "25,00 €" in html
    assert "E+" not in html and "e+" not in html
    pdf = client.get(
        reverse("printing:prizes-pdf", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es"
    )
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "Premios" in text
    assert "100 %" in text and "25,00 €" in text and "e+2" not in text.lower()


@pytest.mark.django_db
def test_a_30_digit_id_in_a_multiple_choice_is_an_invalid_choice(client):
    """SQLite cannot even compare such a number (OverflowError): refused before it is asked."""
    director = make_director()
    players = [make_player() for _ in range(2)]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    client.force_login(director)
    season = client.post(
        reverse("club:season-create"),
        {
            "name": "Liga",
            "scoring": "placing",
            "placing_points_text": "3, 2, 1",
            "points_per_win": 1,
            "tournaments": ["9" * 30],
        },
    )
    assert season.status_code == 200 and "9" * 30 in season.content.decode()
    pot = SidePot.objects.create(tournament=tournament, name="Bote", buy_in=5)
    entrants = client.post(
        reverse("money:side-pot-entrants", args=[tournament.slug, pot.pk]), {"entry": ["9" * 30]}
    )
    assert entrants.status_code == 302 and not pot.entrants.exists()
