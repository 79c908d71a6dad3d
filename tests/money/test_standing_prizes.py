"""The prizes on the standings themselves: a column on the public page and on the
standings PDF, from the payout table and who paid (issue 17: "shown on the standings and
printed")."""

from __future__ import annotations

import datetime
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from money import services
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    director = make_director()
    players = [make_player(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    return director, tournament


def pay_all(director, tournament, amount: str = "10") -> None:
    for entry in tournament.entries.all():
        services.record_payment(entry=entry, method="cash", amount=Decimal(amount), user=director)


def standings_html(client, tournament) -> str:
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    return html[html.index('id="standings"') :]


def prize_cells(html: str) -> dict[str, str]:
    """Player name → the text of the row's prize cell."""
    found = {}
    for row in re.findall(r"<tr data-key.*?</tr>", html, re.S):
        name = re.search(r'class="player"><bdi><a[^>]*>([^<]+)</a>', row)
        prize = re.search(r'<td class="num prize">([^<]*)</td>', row)
        assert name is not None
        found[name.group(1)] = prize.group(1) if prize else None
    return found


def test_the_standings_show_each_places_prize_and_follow_the_payments(client, finished):
    director, tournament = finished
    assert "Prize (" not in standings_html(client, tournament)  # no payout table: no column
    services.save_money(
        tournament=tournament,
        entry_fee=Decimal("10"),
        currency="€",
        payout=[Decimal(50), Decimal(30), Decimal(20)],
        rounding=Decimal("1"),
        user=director,
    )
    html = standings_html(client, tournament)
    assert "Prize (" not in html  # a payout table but nothing paid yet: no column
    pay_all(director, tournament)
    html = standings_html(client, tournament)
    assert '<th scope="col" class="num prize">Prize (€)</th>' in html
    # Pool 4 × 10.00 = 40.00: 1st 50 % = 20.00, 2nd 30 % = 12.00, 3rd 20 % = 8.00 shared
    # by the two losing semifinalists (3–4), 4.00 each.
    assert prize_cells(html) == {"Ann": "20.00", "Ben": "12.00", "Cat": "4.00", "Dan": "4.00"}
    prizes_page = client.get(reverse("money:prizes", args=[tournament.slug])).content.decode()
    ann = tournament.entries.get(player__name="Ann").player_id
    assert (
        f'<a class="player-link" href="{reverse("club:player", args=[ann])}">Ann</a>' in prizes_page
    )
    services.record_payment(
        entry=tournament.entries.get(player__name="Dan"), method="free", amount=0, user=director
    )
    # The page is cached by the tournament's public version: the payment moved it.
    assert prize_cells(standings_html(client, tournament)) == {
        "Ann": "15.00",
        "Ben": "9.00",
        "Cat": "3.00",
        "Dan": "3.00",
    }


def test_the_standings_pdf_prints_the_prizes(client, finished):
    director, tournament = finished
    services.save_money(
        tournament=tournament,
        entry_fee=Decimal("10"),
        currency="€",
        payout=[Decimal(100)],
        rounding=Decimal("5"),
        user=director,
    )
    pay_all(director, tournament, "12.50")
    pdf = client.get(reverse("printing:standings-pdf", args=[tournament.slug]))
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "Prize (€)" in text and "50.00" in text  # winner takes all: 4 × 12.50


def test_spanish_standings_write_the_prize_as_spanish_money(client, finished):
    director, tournament = finished
    services.save_money(
        tournament=tournament,
        entry_fee=Decimal("10"),
        currency="€",
        payout=[Decimal(60), Decimal(40)],
        rounding=Decimal("0.01"),
        user=director,
    )
    pay_all(director, tournament, "2.50")
    client.cookies["django_language"] = "es"
    html = standings_html(client, tournament)
    assert "Premio (€)" in html and prize_cells(html)["Ann"] == "6,00"


def test_the_demo_club_nights_pay_prizes(client):
    from demo.club import NIGHTS, seed_history

    director = make_director()
    seed_history(director, [f"Demo player {i}" for i in range(13)])
    night = Tournament.objects.get(name=NIGHTS[0][0])
    cells = prize_cells(standings_html(client, night))
    # Seven pay 5.00 (the eighth is a guest): pool 35.00. 50 % = 17.50 → 17, 30 % = 10.50
    # → 10, 20 % = 7.00 → 7, rounded down to 1.00; the 1.00 left goes to 1st: 18.00. The
    # two losing semifinalists share third's 7.00; the quarterfinal losers win nothing.
    assert sorted(v for v in cells.values() if v) == ["10.00", "18.00", "3.50", "3.50"]
    assert sum(1 for v in cells.values() if v == "") == 4
