"""Side pots: the pure sums (pool, entrants ranked among themselves, ties), the services,
the director's no-JS forms, and the public prizes page and its PDF."""

from __future__ import annotations

import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from pypdf import PdfReader

from backups.sqlite import backup
from money import services
from money.models import Payment, SidePot, SidePotEntry
from money.money import payouts, pot_pool, ranked_among, shares
from tests.archive.test_archive import export, forget, run_import, write
from tests.backups.test_backups import count, live_database, sqlite_only
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_entries, make_player, make_tournament, make_user
from tournaments.models import AuditEntry, Entry, Tournament

# -- pure sums --------------------------------------------------------------------------------


def test_the_pool_is_the_buy_in_times_the_entrants():
    assert pot_pool(1000, 3) == 3000
    assert pot_pool(1000, 0) == 0


@pytest.mark.parametrize(
    ("entrants", "ranked"),
    [
        ([("A", 1), ("B", 2)], [("A", 1, "1", 1), ("B", 2, "2", 1)]),
        (
            [("A", 2), ("B", 3), ("C", 3), ("D", 5)],
            [("A", 1, "1", 1), ("B", 2, "2–3", 2), ("C", 2, "2–3", 2), ("D", 4, "4", 1)],
        ),
        (
            [("A", 5), ("B", 5), ("C", 5), ("D", 9)],
            [("A", 1, "1–3", 3), ("B", 1, "1–3", 3), ("C", 1, "1–3", 3), ("D", 4, "4", 1)],
        ),
        ([("A", None), ("B", 7), ("C", 3)], [("C", 1, "1", 1), ("B", 2, "2", 1)]),
    ],
    ids=["no ties", "tie in the middle", "tie at the top", "unplaced left out, sorted"],
)
def test_entrants_are_ranked_among_themselves_with_ties_kept(entrants, ranked):
    assert ranked_among(entrants) == ranked


@pytest.mark.parametrize(
    ("buy_in", "table", "unit", "entrants", "won"),
    [
        # 5 × 10.00 = 50.00; 60 % = 30.00, 40 % = 20.00.
        (
            1000,
            (60, 40),
            500,
            [("A", 1), ("B", 2), ("C", 4), ("D", 5), ("E", 6)],
            {"A": 3000, "B": 2000},
        ),
        # 3 × 7.00 = 21.00; 50/30/20 → 10.50, 6.30, 4.20 rounded down to 10, 6, 4; the 1.00
        # left goes to 1st (11.00). B and C share places 2–3: (6 + 4) / 2 = 5.00 each.
        (700, (50, 30, 20), 100, [("A", 1), ("B", 5), ("C", 5)], {"A": 1100, "B": 500, "C": 500}),
        # 5 × 10.00 = 50.00 at 60/40: the two best entrants tie (3–4) and share it all;
        # the three tied at 5–8 are 3rd–5th of the pot, past its table.
        (
            1000,
            (60, 40),
            100,
            [("A", 3), ("B", 3), ("C", 5), ("D", 5), ("E", 5)],
            {"A": 2500, "B": 2500},
        ),
        # 3 × 3.33 = 9.99, winner takes all: two tied winners, the odd cent to the first named.
        (333, (100,), 1, [("A", 1), ("B", 1), ("C", 3)], {"A": 500, "B": 499}),
    ],
    ids=["60/40 round to 5", "remainder to 1st, tie shares", "tie at the top", "odd cent"],
)
def test_a_side_pot_pays_its_entrants_by_their_order(buy_in, table, unit, entrants, won):
    pool = pot_pool(buy_in, len(entrants))
    prizes = payouts(pool, [Decimal(str(p)) for p in table], unit)
    ranked = ranked_among(entrants)
    won_each = shares([(rank, sharing) for _name, rank, _label, sharing in ranked], prizes)
    got = {name: w for (name, *_rest), w in zip(ranked, won_each, strict=True) if w}
    assert got == won
    assert sum(got.values()) == pool


# -- services ---------------------------------------------------------------------------------


def _pot(tournament, user, **fields):
    values = {"name": "Side pot", "buy_in": Decimal("10"), "payout": ["60", "40"], "rounding": 1}
    values.update(fields)
    return services.save_side_pot(tournament=tournament, user=user, **values)


