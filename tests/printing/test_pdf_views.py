"""The PDFs as the site serves them: scoresheet, round pack, bracket and standings.

Hands go in through ``record_hand``; the PDF's text (pypdf) is checked against the
engine's own sheet, so a number printed wrong or a hand left out fails here.
"""

from __future__ import annotations

import io
import re

import pytest
import segno
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from engine import Side
from printing import labels as printed_labels
from printing import scoresheet_documents as pdf_data
from printing import standings_documents
from printing.pdfs.base import QR_ERROR, QR_MASK
from scoring.loading import HandData, sheet_for
from scoring.services import confirm_result
from standings import standings as standings_module
from tests.factories import make_bracket, make_director, make_tournament, make_user
from tests.printing.test_pdf import drawn_qr_codes, game_tokens, has, in_order, line, words
from tests.printing.test_pdf_scripts import SCRIPTS, embedded, shows
from tests.scoring.helpers import gin, knock, play, ready_match, win_games
from tests.standings.test_standings import full_match, play_out
from tournaments import match_names, rules_text
from tournaments.models import Match, Tournament
from tournaments.rules_text import rules_summary

pytestmark = pytest.mark.django_db

A4 = {(842, 595), (595, 842)}
LETTER = {(792, 612), (612, 792)}

# Games to 250, each with a different shape: knocks both ways, an undercut, a draw, gins.
STANDARD_HANDS = [
    knock("A", 2, 40),
    knock("B", 5, 30),
    knock("A", 8, 6),  # B undercuts
    gin("A", 60),
    knock("A", 1, 91),
    knock("B", 3, 98),
    *win_games("B", 1),
    *win_games("A", 3),
]  # 3–1 to A: game 1 to B, then three shutouts; game 5 not played


