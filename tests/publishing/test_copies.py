"""Money and seasons go with a published tournament (issue 43): the archive's ``money``
part (money.copies) and ``seasons`` part (club.copies), round trip through a copy, and
through the club's ``POST /publish/changes/``.

Venue and club share the test database here, so the copy is written under another slug
(``-club``) and a venue's season is forgotten before its copy is made, as if the club's
server were another installation."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from archive.export import export_tournament
from archive.restore import write_copy
from archive.schema import ArchiveError
from club import services as club_services
from club.models import Season
from club.season_data import season_table
from money import services
from money.models import Payment, SidePot, TournamentMoney
from money.pool import standing_prizes
from money.prizes import prizes
from publishing.tokens import make_token
from standings.data import load
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player
from tests.publishing.test_receiving import change, send
from tournaments import audit
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def night(director, *, slug: str = "friday", season: str | None = "spring") -> Tournament:
    """Eight players, each paid 5 € cash but one let in free, a payout table of 50/30/20
    rounded to 5 €, a side pot of 2 € with three in, 60/40; played to its end; in the
    season ``season``."""
    players = [make_player(name=name) for name in NAMES]
    t = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 3), winner=by_rank(players), slug=slug
    )
    services.save_money(
        tournament=t,
        entry_fee=Decimal("5"),
        currency="€",
        payout=["50", "30", "20"],
        rounding=Decimal("5"),
        user=director,
    )
    entries = list(t.entries.order_by("seed"))
    for i, entry in enumerate(entries):
        method = "free" if i == 3 else "cash"
        services.record_payment(entry=entry, method=method, amount=Decimal("5"), user=director)
    pot = services.save_side_pot(
        tournament=t,
        name="Ladies' pot",
        buy_in=Decimal("2"),
        payout=["60", "40"],
        rounding=Decimal("0.5"),
        user=director,
    )
    services.set_side_pot_entrants(pot=pot, entries=entries[1:4], user=director)
    if season:
        club_services.save_season(
            season=Season(
                name="Spring league", slug=season, owner=director, placing_points=[10, 6, 4]
            ),
            tournaments=[t],
            user=director,
        )
    return t


def shown(found) -> dict:
    """The prizes as the pages show them: fee, pool, table, winners, side pots."""
    return {
        "fee": (found.money.entry_fee, found.money.currency),
        "pool": found.pool,
        "places": [(p.place, p.percent, p.cents) for p in found.places],
        "winners": [(w.name, w.place_label, w.cents) for w in found.winners],
        "pots": [
            (
                side.pot.name,
                side.pot.buy_in,
                side.count,
                side.pool,
                [(p.place, p.percent, p.cents) for p in side.places],
                [(w.name, w.place_label, w.cents) for w in side.winners],
            )
            for side in found.side_pots
        ],
    }


def season_rows(season: Season) -> list[tuple]:
    return [(row.name, row.points, row.events) for row in season_table(season).rows]


def test_a_published_archive_carries_the_money_and_seasons_and_nobody_s_payment():
    director = make_director(username="dora")
    t = night(director)
    document = export_tournament(t, published=True)
    text = json.dumps(document)

    assert document["version"] == 2
    assert document["money"]["pool"] == 3500  # seven paid 5 €, one free
    assert document["money"]["entry_fee"] == "5.00"
    [pot] = document["money"]["side_pots"]
    assert pot["entrants"] == 3 and sum(row[2] for row in pot["winners"]) == 600
    assert [season["slug"] for season in document["seasons"]] == ["spring"]
    # Who paid, how and how much, and who bought in, are not in it.
    assert not any(entry["paid"] for entry in document["entries"])
    private = [
        row for row in document["audit"] if row["action"].startswith(("payment", "side pot entry"))
    ]
    assert len(private) == 8 + 3
    assert all(row["object"] is row["before"] is row["after"] is None for row in private)
    assert '"cash"' not in text and '"free"' not in text
    # The director's own archive keeps the flags and the audit as they are, and no season.
    own = export_tournament(t)
    assert all(entry["paid"] for entry in own["entries"]) and "seasons" not in own


def test_a_copy_shows_the_venue_s_money_and_goes_round():
    director = make_director(username="dora")
    t = night(director, season=None)
    venue = shown(prizes(t))
    places = load(t).standings.places
    column = standing_prizes(t, places)
    document = export_tournament(t, published=True)

    copy = write_copy(document, slug="friday-club", owned_by=make_director(username="clubdora"))

    assert shown(prizes(copy)) == venue
    assert venue["pool"] == 3500 and venue["pots"][0][5]  # the side pot has winners
    by_name = {e.pk: e.player.name for e in t.entries.select_related("player")}
    copy_names = {e.pk: e.player.name for e in copy.entries.select_related("player")}
    copied = standing_prizes(copy, load(copy).standings.places)
    assert {copy_names[k]: v for k, v in copied.by_entry.items()} == {
        by_name[k]: v for k, v in column.by_entry.items()
    }
    assert not Payment.objects.filter(entry__tournament=copy).exists()
    assert not SidePot.objects.get(tournament=copy).entrants.exists()
    assert export_tournament(copy, published=True)["money"] == document["money"]


def test_a_venue_s_season_is_kept_at_the_club_under_its_slug_read_only(client):
    director = make_director(username="dora")
    t = night(director)
    venue_rows = season_rows(Season.objects.get(slug="spring"))
    document = export_tournament(t, published=True)
    Season.objects.all().delete()  # the club's server has no season yet
    club = make_director(username="clubdora")

    copy = write_copy(document, slug="friday-club", owned_by=club)

    season = Season.objects.get(slug="spring")
    assert season.mirrored and season.owner == club and list(season.tournaments.all()) == [copy]
    assert (season.name, season.placing_points) == ("Spring league", [10, 6, 4])
    assert season_rows(season) == venue_rows and venue_rows
    client.force_login(club)
    assert client.get(reverse("club:season-edit", args=["spring"])).status_code == 403
    assert (
        client.post(reverse("club:season-edit", args=["spring"]), {"name": "x"}).status_code == 403
    )
    page = client.get(reverse("club:season", args=["spring"])).content.decode()
    assert "published from its venue" in page  # to a director; a visitor sees the table
    assert "published from its venue" not in Client().get("/seasons/spring/").content.decode()
    assert reverse("club:season-edit", args=["spring"]) not in page
    assert Season.objects.get(slug="spring").name == "Spring league"


def test_a_copy_follows_its_seasons_and_an_empty_mirrored_season_goes():
    director = make_director(username="dora")
    t = night(director)
    first = export_tournament(t, published=True)
    Season.objects.all().delete()
    club = make_director(username="clubdora")
    copy = write_copy(first, slug="friday-club", owned_by=club)
    renamed = json.loads(json.dumps(first))
    renamed["seasons"][0]["placing_points"] = [20, 10]

    write_copy(renamed, slug="friday-club", owned_by=club, replacing=copy)
    assert Season.objects.get(slug="spring").placing_points == [20, 10]

    left = json.loads(json.dumps(first))
    del left["seasons"]
    write_copy(left, slug="friday-club", owned_by=club, replacing=copy)
    assert not Season.objects.exists()


@pytest.mark.parametrize("owner", ["club", "other venue"])
def test_a_season_slug_the_club_already_uses_is_left_alone(owner):
    director = make_director(username="dora")
    t = night(director)
    document = export_tournament(t, published=True)
    Season.objects.all().delete()
    club = make_director(username="clubdora")
    other = make_director(username="othervenue")
    own = Season.objects.create(
        name="The club's spring",
        slug="spring",
        owner=club if owner == "club" else other,
        mirrored=owner != "club",
    )

    copy = write_copy(document, slug="friday-club", owned_by=club)

    own.refresh_from_db()
    assert own.name == "The club's spring" and not own.tournaments.exists()
    assert not copy.seasons.exists()


def test_an_archive_without_money_leaves_a_copy_without_money():
    """An older venue sends version 1, without money: still read, and it is the venue's
    word (no money) that the copy keeps."""
    director = make_director(username="dora")
    t = night(director, season=None)
    document = export_tournament(t, published=True)
    copy = write_copy(document, slug="friday-club", owned_by=make_director(username="clubdora"))
    old = json.loads(json.dumps(document))
    del old["money"]
    old["version"] = 1

    write_copy(old, slug="friday-club", owned_by=copy.owner, replacing=copy)

    assert not TournamentMoney.objects.filter(tournament=copy).exists()
    assert not SidePot.objects.filter(tournament=copy).exists()
    assert prizes(copy).pool == 0


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda d: d.update(version=1), "unknown key"),
        (lambda d: d["money"].update(pool=-1), "money: pool"),
        (lambda d: d["money"].update(pool=True), "money: pool"),
        (lambda d: d["money"].update(secret=1), "money: money must have exactly"),
        (lambda d: d["money"].update(payout=["50", "20"]), "adding up to 100"),
        (
            lambda d: d["money"]["side_pots"][0]["winners"].append([99, "3", 1]),
            "refers to no entry",
        ),
        (lambda d: d["money"]["side_pots"][0].update(entrants=99), "more than the entries"),
        (lambda d: d["money"].update(entry_fee="-5"), "money: entry_fee"),
        (lambda d: d["seasons"][0].update(slug="not a slug"), "seasons: [0]"),
        (lambda d: d["seasons"][0].update(best_of=0), "seasons: [0]"),
        (lambda d: d["seasons"][0].update(slug="new"), "seasons: [0].slug 'new'"),
        (lambda d: d["seasons"].append(dict(d["seasons"][0])), "a season is named twice"),
    ],
)
def test_a_bad_money_or_season_part_is_refused_and_writes_nothing(edit, says):
    director = make_director(username="dora")
    document = export_tournament(night(director), published=True)
    edit(document)
    before = (Tournament.objects.count(), Season.objects.count(), SidePot.objects.count())

    with pytest.raises(ArchiveError, match=says.replace("[", r"\[")):
        write_copy(document, slug="friday-club", owned_by=make_director(username="clubdora"))

    assert (Tournament.objects.count(), Season.objects.count(), SidePot.objects.count()) == before


def test_through_the_endpoint_the_mirror_shows_the_prizes_and_the_season():
    director = make_director(username="dora")
    t = night(director)
    venue = Client().get(reverse("money:prizes", args=["friday"])).content.decode()
    body = change(t) | {"archive": export_tournament(t, published=True)}
    Season.objects.all().delete()
    secret = make_token(user=make_director(username="clubdora"))[1]

    answer = send(body, secret)

    assert answer.status_code == 200, answer.content
    mirror = Client().get(reverse("money:prizes", args=["friday-club"])).content.decode()
    for text in ("5.00 €", "35.00 €", "Ladies&#x27; pot", "3 players in", "6.00 €", "Winners"):
        assert text in venue and text in mirror, text
    assert mirror.count("€") == venue.count("€")
    pages = [
        Client().get(reverse("public:tournament", args=[slug])).content.decode()
        for slug in ("friday", "friday-club")
    ]
    cells = [re.findall(r'<t[dh][^>]*class="num prize">([^<]*)<', page) for page in pages]
    assert cells[0] == cells[1] and cells[0][:3] == ["Prize (€)", "20.00", "10.00"]
    season = Client().get(reverse("club:season", args=["spring"])).content.decode()
    assert "Spring league" in season and "Ann" in season
    # A later change at the venue, sent by an older venue (version 1, no money): accepted.
    audit.record(tournament=t, action="note", after={"note": "a later change"}, user=director)
    old = change(t) | {"archive": export_tournament(t)}
    del old["archive"]["money"]
    old["archive"]["version"] = 1
    assert old["through"] == body["through"] + 1
    assert send(old, secret).status_code == 200
    assert (
        "35.00 €"
        not in Client().get(reverse("money:prizes", args=["friday-club"])).content.decode()
    )


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "This season is published from its venue: make changes there."),
        ("es", "Esta temporada se publica desde su local: haz los cambios allí."),
        ("af", "Hierdie seisoen word van sy saal gepubliseer: maak veranderinge daar."),
    ],
)
def test_a_mirrored_season_says_where_it_is_changed_in_every_language(client, language, says):
    club = make_director(username="clubdora")
    Season.objects.create(name="Spring league", slug="spring", owner=club, mirrored=True)
    client.force_login(club)
    page = client.get(reverse("club:season", args=["spring"]), HTTP_ACCEPT_LANGUAGE=language)
    edit = client.get(reverse("club:season-edit", args=["spring"]), HTTP_ACCEPT_LANGUAGE=language)
    assert says in page.content.decode()
    assert edit.status_code == 403
