"""Money: the prize pool from who paid, the payout table rounded to a unit."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from money.forms import parse_percentages
from money.models import Payment, TournamentMoney
from money.money import payouts, shares
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from tournaments.models import Entry


@pytest.mark.parametrize(
    ("pool", "table", "unit", "prizes"),
    [
        (10000, (50, 30, 20), 100, [5000, 3000, 2000]),
        (12345, (50, 30, 20), 500, [6845, 3500, 2000]),  # 60 + 35 + 20, 8.45 left to 1st
        (9000, (100,), 100, [9000]),
        (0, (60, 40), 100, [0, 0]),
        (1000, (33.34, 33.33, 33.33), 1, [334, 333, 333]),
    ],
    ids=["even", "round to 5.00", "winner takes all", "empty pool", "thirds"],
)
def test_payouts_add_up_to_the_pool(pool, table, unit, prizes):
    got = payouts(pool, [Decimal(str(p)) for p in table], unit)
    assert got == prizes
    assert sum(got) == pool


def test_shared_places_split_their_prizes():
    rows = [(1, 1), (2, 1), (3, 2), (3, 2), (5, 1)]  # 3–4 shared; 5th has no prize
    assert shares(rows, [5000, 3000, 1500, 501]) == [5000, 3000, 1001, 1000, 0]


@pytest.mark.parametrize("text", ["50, 30", "101", "-5, 105", "abc"])
def test_a_payout_table_must_add_up_to_100(text):
    with pytest.raises(ValueError):
        parse_percentages(text)


@pytest.mark.django_db
def test_the_director_sets_the_fee_records_payments_and_the_prizes_show(client):
    director = make_director()
    players = [make_player(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    client.force_login(director)
    response = client.post(
        reverse("money:money-save", args=[tournament.slug]),
        {"entry_fee": "12.50", "currency": "€", "payout": "70, 30", "rounding": "5"},
    )
    assert response.status_code == 302
    entries = {e.player.name: e for e in Entry.objects.filter(tournament=tournament)}
    for name, method in (("Ann", "cash"), ("Ben", "card"), ("Cat", "cash"), ("Dan", "free")):
        client.post(
            reverse("money:payment-save", args=[tournament.slug, entries[name].pk]),
            {"method": method},
        )
    assert Payment.objects.filter(entry__tournament=tournament).count() == 4
    assert Entry.objects.get(pk=entries["Dan"].pk).paid
    client.logout()
    html = client.get(reverse("money:prizes", args=[tournament.slug])).content.decode()
    # Pool 3 × 12.50 = 37.50; 70 % = 26.25 → 25.00 + 2.50 left over = 27.50; 30 % → 10.00.
    assert "37.50 €" in html and "27.50 €" in html and "10.00 €" in html
    assert html.index("Ann") < html.index("Ben")
    pdf = client.get(reverse("printing:prizes-pdf", args=[tournament.slug]))
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "27.50 €" in text and "Ann" in text


@pytest.mark.django_db
def test_bad_money_input_changes_nothing_and_others_may_not(client):
    director = make_director()
    players = [make_player() for _ in range(2)]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    client.force_login(director)
    response = client.post(
        reverse("money:money-save", args=[tournament.slug]),
        {"entry_fee": "10", "currency": "€", "payout": "70, 20", "rounding": "1"},
    )
    assert response.status_code == 400 and "add up to 100" in response.content.decode()
    assert not TournamentMoney.objects.exists()
    client.force_login(make_director())
    entry = tournament.entries.first()
    response = client.post(
        reverse("money:payment-save", args=[tournament.slug, entry.pk]), {"method": "cash"}
    )
    assert response.status_code == 403
    assert not Payment.objects.exists()