def sheet_url(match: Match) -> str:
    return reverse(
        "printing:match-scoresheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )


def pack_url(tournament: Tournament, number: int, section: str = "") -> str:
    url = reverse("printing:round-scoresheets", kwargs={"slug": tournament.slug, "number": number})
    return f"{url}?section={section}" if section else url


def pdf_of(response) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def pages(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def mediabox(pdf: bytes, page: int = 0) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(pdf)).pages[page].mediabox
    return round(box.width), round(box.height)


def qr_cells(url: str) -> set[tuple[int, int]]:
    matrix = segno.make(url, error=QR_ERROR, mask=QR_MASK, micro=False).matrix
    side = len(matrix)
    return {(x, side - 1 - y) for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark}


def qr_codes(pdf: bytes, page: int = 0) -> list[set[tuple[int, int]]]:
    """The QR codes on a page. A code is drawn in module units near the origin; the white
    boxes behind "not played" (drawn at page coordinates) are not codes."""
    return [c for c in drawn_qr_codes(pdf, page) if max(x for x, _y in c) < 200]


def table_link(match: Match) -> str:
    return "http://testserver" + reverse("scoring:table-match-sheet", kwargs={"token": match.token})


def names(match: Match) -> dict[str, str]:
    return {"A": match.side_name("A"), "B": match.side_name("B")}


def assert_matches_engine(pdf: bytes, match: Match, *, hollywood: bool, page: int = 0) -> None:
    """Every hand's points and running total, every group's sums, and the result strip."""
    sheet = sheet_for(match).to_dict()
    seen, text = words(pdf, page), line(pdf, page)
    groups = sheet["columns" if hollywood else "games"]
    for group in groups:
        if not group["hands"]:
            continue  # a game never reached: an empty (or struck-out) grid
        assert in_order(list(game_tokens(sheet, group, hollywood)), seen), group["number"]
        if group["complete"] and group["winner"]:
            winner = names(match)[group["winner"]]
            assert has(text, f"{winner} ({group['margin']:+d})"), group["number"]
    result = sheet["match"]
    won = result["columns_won" if hollywood else "games_won"]
    heading = "Columns won" if hollywood else "Games won"
    strip = [heading, str(won["A"]), str(won["B"]), str(result["total"]["A"])]
    assert in_order([*strip, str(result["total"]["B"])], seen)


# -- one match -------------------------------------------------------------------------------


def test_best_of_five_sheet_prints_the_engines_numbers(client):
    match = ready_match()
    play(match, STANDARD_HANDS)
    match.refresh_from_db()
    client.force_login(match.tournament.owner)

    response = client.get(sheet_url(match))

    pdf = pdf_of(response)
    assert response["Content-Disposition"] == (
        f'inline; filename="{match.tournament.slug}-{match.key}-scoresheet.pdf"'
    )
    assert pages(pdf) == 1
    text, seen = line(pdf), words(pdf)
    assert has(text, match.tournament.name)
    assert has(text, f"{match.side_name('A')} vs {match.side_name('B')}")
    assert has(text, "Final") and match.key not in text  # the only match of its round
    assert has(text, rules_summary(match.tournament.ruleset))
    assert "1" in seen  # table 1
    assert {"U/C", "gin", "big"} <= set(seen)
    assert_matches_engine(pdf, match, hollywood=False)
    assert sheet_for(match).match.complete
    assert has(text, "not played")  # game 5
    assert in_order(["Match result", match.side_name("A")], seen)


def test_hollywood_sheet_prints_the_engines_columns(client):
    match = ready_match(preset="hollywood")
    # Column 1 to B (a gin, a knock, an undercut); after a draw, A's gin takes columns 2
    # and 3 and the match.
    hands = [gin("A", 40), knock("B", 4, 30), knock("A", 3, 3), gin("B", 25), knock("A")]
    play(match, [*hands, HandData("draw"), gin("A", 90)])

    pdf = pdf_of(client.get(sheet_url(match)))

    text = line(pdf)
    for n in (1, 2, 3):
        assert has(text, f"Column {n}")
    assert not has(text, "Game 1")
    assert has(text, rules_summary(match.tournament.ruleset))
    assert_matches_engine(pdf, match, hollywood=True)
    sheet = sheet_for(match)
    assert [column.winner for column in sheet.games] == [Side.B, Side.A, Side.A]
    assert sheet.match.complete
    assert has(text, "draw")


def test_no_hands_yet_is_a_blank_sheet(client):
    match = ready_match()

    blank = line(pdf_of(client.get(sheet_url(match))))
    play(match, [knock("A", 2, 30)])
    one_hand = line(pdf_of(client.get(sheet_url(match))))

    for n in range(1, 6):
        assert has(blank, f"Game {n}")
    assert has(blank, f"Signature · {match.side_name('A')}")
    assert not has(blank, "in progress")  # the result boxes stay empty
    assert not has(blank, "53")  # 28 points plus a 25-point box, once entered
    assert has(one_hand, "in progress") and has(one_hand, "28")


# -- the table link: directors only ----------------------------------------------------------


def test_directors_get_the_qr_code_of_the_table_link_with_the_url(client):
    match = ready_match()
    client.force_login(match.tournament.owner)

    response = client.get(sheet_url(match))

    pdf = pdf_of(response)
    url = table_link(match)
    assert url in words(pdf)
    assert qr_codes(pdf) == [qr_cells(url)]
    assert has(line(pdf), "Scan to enter hands")
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("who", ["anonymous", "scorekeeper", "other director"])
def test_everybody_else_gets_the_sheet_without_the_table_link(client, who):
    match = ready_match()
    if who == "scorekeeper":
        keeper = make_user()
        match.tournament.scorekeepers.add(keeper)
        client.force_login(keeper)
    elif who == "other director":
        client.force_login(make_director())

    pdf = pdf_of(client.get(sheet_url(match)))

    text = line(pdf)
    assert has(text, f"{match.side_name('A')} vs {match.side_name('B')}")
    assert match.token not in text
    assert qr_codes(pdf) == []
    assert not has(text, "Scan to enter hands")


@pytest.mark.parametrize("state", ["revoked", "complete"])
def test_a_dead_table_link_is_not_printed(client, state):
    match = ready_match()
    if state == "revoked":
        match.token_revoked = True
        match.save(update_fields=["token_revoked"])
    else:
        play(match, win_games("A", 3))
        match.refresh_from_db()
        confirm_result(match=match)
    client.force_login(match.tournament.owner)

    pdf = pdf_of(client.get(sheet_url(match)))

    assert qr_codes(pdf) == []
    assert match.token not in line(pdf)


def test_co_director_gets_the_qr_code_too(client):
    match = ready_match()
    co = make_director()
    match.tournament.co_directors.add(co)
    client.force_login(co)

    pdf = pdf_of(client.get(sheet_url(match)))

    assert qr_codes(pdf) == [qr_cells(table_link(match))]


def test_unknown_match_or_wrong_tournament_is_404(client):
    match = ready_match()
    other = make_tournament()
    assert client.get(sheet_url(match).replace(str(match.pk), "999999")).status_code == 404
    wrong = reverse("printing:match-scoresheet", kwargs={"slug": other.slug, "match_id": match.pk})
    assert client.get(wrong).status_code == 404


# -- round packs -----------------------------------------------------------------------------


def seat(tournament: Tournament, tables: dict[int, int | None]) -> list[Match]:
    """Round 1 by position, with the given tables (position -> table or None)."""
    matches = list(
        Match.objects.filter(tournament=tournament, section="winners", round=1).order_by("position")
    )
    Match.objects.filter(tournament=tournament).update(table=None)
    for match in matches:
        Match.objects.filter(pk=match.pk).update(table=tables.get(match.position))
    return matches


def test_round_pack_has_every_sheet_in_table_order_each_with_its_qr_code(client):
    tournament = make_bracket(players=8, status="running")
    matches = seat(tournament, {1: 3, 2: None, 3: 1, 4: 2})
    play(matches[0], [knock("A", 2, 30), gin("B", 50)])
    client.force_login(tournament.owner)

    response = client.get(pack_url(tournament, 1))

    pdf = pdf_of(response)
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-round-1-scoresheets.pdf"'
    )
    assert "no-store" in response["Cache-Control"]
    expected = [matches[2], matches[3], matches[0], matches[1]]  # tables 1, 2, 3, none
    assert pages(pdf) == 4
    for page, match in enumerate(expected):
        text = line(pdf, page)
        assert has(text, f"{match.side_name('A')} vs {match.side_name('B')}"), page
        assert has(text, f"Quarterfinals · Match {match.position}")
        assert match.key not in text  # the bracket's internal code is nobody's business
        assert qr_codes(pdf, page) == [qr_cells(table_link(match))]
    assert_matches_engine(pdf, matches[0], hollywood=False, page=2)
    assert has(line(pdf, 2), "in progress")


