"""The table link's page as the players' phone gets it: who plays at which table, the
score before the hand list, nothing to log in to, number pads for the numbers."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables.table_links import set_table_link
from tournaments.match_names import name_of

from .helpers import gin, knock, play, post_data, ready_match

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
LOGIN = reverse("login")


def table_url(match, name="match-sheet", **kwargs):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token, **kwargs})


def sheet_url(match):
    return reverse(
        "scoring:match-sheet", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )


class Inputs(HTMLParser):
    """Every <input> of a page, as a dict of its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.found.append(dict(attrs))


def inputs(html: str) -> list[dict[str, str | None]]:
    parser = Inputs()
    parser.feed(html)
    return parser.found


def seated(table: int, **kwargs):
    """A ready match at ``table``."""
    match = ready_match(**kwargs)
    match.table = table
    match.save(update_fields=["table"])
    return match


def head_of(html: str) -> str:
    """The #match-head region (the table, the players and the score)."""
    start = html.index('<header id="match-head"')
    return html[start : html.index("</header>", start)]


def test_table_page_names_the_table_and_both_players_at_the_top(client):
    match = seated(7)
    html = client.get(table_url(match)).content.decode()
    head = head_of(html)
    assert re.search(r'<h1 class="table-tag">\s*Table 7\s*</h1>', head)
    assert match.side_name("A") in head and match.side_name("B") in head
    assert match.tournament.name in head
    assert name_of(match) in " ".join(re.sub(r"<[^>]+>", "", head).split())
    # The head comes before the entry form and the hand list.
    assert html.index('id="match-head"') < html.index('id="match-entry"')
    assert html.index('id="match-head"') < html.index('id="match-sheet"')
    assert "<title>Table 7 · " in html


def test_table_page_shows_the_running_score_and_who_deals_next(client):
    match = ready_match(preset="tournament")  # best of 5 games to 250
    play(match, [knock("A", 2, 30), gin("B", 10)])  # A +28, B +35
    match.first_dealer = "A"
    match.save(update_fields=["first_dealer"])
    head = head_of(client.get(table_url(match)).content.decode())
    current = re.search(r'<tr class="game current">(.*?)</tr>', head, re.S)[1]
    assert re.findall(r"<td[^>]*>(\d+)</td>", current) == ["28", "35"]
    assert "Game 1" in current and "to 250" in current
    assert re.search(r'class="match-score">0–0<', head) and "games won" in head
    assert "Match total" in head
    # Alternate deal: A dealt hand 1, B hand 2, so A deals hand 3.
    assert f"Next deal: {match.side_name('A')}" in head


def test_score_region_refreshes_as_a_fragment(client):
    match = ready_match()
    play(match, [knock("A", 2, 30)])
    response = client.get(table_url(match) + "?region=match-head", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<header id="match-head"')
    assert 'class="scoreboard"' in html and "<html" not in html
    assert 'hx-get="' + table_url(match) + '?region=match-head"' in html


def test_hollywood_table_page_shows_every_column_and_the_match_total(client):
    match = ready_match(preset="hollywood")  # three columns to 100
    play(match, [knock("A", 2, 30)])
    head = head_of(client.get(table_url(match)).content.decode())
    rows = re.findall(r'<tr class="game[^"]*">(.*?)</tr>', head, re.S)
    assert [re.search(r"Column \d", row)[0] for row in rows] == [
        "Column 1",
        "Column 2",
        "Column 3",
    ]
    assert "columns won" in head and "Match total" in head


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "director-phone"])
def test_table_pages_have_no_log_in_link_or_director_navigation(client, signed_in):
    match = ready_match()
    play(match, [knock("A", 2, 30)])
    if signed_in:  # the director checks a table link from their own phone
        client.force_login(match.tournament.owner)
    for url in (table_url(match), table_url(match, "hand-edit", number=1)):
        html = client.get(url).content.decode()
        assert LOGIN not in html and "log in" not in html.lower()
        assert "Log out" not in html and reverse("tournaments:dashboard") not in html
        assert "director-box" not in html and "Table link for the players" not in html
        # The language switcher stays.
        assert 'name="language" value="es"' in html
        assert 'class="table-page' in html


def test_closed_table_link_has_no_log_in_link_and_names_the_match(client):
    match = seated(3)
    set_table_link(match=match, action="revoke", user=match.tournament.owner)
    response = client.get(table_url(match))
    html = response.content.decode()
    assert response.status_code == 410
    assert "This table link does not work" in html and "Table 3" in html
    assert f"{match.side_name('A')} – {match.side_name('B')}" in html
    assert LOGIN not in html


def test_the_directors_match_page_keeps_its_navigation(client):
    match = seated(2)
    anonymous = client.get(sheet_url(match)).content.decode()
    assert f'href="{LOGIN}"' in anonymous and 'class="table-tag"' not in anonymous
    client.force_login(match.tournament.owner)
    html = client.get(sheet_url(match)).content.decode()
    assert "Log out" in html and "Table link for the players" in html
    assert 'class="scoreboard"' in head_of(html) and "Table 2" in head_of(html)


def test_number_inputs_bring_up_the_number_pad(client):
    match = ready_match(preset="oklahoma")  # the knock card is a select, not an input
    html = client.get(table_url(match)).content.decode()
    numbers = [i for i in inputs(html) if i.get("type") == "number"]
    assert {i["name"] for i in numbers} == {"deadwood", "defender_deadwood"}
    assert all(i.get("inputmode") == "numeric" for i in numbers), numbers
    # And after an invalid entry, when the form comes back with its errors.
    bad = client.post(table_url(match, "hand-create"), post_data(1, knock("A", 40, 50)))
    numbers = [i for i in inputs(bad.content.decode()) if i.get("type") == "number"]
    assert numbers and all(i.get("inputmode") == "numeric" for i in numbers)


def test_choices_are_radio_buttons_inside_their_tap_targets(client):
    match = ready_match()
    html = client.get(table_url(match)).content.decode()
    labels = re.findall(r'<label class="choice"><input type="radio" name="(\w+)"', html)
    assert labels.count("kind") == 4 and labels.count("by") == 2
    assert re.search(r'<button type="submit" class="button primary big">Save hand</button>', html)


def test_a_saved_hand_brings_the_players_phone_back_to_the_score(client):
    match = ready_match()
    response = client.post(table_url(match, "hand-create"), post_data(1, knock()), **HTMX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "outerHTML show:window:top"
    # A refused hand leaves the page where the errors are; the director's page never jumps.
    refused = client.post(table_url(match, "hand-create"), post_data(2, knock("A", 40)), **HTMX)
    assert "over the knock limit" in refused.content.decode() and "HX-Reswap" not in refused
    client.force_login(match.tournament.owner)
    director_url = reverse(
        "scoring:hand-create", kwargs={"slug": match.tournament.slug, "match_id": match.pk}
    )
    response = client.post(director_url, post_data(2, knock()), **HTMX)
    assert response.status_code == 200 and "HX-Reswap" not in response