@pytest.mark.django_db
def test_create_edit_and_delete_a_side_pot_are_audited():
    director = make_director()
    tournament = make_tournament(owner=director)
    pot = _pot(tournament, director)
    services.save_side_pot(
        tournament=tournament,
        pot=pot,
        name="High roller",
        buy_in=Decimal("20"),
        payout=["100"],
        rounding=Decimal("5"),
        user=director,
    )
    pot.refresh_from_db()
    assert (pot.name, pot.buy_in, pot.payout, pot.rounding) == ("High roller", 20, ["100"], 5)
    services.delete_side_pot(pot=pot, user=director)
    assert not SidePot.objects.exists()
    actions = list(
        AuditEntry.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["side pot created", "side pot changed", "side pot deleted"]


@pytest.mark.django_db
def test_who_is_in_a_pot_and_what_is_refused():
    director = make_director()
    tournament = make_tournament(owner=director)
    ann, ben, cat = make_entries(tournament=tournament, count=3)
    gone = make_entries(tournament=tournament, count=1, withdrawn=True)[0]
    other = make_entries(tournament=make_tournament(owner=director), count=1)[0]
    pot = _pot(tournament, director)

    services.set_side_pot_entrants(pot=pot, entries=[ann, ben], user=director)
    services.set_side_pot_entrants(pot=pot, entries=[ann, ben, cat], user=director)
    services.set_side_pot_entrants(pot=pot, entries=[ann, cat], user=director)
    assert set(pot.entrants.values_list("entry_id", flat=True)) == {ann.pk, cat.pk}

    for entries in ([ben, gone], [ben, other]):  # refused whole: Ben is not added either
        with pytest.raises(ValidationError):
            services.set_side_pot_entrants(pot=pot, entries=entries, user=director)
        assert set(pot.entrants.values_list("entry_id", flat=True)) == {ann.pk, cat.pk}
    with pytest.raises(ValidationError, match="not in this tournament"):
        services.set_side_pot_entrants(pot=pot, entries=[ann, cat, other], user=director)

    with pytest.raises(ValidationError, match="take them out first"):
        services.delete_side_pot(pot=pot, user=director)
    assert SidePot.objects.filter(pk=pot.pk).exists()
    audited = AuditEntry.objects.filter(tournament=tournament, action__startswith="side pot entry")
    assert audited.count() == 4  # Ann, Ben, Cat in; Ben out


@pytest.mark.django_db
def test_an_entrant_who_withdraws_stays_listed_but_leaves_the_pool():
    director = make_director()
    tournament = make_tournament(owner=director)
    ann, ben = make_entries(tournament=tournament, count=2)
    pot = _pot(tournament, director)
    services.set_side_pot_entrants(pot=pot, entries=[ann, ben], user=director)
    Entry.objects.filter(pk=ben.pk).update(withdrawn=True)
    ben.refresh_from_db()
    services.set_side_pot_entrants(pot=pot, entries=[ann, ben], user=director)  # kept, not added
    from money.prizes import prizes

    (side,) = prizes(tournament, with_winners=False).side_pots
    assert side.pool == 1000 and len(side.entrants) == 1


# -- the director's page ----------------------------------------------------------------------


def _form(**fields):
    return {"name": "Side pot", "buy_in": "10", "payout": "60, 40", "rounding": "1", **fields}


@pytest.mark.django_db
def test_the_director_adds_a_pot_ticks_players_in_and_deletes_it_without_javascript(client):
    director = make_director()
    tournament = make_tournament(owner=director)
    entries = make_entries(tournament=tournament, count=3)
    client.force_login(director)
    slug = tournament.slug

    response = client.post(reverse("money:side-pot-create", args=[slug]), _form())
    assert response.status_code == 302
    pot = SidePot.objects.get()
    entrants = reverse("money:side-pot-entrants", args=[slug, pot.pk])
    response = client.post(entrants, {"entry": [entries[0].pk, entries[1].pk]})
    assert response.status_code == 302
    html = client.get(reverse("money:money", args=[slug])).content.decode()
    assert "Side pots" in html and "2 players in" in html and "20.00 €" in html
    assert html.count('name="entry"') == 3 and html.count("checked") == 2

    delete = reverse("money:side-pot-delete", args=[slug, pot.pk])
    page = client.post(delete, follow=True).content.decode()
    assert "take them out first" in page and SidePot.objects.exists()
    client.post(entrants, {})
    client.post(delete)
    assert not SidePot.objects.exists()


@pytest.mark.django_db
def test_bad_side_pot_input_changes_nothing(client):
    director = make_director()
    tournament = make_tournament(owner=director)
    ann = make_entries(tournament=tournament, count=1)[0]
    gone = make_entries(tournament=tournament, count=1, withdrawn=True)[0]
    other = make_entries(tournament=make_tournament(owner=director), count=1)[0]
    pot = _pot(tournament, director)
    client.force_login(director)
    slug = tournament.slug

    response = client.post(reverse("money:side-pot-create", args=[slug]), _form(payout="70, 20"))
    assert response.status_code == 400 and "add up to 100" in response.content.decode()
    response = client.post(reverse("money:side-pot-create", args=[slug]), _form(buy_in="-1"))
    assert response.status_code == 400
    response = client.post(reverse("money:side-pot-create", args=[slug]), _form())  # same name
    assert response.status_code == 400 and "already exists" in response.content.decode()
    response = client.post(
        reverse("money:side-pot-save", args=[slug, pot.pk]), _form(name="", rounding="0")
    )
    assert response.status_code == 400 and f'id="pot{pot.pk}-name"' in response.content.decode()
    assert list(SidePot.objects.values_list("name", "buy_in")) == [("Side pot", 10)]

    entrants = reverse("money:side-pot-entrants", args=[slug, pot.pk])
    page = client.post(entrants, {"entry": [ann.pk, gone.pk]}, follow=True).content.decode()
    assert "has withdrawn" in page
    page = client.post(entrants, {"entry": [ann.pk, other.pk]}, follow=True).content.decode()
    assert "could not be read" in page
    page = client.post(entrants, {"entry": ["x"]}, follow=True).content.decode()
    assert "could not be read" in page
    assert not SidePotEntry.objects.exists()
    assert client.get(entrants).status_code == 405


@pytest.mark.django_db
def test_only_the_tournaments_directors_may_touch_its_side_pots(client):
    director = make_director()
    tournament = make_tournament(owner=director)
    entry = make_entries(tournament=tournament, count=1)[0]
    pot = _pot(tournament, director)
    slug = tournament.slug
    posts = [
        (reverse("money:side-pot-create", args=[slug]), _form(name="Another")),
        (reverse("money:side-pot-save", args=[slug, pot.pk]), _form(name="Renamed")),
        (reverse("money:side-pot-entrants", args=[slug, pot.pk]), {"entry": [entry.pk]}),
        (reverse("money:side-pot-delete", args=[slug, pot.pk]), {}),
    ]
    for user in (None, make_user(), make_director()):
        client.logout()
        if user is not None:
            client.force_login(user)
        for url, data in posts:
            response = client.post(url, data)
            assert response.status_code == (302 if user is None else 403)
            if user is None:
                assert "/login/" in response["Location"]
    assert list(SidePot.objects.values_list("name", flat=True)) == ["Side pot"]
    assert not SidePotEntry.objects.exists()


# -- the public prizes page and its PDF -------------------------------------------------------


@pytest.mark.django_db
def test_the_prizes_page_and_pdf_show_each_side_pot_with_its_winners(client):
    director = make_director()
    names = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    players = [make_player(name=n) for n in names]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    pot = _pot(tournament, director, payout=["50", "30", "20"])
    # Ben 2nd, Cat and Dan 3–4, Fay 5–8: in the pot 1st, 2–3, 2–3, 4th.
    services.set_side_pot_entrants(
        pot=pot, entries=[entries[n] for n in ("Fay", "Dan", "Cat", "Ben")], user=director
    )
    services.record_payment(entry=entries["Ann"], method="cash", amount=10, user=director)

    html = client.get(reverse("money:prizes", args=[tournament.slug])).content.decode()
    side = html[html.index("Side pot:") :]
    # 4 × 10.00 = 40.00 at 50/30/20: Ben 20.00; Cat and Dan share 12 + 8, 10.00 each.
    assert "4 players in" in side and "40.00 €" in side
    assert side.index("Ben") < side.index("Cat") < side.index("Dan")
    assert "20.00 €" in side and side.count("10.00 €") >= 3  # buy-in, Cat, Dan
    assert "Fay" not in side and "Cash" not in html
    assert f'href="/players/{players[1].pk}/"' in side  # Ben, to his club page

    pdf = client.get(reverse("printing:prizes-pdf", args=[tournament.slug]))
    assert pdf.status_code == 200
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Side pot: Side pot · buy-in 10.00 € · 4 players in" in text
    assert "40.00 €" in text and "2–3" in text and "Cat" in text


@pytest.mark.django_db
def test_a_side_pot_names_no_winner_before_the_standings_are_final(client):
    director = make_director()
    tournament = make_tournament(owner=director)
    entries = make_entries(tournament=tournament, count=2)
    pot = _pot(tournament, director)
    services.set_side_pot_entrants(pot=pot, entries=entries, user=director)
    html = client.get(reverse("money:prizes", args=[tournament.slug])).content.decode()
    assert "Side pot:" in html and "20.00 €" in html and "12.00 €" in html
    assert "Winners" not in html


# -- where side pots travel -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_archive_holds_the_side_pots_results_not_who_is_in_and_goes_round(tmp_path):
    """The archive (``export.json``) holds the money as its pages show it (the pool as one
    sum, each side pot's count and winners: money.copies), not who paid or bought in,
    besides what the audit log says of them; a tournament with side pots goes round whole."""
    director = make_director()
    players = [make_player(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    tournament = run_tournament(
        players, owner=director, date=datetime.date(2026, 4, 1), winner=by_rank(players)
    )
    pot = _pot(tournament, director)
    entries = list(tournament.entries.order_by("pk"))
    services.set_side_pot_entrants(pot=pot, entries=entries[:2], user=director)
    services.record_payment(entry=entries[0], method="cash", amount=10, user=director)
    first = export(tournament)
    document = json.loads(first)
    assert "side_pot" not in json.dumps(document["tournament"])
    assert document["version"] == 2 and document["money"]["pool"] == 1000
    assert [pot["entrants"] for pot in document["money"]["side_pots"]] == [2]
    rows = [row for row in document["audit"] if row["action"].startswith("side pot entry")]
    assert [row["object"] for row in rows] == [{"type": "entry", "ref": i} for i in (0, 1)]
    forget(tournament)
    assert not SidePot.objects.exists()

    _out, err = run_import(write(tmp_path, first))

    assert err == ""
    again = Tournament.objects.get(slug=document["tournament"]["slug"])
    assert export(again) == first
    kept = SidePot.objects.get()
    assert kept.venue_results["entrants"] == 2 and not kept.entrants.exists()
    assert not Payment.objects.exists()  # who paid: not in the archive


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_backup_holds_the_side_pots(tmp_path):
    """Money and side pots travel in the database backups (the whole SQLite file)."""
    director = make_director()
    tournament = make_tournament(owner=director)
    pot = _pot(tournament, director)
    services.set_side_pot_entrants(
        pot=pot, entries=make_entries(tournament=tournament, count=2), user=director
    )
    copy = backup(live_database(), tmp_path, keep=0)
    assert count(copy, "club_sidepot") == 1 and count(copy, "club_sidepotentry") == 2


@pytest.mark.django_db
def test_the_money_page_queries_do_not_grow_with_the_players(client, django_assert_max_num_queries):
    director = make_director()
    tournament = make_tournament(owner=director)
    client.force_login(director)
    url = reverse("money:money", args=[tournament.slug])
    queries = []
    for players in (2, 12):
        Entry.objects.filter(tournament=tournament).delete()
        SidePot.objects.all().delete()
        entries = make_entries(tournament=tournament, count=players)
        for name in ("One", "Two"):
            pot = _pot(tournament, director, name=name)
            services.set_side_pot_entrants(pot=pot, entries=entries, user=director)
        with django_assert_max_num_queries(20) as captured:
            assert client.get(url).status_code == 200
        queries.append(len(captured))
    assert queries[0] == queries[1]
