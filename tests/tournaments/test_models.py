"""Model invariants, the audit helper and the permission functions."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from engine import ScoringError
from tests.factories import (
    make_director,
    make_entries,
    make_match,
    make_player,
    make_tournament,
    make_user,
)
from tournaments import audit
from tournaments.models import AuditEntry, Match, Player, Tournament
from tournaments.permissions import can_direct, can_score, is_director

pytestmark = pytest.mark.django_db


def test_slug_from_name_with_numeric_suffix_on_clash():
    first = make_tournament(name="Spring Open")
    second = make_tournament(name="Spring Open")
    third = make_tournament(name="Spring  open!")
    assert (first.slug, second.slug, third.slug) == (
        "spring-open",
        "spring-open-2",
        "spring-open-3",
    )
    assert make_tournament(name="¡¿?").slug == "tournament"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Żółć Cup", "zolc-cup"),
        ("Große Straße Open", "grosse-strasse-open"),
        ("Кубок клуба", "kubok-kluba"),
        ("Ελληνικό Τουρνουά", "elliniko-toyrnoya"),
        ("Ǻrhus Ølfest", "arhus-olfest"),
    ],
    ids=["polish", "german", "cyrillic", "greek", "danish"],
)
def test_slug_transliterates_letters_slugify_would_drop(name, slug):
    assert make_tournament(name=name).slug == slug


def test_ruleset_is_resolved_from_the_snapshot():
    t = make_tournament(preset="tournament", rules={"gin_bonus": 20})
    assert t.ruleset.games_to_win == 3
    assert t.ruleset.gin_bonus == 20
    assert t.rules["preset"] == "tournament"


def test_ruleset_follows_the_rules_and_validates_every_value():
    # Resolved rules are shared between instances with equal rules; a value that only
    # compares equal (1 == True) must still be refused, and a change must be seen.
    t = Tournament(name="x", rules={"preset": "oklahoma", "spade_double": True})
    assert t.ruleset.spade_double is True
    t.rules = {"preset": "oklahoma", "spade_double": 1}
    with pytest.raises(ScoringError, match="spade_double must be true or false"):
        t.ruleset  # noqa: B018
    t.rules["spade_double"] = False
    assert t.ruleset.spade_double is False
    t.rules = ["not", "an", "object"]
    with pytest.raises(ScoringError):
        t.ruleset  # noqa: B018


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            {"name": "Ann Lee", "email": "ann@example.com"},
            {"name": "ann lee", "email": "ANN@example.com"},
        ),
        ({"name": "Ann Lee"}, {"name": "ANN LEE"}),
        ({"name": "Ann Lee", "club_id": "C7"}, {"name": "Bob Roy", "club_id": "C7"}),
    ],
    ids=["name-and-email", "name-without-email", "club-id"],
)
def test_duplicate_players_are_refused(first, second):
    make_player(**first)
    with pytest.raises(ValidationError):
        Player(**second).full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player(**second)


def test_same_name_different_email_and_blank_club_ids_are_fine():
    make_player(name="Ann Lee", email="a@example.com")
    make_player(name="Ann Lee", email="b@example.com")
    make_player(name="Cy", club_id="")
    make_player(name="Di", club_id="")
    assert Player.objects.count() == 4


def test_match_token_is_long_and_unique():
    t = make_tournament()
    tokens = {make_match(tournament=t).token for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(token) >= 32 for token in tokens)


def test_side_names_can_come_with_the_query(django_assert_num_queries):
    t = make_tournament()
    a = make_entries(tournament=t, count=1)[0]
    make_match(tournament=t, a=a)
    match = Match.objects.annotate(**Match.side_names()).get()
    with django_assert_num_queries(0):
        assert match.side_name("A") == a.player.name
        assert match.side_name("B") == "TBD"
    with pytest.raises(ValueError):
        match.side_name("C")


def test_match_helpers():
    t = make_tournament()
    a, b = make_entries(tournament=t, count=2)
    match = make_match(tournament=t, a=a, b=b, round=2, position=3)
    assert match.entry("A") == a and match.entry("B") == b
    assert match.winner is None and match.loser is None
    match.winner_side = "B"
    assert (match.winner, match.loser) == (b, a)
    assert match.label == "Round 2 · Match 3"
    assert match.ruleset == t.ruleset
    assert str(match).endswith(f"{a} v {b}")
    with pytest.raises(ValueError):
        match.entry("C")


def test_match_constraints():
    t = make_tournament()
    make_match(tournament=t, key="W1-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_match(tournament=t, key="W1-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_match(tournament=t, winner_side="C")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_match(tournament=t, status=Match.Status.COMPLETE)


def test_audit_record():
    t = make_tournament()
    user = make_user()
    entry = audit.record(
        tournament=t, action="x", obj=t, before={"a": 1}, after={"a": 2}, user=user, via="v"
    )
    entry.refresh_from_db()
    assert (entry.object_type, entry.object_id) == ("tournament", str(t.pk))
    assert entry.who == f"{user} · v"
    anonymous = audit.record(tournament=None, action="y", user=make_anonymous())
    assert anonymous.user is None
    assert AuditEntry.objects.count() == 2


def make_anonymous():
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


def test_permissions():
    owner, co, other = make_director(), make_director(), make_director()
    keeper, stranger = make_user(), make_user()
    t = make_tournament(owner=owner, co_directors=(co,), scorekeepers=(keeper,))
    elsewhere = make_tournament(owner=other, scorekeepers=(stranger,))
    anonymous = make_anonymous()
    assert [can_direct(u, t) for u in (owner, co, other, keeper, stranger, anonymous)] == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert [can_score(u, t) for u in (owner, co, other, keeper, stranger, anonymous)] == [
        True,
        True,
        False,
        True,
        False,
        False,
    ]
    assert can_score(stranger, elsewhere)
    assert [is_director(u) for u in (owner, keeper, anonymous)] == [True, False, False]
    superuser = make_user(is_superuser=True)
    assert can_direct(superuser, t) and is_director(superuser)
    inactive = make_director(is_active=False)
    t.co_directors.add(inactive)
    assert not can_direct(inactive, t)


def test_tournament_status_constraint():
    with pytest.raises(IntegrityError), transaction.atomic():
        make_tournament(status="bogus")
    assert Tournament.objects.count() == 0