def test_round_pack_of_a_later_round_names_where_the_players_come_from(client):
    tournament = make_bracket(players=4, status="running")
    client.force_login(tournament.owner)

    pdf = pdf_of(client.get(pack_url(tournament, 2)))

    assert pages(pdf) == 1
    assert has(line(pdf), "Winner of W1-1 vs Winner of W1-2")
    assert has(line(pdf), "Final") and "Match W2-1" not in line(pdf)


def test_round_pack_of_another_section(client):
    tournament = make_bracket(
        players=8, status="running", bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION
    )
    client.force_login(tournament.owner)

    pdf = pdf_of(client.get(pack_url(tournament, 1, "losers")))

    losers = Match.objects.filter(tournament=tournament, section="losers", round=1)
    assert pages(pdf) == losers.count() == 2
    assert has(line(pdf), "Loser of W1-1 vs Loser of W1-2")
    assert has(line(pdf), "Losers' round 1")
    assert client.get(pack_url(tournament, 1, "nonsense")).status_code == 404


def test_round_pack_is_for_directors_only(client):
    tournament = make_bracket(players=4, status="running")
    url = pack_url(tournament, 1)

    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"

    for user in (make_director(), make_user()):
        client.force_login(user)
        assert client.get(url).status_code == 403
    keeper = make_user()
    tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.get(url).status_code == 403

    co = make_director()
    tournament.co_directors.add(co)
    client.force_login(co)
    assert pages(pdf_of(client.get(url))) == 2


def test_round_without_matches_is_404_with_a_message(client):
    tournament = make_bracket(players=4, status="running")
    client.force_login(tournament.owner)

    response = client.get(pack_url(tournament, 7))

    assert response.status_code == 404
    assert "Round 7 has no match to print." in response.content.decode()


