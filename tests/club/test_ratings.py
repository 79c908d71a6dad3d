"""The stored club rating: rebuilt when results change, read by standings.json, seeding."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club import ratings
from club.models import RatingChange
from scoring import services as scoring_services
from tests.club.helpers import by_rank, run_tournament
from tests.factories import make_director, make_player, make_tournament
from tests.scoring.helpers import gin, named
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, PublicVersion, Tournament

pytestmark = pytest.mark.django_db

JAN = datetime.date(2026, 1, 5)


def stored() -> dict[tuple[int, int], tuple[int, float, float]]:
    """(match, player) → (order played, rating after, uncertainty after)."""
    return {
        (r.match_id, r.player_id): (r.sequence, r.mu_after, r.sigma_after)
        for r in RatingChange.objects.all()
    }


@pytest.fixture
def club():
    director = make_director()
    players = [make_player(name=f"Player {i}") for i in range(4)]
    return director, players


def test_every_completed_match_is_rated_in_the_order_played(club):
    director, players = club
    tournament = run_tournament(
        players, owner=director, date=JAN, winner=by_rank(players), bracket_kind="round_robin"
    )
    assert ratings.ensure_current() == 6
    rows = list(RatingChange.objects.order_by("sequence", "player_id"))
    assert len(rows) == 12
    order = list(tournament.matches.order_by("started_at", "pk").values_list("pk", flat=True))
    assert [r.match_id for r in rows[::2]] == order
    best = ratings.current_ratings([p.pk for p in players])
    mus = [best[p.pk][0] for p in players]
    assert mus == sorted(mus, reverse=True)  # the player who beat everybody is on top


def test_nothing_is_recomputed_while_the_results_stand(club, django_assert_num_queries):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    ratings.ensure_current()
    with django_assert_num_queries(2):  # the stored fingerprint, and the results' one
        assert ratings.ensure_current() == 3


def test_a_page_that_queued_behind_a_rebuild_does_not_replay_again(club, monkeypatch):
    # Two followers find the ratings stale at once; the first rebuilds, the second takes
    # the lock after it and finds them current: one replay, not two.
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    replays = []
    real = ratings.replay
    monkeypatch.setattr(ratings, "replay", lambda played: replays.append(1) or real(played))
    assert ratings.recompute(unless_current=True) == 3
    assert ratings.recompute(unless_current=True) == 3
    assert len(replays) == 1
    assert ratings.recompute() == 3  # asked for outright, it replays
    assert len(replays) == 2


def test_a_result_that_comes_in_during_the_replay_is_rated_too(club, monkeypatch):
    # The replay runs before the write lock; a correction saved meanwhile is found under
    # the lock (the fingerprint moved) and the replay is done again, so nothing is lost.
    from django.db.models import F

    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    ratings.ensure_current()
    first, _second, final = tournament.matches.filter(status="complete").order_by("round", "pk")

    def flip(match: Match) -> None:
        match.refresh_from_db()
        winner = {"A": "B", "B": "A"}[match.winner_side]
        Match.objects.filter(pk=match.pk).update(winner_side=winner, version=F("version") + 1)

    real = ratings.replay
    replays = []

    def replay_then_correct(played):
        steps = list(real(played))
        if not replays:
            flip(final)  # saved while this replay was running
        replays.append(1)
        return iter(steps)

    flip(first)
    monkeypatch.setattr(ratings, "replay", replay_then_correct)
    assert ratings.ensure_current() == 3
    assert len(replays) == 2
    saved = stored()
    RatingChange.objects.all().delete()
    monkeypatch.setattr(ratings, "replay", real)
    ratings.recompute()
    assert stored() == saved  # what a replay of the results as they now stand gives
    assert ratings.ensure_current() == 3 and len(replays) == 2  # and it is current


def test_a_correction_to_an_old_match_changes_the_ratings_after_it_and_nothing_before(club):
    director, players = club
    first = run_tournament(
        players, owner=director, date=JAN, winner=by_rank(players), bracket_kind="round_robin"
    )
    second = run_tournament(
        players,
        owner=director,
        date=JAN + datetime.timedelta(days=7),
        winner=by_rank(players),
        bracket_kind="round_robin",
    )
    ratings.ensure_current()
    before = stored()
    old = list(first.matches.order_by("started_at", "pk"))[2]  # the third of twelve
    corrected_at = before[(old.pk, old.side_a.player_id)][0]
    versions = {
        v.tournament_id: v.number
        for v in PublicVersion.objects.filter(tournament__in=[first, second])
    }

    loser = "B" if old.winner_side == "A" else "A"
    hand = named(old, 1)
    scoring_services.correct_hand(match=old, data=gin(loser), user=director, **hand)
    old.refresh_from_db()
    scoring_services.confirm_result(match=old, user=director, version=old.version)
    assert ratings.ensure_current() == 12

    after = stored()
    assert after.keys() == before.keys()
    for key, (sequence, mu, sigma) in before.items():
        if sequence < corrected_at:
            assert after[key] == (sequence, mu, sigma), "a rating before the correction moved"
    moved = [key for key, row in before.items() if row[0] >= corrected_at and after[key] != row]
    assert (old.pk, old.side_a.player_id) in moved and (old.pk, old.side_b.player_id) in moved
    later = [key for key in moved if before[key][0] > corrected_at]
    assert later, "nothing after the corrected match changed"
    # The later tournament's public pages are told: its standings show ratings.
    assert PublicVersion.objects.get(tournament=second).number > versions[second.pk]


def test_a_walkover_and_a_bye_are_not_rated(club):
    director, players = club
    tournament = make_tournament(owner=director, preset="modern", date=JAN)
    a, b = (Entry.objects.create(tournament=tournament, player=p) for p in players[:2])
    Match.objects.create(
        tournament=tournament,
        key="W1",
        section="winners",
        round=1,
        position=1,
        side_a=a,
        side_b=b,
        status="complete",
        winner_side="A",
        forfeit=True,
    )
    Match.objects.create(
        tournament=tournament,
        key="W2",
        section="winners",
        round=1,
        position=2,
        side_a=a,
        status="complete",
        winner_side="A",
        is_bye=True,
    )
    assert ratings.ensure_current() == 0
    assert not RatingChange.objects.exists()


def test_a_drafts_matches_are_not_rated_until_it_is_published(club):
    """A draft is its directors' only (a trial run, a rehearsal): nothing of it reaches
    the club's rating, which every public page shows, until it leaves draft."""
    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    tournament.status = Tournament.Status.DRAFT
    tournament.save(update_fields=["status"])
    assert ratings.ensure_current() == 0
    assert not RatingChange.objects.exists()
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    assert ratings.ensure_current() == 3


