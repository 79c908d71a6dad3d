"""The mirror is the venue for money and seasons too (issue 43), on two real servers on
loopback (:mod:`tests.publishing.loopback`): after a night with an entry fee, payments, a
payout table, a side pot and a season, the club's prizes page, standings (JSON, CSV, PDF),
season table (page, CSV) and player pages say what the venue's say, and nothing of who
paid reaches the club.

Pages are compared by what they say (their text, links without their addresses): the
mirror's banner, the venue's edit buttons and each server's own ids are not content."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from pypdf import PdfReader

from tests.publishing.loopback import (
    caught_up,
    fetch,
    night,
    shell,
    standings,
)

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

MONEY_NIGHT = """
from decimal import Decimal
from django.core.exceptions import ValidationError
from club import services as club_services
from club.models import Season
from engine import ScoringError
from money import services
from scoring import services as scoring
from tests.club.helpers import open_matches
from tests.scoring.helpers import gin, play
from tournaments.models import Tournament
t = Tournament.objects.get(slug="friday")
director = t.owner
services.save_money(tournament=t, entry_fee=Decimal("5"), currency="€",
                    payout=["70", "30"], rounding=Decimal("1"), user=director)
entries = list(t.entries.order_by("seed"))
for i, entry in enumerate(entries):
    services.record_payment(entry=entry, method=("card" if i else "cash") if i != 2 else "free",
                            amount=Decimal("5"), user=director)
pot = services.save_side_pot(tournament=t, name="High stakes", buy_in=Decimal("2.50"),
                             payout=["100"], rounding=Decimal("0.5"), user=director)
services.set_side_pot_entrants(pot=pot, entries=entries[1:], user=director)
club_services.save_season(
    season=Season(name="Spring league", slug="spring", owner=director,
                  placing_points=[10, 6, 4, 2], best_of=3),
    tournaments=[t], user=director)
while matches := open_matches(t):
    for match in matches:
        while True:
            try:
                play(match, [gin("B" if match.round == 1 else "A")], user=director)
            except (ScoringError, ValidationError):
                break
        match.refresh_from_db()
        scoring.confirm_result(match=match, user=director, version=match.version)
print(Tournament.objects.get(pk=t.pk).status)
"""

PLAYERS = re.compile(r'<a [^>]*href="/players/(\d+)/"[^>]*>([^<]+)</a>')


def text_of(html: bytes) -> str:
    """A page's main content as words: tags, addresses and the mirror's banner left out."""
    page = html.decode()
    main = page[page.index("<main") : page.index("</main>")]
    main = re.sub(
        r'<[^>]*class="[^"]*(mirror|freshness)[^"]*"[^>]*>.*?</[a-z]+>', "", main, flags=re.S
    )
    words = unescape(re.sub(r"<[^>]+>", " ", main))
    return " ".join(words.split())


def pdf_text(pdf: bytes) -> str:
    """The PDF's extractable text, without the line that says when it was printed."""
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return "\n".join(line for line in text.splitlines() if not re.search(r"\d\d:\d\d", line))


def player_pages(base: str, season_page: bytes) -> dict[str, str]:
    """Each player linked from the season's page, by name: their club page's content."""
    return {
        unescape(name): text_of(fetch(base, f"/players/{pk}/"))
        for pk, name in PLAYERS.findall(season_page.decode())
    }


def test_the_mirror_shows_the_venue_s_money_and_season(tmp_path):
    with night(tmp_path) as servers:
        venue, club = servers.venue, servers.club
        shell(venue, MONEY_NIGHT)
        caught_up(venue, club)
        there, here = servers.club_base, servers.venue_base

        # The prizes: fee, pool, payout table, each winner's prize, the side pot.
        prizes = [text_of(fetch(base, "/t/friday/prizes/")) for base in (here, there)]
        assert prizes[0] == prizes[1]
        for says in ("5.00 €", "15.00 €", "High stakes", "3 players in", "7.50 €", "Winners"):
            assert says in prizes[1], says
        # The standings with their prize column: JSON, CSV, PDF, and the page's column.
        assert standings(there) == standings(here)
        assert fetch(there, "/t/friday/standings.csv") == fetch(here, "/t/friday/standings.csv")
        pdfs = [pdf_text(fetch(base, "/t/friday/standings.pdf")) for base in (here, there)]
        assert pdfs[0] == pdfs[1] and "Prize (€)" in pdfs[1]
        column = re.compile(r'class="num prize">([^<]*)<')
        cells = [column.findall(fetch(base, "/t/friday/").decode()) for base in (here, there)]
        assert cells[0] == cells[1] and "Prize (€)" in cells[1] and "11.00" in cells[1]
        pdfs = [pdf_text(fetch(base, "/t/friday/prizes.pdf")) for base in (here, there)]
        assert pdfs[0] == pdfs[1]

        # The season, under its slug: its table, CSV, PDF and every player's page.
        seasons = [fetch(base, "/seasons/spring/") for base in (here, there)]
        assert text_of(seasons[0]) == text_of(seasons[1])
        assert "Spring league" in text_of(fetch(there, "/seasons/"))
        csvs = [fetch(base, "/seasons/spring/standings.csv") for base in (here, there)]
        assert csvs[0] == csvs[1] and csvs[1].count(b"\n") == 5
        pdfs = [pdf_text(fetch(base, "/seasons/spring/standings.pdf")) for base in (here, there)]
        assert pdfs[0] == pdfs[1]
        pages = [
            player_pages(base, page) for base, page in zip((here, there), seasons, strict=True)
        ]
        assert len(pages[1]) == 4 and pages[0] == pages[1]

        # Nothing of who paid: no payment, no "paid" flag, no payment in the audit.
        kept = shell(
            club,
            "import json\n"
            "from money.models import Payment, SidePotEntry\n"
            "from tournaments.models import AuditEntry, Entry\n"
            "print(json.dumps([Payment.objects.count(), SidePotEntry.objects.count(),"
            " Entry.objects.filter(paid=True).count(),"
            " [a.after for a in AuditEntry.objects.filter(action='payment recorded')]]))",
        )
        assert json.loads(kept.strip().splitlines()[-1]) == [0, 0, 0, [None] * 4]