def test_round_pack_queries_do_not_grow_with_matches_or_hands(client):
    counts = []
    for players in (4, 16):
        tournament = make_bracket(players=players, status="running")
        matches = list(Match.objects.filter(tournament=tournament, round=1, is_bye=False))
        for match in matches:
            play(match, [knock("A", 2, 30), knock("B", 3, 40), gin("A", 20)])
        client.force_login(tournament.owner)
        with CaptureQueriesContext(connection) as queries:
            pdf = pdf_of(client.get(pack_url(tournament, 1)))
        assert pages(pdf) == len(matches)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_match_sheet_queries_do_not_grow_with_hands(client):
    counts = []
    for hands in (0, 12):
        match = ready_match()
        play(match, [knock("A", 2, 30), knock("B", 3, 40)] * (hands // 2))
        client.force_login(match.tournament.owner)
        with CaptureQueriesContext(connection) as queries:
            pdf_of(client.get(sheet_url(match)))
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


# -- page size and language ------------------------------------------------------------------


@pytest.mark.parametrize(("size", "boxes"), [("A4", A4), ("LETTER", LETTER)])
def test_every_pdf_has_the_tournaments_page_size(client, size, boxes):
    tournament = make_bracket(players=4, status="running", page_size=size)
    match = Match.objects.filter(tournament=tournament, round=1).first()
    client.force_login(tournament.owner)
    slug = {"slug": tournament.slug}

    sheet = pdf_of(client.get(sheet_url(match)))
    pack = pdf_of(client.get(pack_url(tournament, 1)))
    bracket = pdf_of(client.get(reverse("printing:bracket-pdf", kwargs=slug)))
    standings = pdf_of(client.get(reverse("printing:standings-pdf", kwargs=slug)))

    wide = max(boxes)
    assert mediabox(sheet) == wide  # best of five: landscape
    assert {mediabox(pack, p) for p in range(pages(pack))} == {wide}
    assert mediabox(bracket) == wide
    assert mediabox(standings) in boxes


def fake_gettext(message: str) -> str:
    """Marks every word the builder translates with the language active at that moment."""
    return f"{translation.get_language()}:{message}"


def marked(language: str, text: str) -> bool:
    return re.search(rf"(?<!\w){language}:", text) is not None


@pytest.mark.parametrize("language", ["es", "en"])
def test_labels_are_translated_in_the_tournaments_language(client, monkeypatch, language):
    """Whatever the visitor's language, every printed word is asked of gettext while the
    tournament's language is active: the labels, the round title, the rules summary."""
    modules = (pdf_data, printed_labels, standings_documents, rules_text, standings_module)
    for module in (*modules, match_names):
        monkeypatch.setattr(module, "_", fake_gettext)
    match = ready_match()
    tournament = match.tournament
    tournament.language = language
    tournament.save(update_fields=["language"])
    other = "en" if language == "es" else "es"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = other  # the visitor's own choice
    client.force_login(tournament.owner)
    slug = {"slug": tournament.slug}

    sheet = line(pdf_of(client.get(sheet_url(match))))
    pack = line(pdf_of(client.get(pack_url(tournament, 1))))
    bracket = line(pdf_of(client.get(reverse("printing:bracket-pdf", kwargs=slug))))
    standings = line(pdf_of(client.get(reverse("printing:standings-pdf", kwargs=slug))))

    for text in (sheet, pack):
        for word in (f"{language}:Hand", f"{language}:Game 1", f"{language}:Scan to enter hands"):
            assert has(text, word), word
        assert has(text, f"{language}:Final") and match.key not in text
        assert has(text, f"{language}:Games to 250")  # the rules summary
        assert not marked(other, text)
    assert has(bracket, f"{language}:Table 1")
    assert has(standings, f"{language}:Standings") and has(standings, f"{language}:Place")
    assert not marked(other, bracket + standings)


# -- bracket and standings -------------------------------------------------------------------


def test_bracket_and_standings_pdfs_name_the_champion(client):
    tournament = play_out(make_bracket(players=4, status="running"), hands=full_match)
    champion = Match.objects.get(tournament=tournament, section="winners", round=2).winner
    name = champion.player.name
    slug = {"slug": tournament.slug}

    bracket_response = client.get(reverse("printing:bracket-pdf", kwargs=slug))
    standings_response = client.get(reverse("printing:standings-pdf", kwargs=slug))

    bracket, standings = line(pdf_of(bracket_response)), line(pdf_of(standings_response))
    assert bracket_response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-bracket.pdf"'
    )
    for text in (bracket, standings):
        assert has(text, f"Champion: {name}")
    assert has(bracket, "Main bracket") and has(bracket, "Semifinals")
    assert has(standings, f"1 {name} ({champion.seed})")
    assert has(standings, "Standings")
    assert not has(standings, "Provisional: the tournament is still being played.")


def test_round_robin_bracket_pdf_is_the_cross_table_and_results(client):
    tournament = make_bracket(
        players=3, status="running", bracket_kind=Tournament.BracketKind.ROUND_ROBIN
    )
    first = Match.objects.filter(tournament=tournament).order_by("round", "position").first()
    play(first, win_games("A", 3))
    slug = {"slug": tournament.slug}

    bracket = line(pdf_of(client.get(reverse("printing:bracket-pdf", kwargs=slug))))
    standings = line(pdf_of(client.get(reverse("printing:standings-pdf", kwargs=slug))))

    assert has(bracket, "Round robin") and has(bracket, "Results")
    assert has(bracket, f"{first.side_name('A')} 3–0 {first.side_name('B')}")
    assert has(standings, "Played")
    assert has(standings, "Provisional: the tournament is still being played.")


def test_no_bracket_yet_is_404(client):
    tournament = make_tournament()
    slug = {"slug": tournament.slug}
    for name in ("printing:bracket-pdf", "printing:standings-pdf"):
        response = client.get(reverse(name, kwargs=slug))
        assert response.status_code == 404
        assert "The bracket has not been drawn yet." in response.content.decode()


def test_bracket_and_standings_pdf_queries_do_not_grow_with_the_field(client):
    for name in ("printing:bracket-pdf", "printing:standings-pdf"):
        counts = []
        for players in (4, 16):
            tournament = make_bracket(players=players, status="running")
            for match in Match.objects.filter(tournament=tournament, round=1, is_bye=False):
                play(match, [knock("A", 2, 30)])
            with CaptureQueriesContext(connection) as queries:
                pdf_of(client.get(reverse(name, kwargs={"slug": tournament.slug})))
            counts.append(len(queries))
        assert counts[0] == counts[1], (name, counts)


# -- names in any script ---------------------------------------------------------------------


def test_players_registered_in_any_script_print_on_all_five_pdfs(client):
    """Eight players, eight scripts (Arabic and Hebrew right to left): every PDF the site
    serves prints their names, in the shipped fonts (test_pdf_scripts checks each one)."""
    scripts = ["polish", "vietnamese", "greek", "cyrillic", "chinese", "japanese"]
    scripts += ["arabic", "hebrew"]
    tournament = make_bracket(players=8, status="running")
    for entry, script in zip(tournament.entries.order_by("seed"), scripts, strict=True):
        entry.player.name = SCRIPTS[script][0]
        entry.player.save()
    match = Match.objects.filter(tournament=tournament, round=1).order_by("position").first()
    client.force_login(tournament.owner)
    slug = {"slug": tournament.slug}

    blank = pdf_of(client.get(sheet_url(match)))
    play(match, STANDARD_HANDS)
    filled = pdf_of(client.get(sheet_url(match)))
    pack = pdf_of(client.get(pack_url(tournament, 1)))
    bracket = pdf_of(client.get(reverse("printing:bracket-pdf", kwargs=slug)))
    standings = pdf_of(client.get(reverse("printing:standings-pdf", kwargs=slug)))

    sides = {entry.player.name for entry in (match.side_a, match.side_b)}
    for script in scripts:
        name = SCRIPTS[script][0]
        for pdf in (pack, bracket, standings, *([blank, filled] if name in sides else [])):
            assert shows(pdf, name, script), (script, name)
    assert {"LiberationSans", "DroidSansFallback", "NotoSansArabic-Regular"} <= embedded(standings)


# -- links -----------------------------------------------------------------------------------


def test_the_pages_link_their_pdfs(client):
    tournament = make_bracket(
        players=8, status="running", bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION
    )
    match = Match.objects.filter(tournament=tournament, round=1, section="winners").first()
    slug = {"slug": tournament.slug}

    public_page = client.get(reverse("public:tournament", kwargs=slug)).content.decode()
    assert reverse("printing:bracket-pdf", kwargs=slug) in public_page
    assert reverse("printing:standings-pdf", kwargs=slug) in public_page

    client.force_login(tournament.owner)
    sheet_page = client.get(
        reverse("scoring:match-sheet", kwargs={**slug, "match_id": match.pk})
    ).content.decode()
    assert f'href="{sheet_url(match)}"' in sheet_page
    rounds_page = client.get(reverse("tournaments:round-control", kwargs=slug)).content.decode()
    assert f'href="{pack_url(tournament, 1)}"' in rounds_page
    assert f'href="{pack_url(tournament, 1, "losers")}"' in rounds_page
    assert f'href="{pack_url(tournament, 1, "final")}"' in rounds_page


QUEUED_MARKS = {
    "en": "Queued: play when the director gives you a table",
    "es": "En cola: jueguen cuando la dirección del torneo les dé una mesa",
    "af": "In die tou: speel wanneer die direkteur vir julle 'n tafel gee",
}


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_round_pack_marks_a_queued_sheet_in_its_table_box(client, language):
    tournament = make_bracket(players=4, tables=1, status="running", language=language)
    seated, queued = Match.objects.filter(tournament=tournament, round=1).order_by("position")
    assert seated.table == 1 and queued.table is None
    client.force_login(tournament.owner)

    pdf = pdf_of(client.get(pack_url(tournament, 1)))

    mark = QUEUED_MARKS[language]
    assert mark not in " ".join(words(pdf, 0))  # table 1 first
    assert mark in " ".join(words(pdf, 1))