def test_standings_json_rows_gain_the_rating_and_its_change(client, club):
    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    rows = client.get(reverse("public:standings-json", args=[tournament.slug])).json()["standings"]
    by_name = {row["name"]: row for row in rows}
    champion = by_name["Player 0"]
    assert champion["rating"] > 1500 and champion["rating_change"] == champion["rating"] - 1500
    assert champion["rating_uncertainty"] < 1000
    assert by_name["Player 3"]["rating_change"] < 0
    assert sum(row["rating_change"] for row in rows) in range(-2, 3)  # zero-sum, rounding


def test_a_new_players_rating_is_marked_provisional_on_the_page_the_json_and_the_pdf(
    client, club, monkeypatch
):
    """One night leaves every rating of a new club uncertain: "1712?" with its
    explanation, ``rating_provisional`` in standings.json, the same mark on the PDF."""
    import io
    import re

    from pypdf import PdfReader

    from club import rating

    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    slug = tournament.slug
    rows = client.get(reverse("public:standings-json", args=[slug])).json()["standings"]
    assert [row["rating_provisional"] for row in rows] == [True] * 4
    html = client.get(reverse("public:tournament", args=[slug])).content.decode()
    region = html[html.index('id="standings"') :]
    marked = re.findall(
        r'<td class="num rating">(\d+)<abbr class="provisional" title="([^"]+)">\?</abbr>', region
    )
    assert [int(r) for r, _title in marked] == [row["rating"] for row in rows]
    assert "Provisional" in marked[0][1]
    assert "? Provisional rating:" in region  # said under the table too
    pdf = client.get(reverse("printing:standings-pdf", args=[slug])).content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Club rating" in text and f"{rows[0]['rating']}?" in text
    assert "? Provisional rating" in text
    for url in (
        reverse("club:player", args=[players[0].pk]),
        reverse("club:tournament-ratings", args=[slug]),
    ):
        club_page = client.get(url).content.decode()
        assert f'{rows[0]["rating"]}<abbr class="provisional"' in club_page, url
        assert "? Provisional rating:" in club_page, url
    # Once the uncertainty is small (here: a threshold above it), no mark anywhere.
    monkeypatch.setattr(rating, "PROVISIONAL_SIGMA", 10_000.0)
    from django.core.cache import cache

    from public.live import forget

    cache.clear()
    forget()
    rows = client.get(reverse("public:standings-json", args=[slug])).json()["standings"]
    assert [row["rating_provisional"] for row in rows] == [False] * 4
    html = client.get(reverse("public:tournament", args=[slug])).content.decode()
    assert 'class="provisional"' not in html and "Provisional rating:" not in html
    pdf = client.get(reverse("printing:standings-pdf", args=[slug])).content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert f"{rows[0]['rating']}?" not in text and f"{rows[0]['rating']}" in text


def test_the_tournament_pages_standings_gain_a_club_rating_column(client, club):
    import re

    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert "Club rating</abbr></th>" in html
    rows = client.get(reverse("public:standings-json", args=[tournament.slug])).json()["standings"]
    cells = re.findall(
        r'class="player-link"[^>]*>([^<]+)</a>.*?<td class="num rating">(\d+)'
        r'(?:<abbr class="provisional"[^>]*>\?</abbr>)? '
        r'<span class="rating-change[^"]*">([+-]?\d+)</span>',
        html[html.index('id="standings"') :],
        re.S,
    )
    assert [(n, int(r), int(c)) for n, r, c in cells] == [
        (row["name"], row["rating"], row["rating_change"]) for row in rows
    ]
    assert cells[0][2].startswith("+") and cells[-1][2].startswith("-")
    # A tournament not played yet shows each player's rating going in, and no change.
    upcoming = make_tournament(owner=director, date=JAN + datetime.timedelta(days=7))
    Entry.objects.create(tournament=upcoming, player=players[0], seed=1)
    Entry.objects.create(tournament=upcoming, player=players[3], seed=2)
    generate_bracket(tournament=upcoming, user=director)
    html = client.get(reverse("public:tournament", args=[upcoming.slug])).content.decode()
    going_in = ratings.tournament_ratings(tournament.pk)[players[0].pk].rating
    assert re.search(
        rf'<td class="num rating">{going_in}(<abbr class="provisional"[^>]*>\?</abbr>)?</td>', html
    )


def test_no_rating_column_before_the_club_has_a_rating(client, club):
    director, players = club
    tournament = make_tournament(owner=director)
    Entry.objects.create(tournament=tournament, player=players[0], seed=1)
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert "Club rating" not in html


def test_standings_json_has_no_rating_before_the_club_has_one(client, club):
    director, players = club
    tournament = make_tournament(owner=director)
    Entry.objects.create(tournament=tournament, player=players[0], seed=1)
    rows = client.get(reverse("public:standings-json", args=[tournament.slug])).json()["standings"]
    assert all("rating" not in row for row in rows)


def test_seed_by_club_rating_in_one_click(client, club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    newcomer = make_player(name="Newcomer", rating=3999)  # registry rating: a tie-break only
    tournament = make_tournament(owner=director, date=JAN + datetime.timedelta(days=7))
    for player in [*reversed(players), newcomer]:
        Entry.objects.create(tournament=tournament, player=player)
    client.force_login(director)
    response = client.post(reverse("club:seed-by-club-rating", args=[tournament.slug]))
    assert response.status_code == 302
    seeded = list(tournament.entries.order_by("seed").values_list("player__name", flat=True))
    assert seeded == ["Player 0", "Player 1", "Player 2", "Player 3", "Newcomer"]
    assert tournament.audit_entries.filter(action="seeded by club rating").exists()


def test_seed_by_club_rating_is_for_the_tournaments_directors(client, club):
    director, players = club
    tournament = make_tournament(owner=director)
    Entry.objects.create(tournament=tournament, player=players[0])
    client.force_login(make_director())
    response = client.post(reverse("club:seed-by-club-rating", args=[tournament.slug]))
    assert response.status_code == 403
    assert tournament.entries.get().seed is None


def test_the_tournament_page_shows_the_rating_changes_it_caused(client, club):
    director, players = club
    tournament = run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    page = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert reverse("club:tournament-ratings", args=[tournament.slug]) in page
    changes = client.get(reverse("club:tournament-ratings", args=[tournament.slug]))
    text = changes.content.decode()
    champion = ratings.tournament_ratings(tournament.pk)[players[0].pk]
    assert f"+{champion.change}" in text
    assert "Player 0 beat Player 3" in text


def test_a_new_result_appends_its_two_rows_and_rewrites_nothing(club):
    director, players = club
    run_tournament(players, owner=director, date=JAN, winner=by_rank(players))
    ratings.ensure_current()
    kept = set(RatingChange.objects.values_list("pk", "mu_after"))
    run_tournament(players[:2], owner=director, date=JAN, winner=by_rank(players))
    assert ratings.ensure_current() == 4
    now = set(RatingChange.objects.values_list("pk", "mu_after"))
    assert kept < now and len(now - kept) == 2


def test_a_partnership_match_rates_no_one_and_is_on_no_players_page(client, club):
    """A team entry is a team: the club rating and the player pages are a player's own."""
    from tests.teams import first_match, knock, play_deals, team_bracket
    from tournaments.services import confirm_match

    teams = team_bracket(4, preset="partnership")
    match = first_match(teams)
    while not match.winner_side:
        play_deals(match, [[knock("A", 2, 60), knock("A", 2, 60)]])
        match.refresh_from_db()
    confirm_match(match=match, user=teams.owner)
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert ratings.ensure_current() == 0
    assert not RatingChange.objects.exists()
    seat_one = match.side_a.player
    page = client.get(reverse("club:player", args=[seat_one.pk])).content.decode()
    assert teams.name not in page
