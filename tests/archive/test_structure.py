"""The bracket's shape: import_tournament refuses an archive whose routes go round in a
circle or back, whose byes are not byes, whose table-link tokens are not tokens or whose
players are not where the results sent them; verify_tournament reports the same of a
stored tournament. Every bracket the site generates and plays has the right shape."""

from __future__ import annotations

import pytest

from archive.verify import check_structure
from tests.factories import make_bracket, make_entries, make_tournament
from tournaments.models import Match

from .test_archive import archived, counts, play_out, refused, write  # noqa: F401
from .test_verify import verify

pytestmark = pytest.mark.django_db


def row(document, key):
    return next(m for m in document["matches"] if m["key"] == key)


def index(document, key):
    return next(i for i, m in enumerate(document["matches"]) if m["key"] == key)


def cycle(document):
    """The final's winner goes back to a semifinal, which feeds the final."""
    row(document, "W3-1").update(next_match="W2-1", next_slot="A")


def final_a_bye(document):
    row(document, "W3-1")["is_bye"] = True


def bye_not_complete(document):
    bye = next(m for m in document["matches"] if m["is_bye"])
    bye["status"] = "ready"


def two_into_one_slot(document):
    row(document, "W1-4").update(next_match="W2-1", next_slot="A")


def back_to_round_one(document):
    row(document, "W2-1").update(loser_next_match="W1-2", loser_next_slot="A")


def out_of_the_third_place_match(document):
    row(document, "3P").update(next_match="W3-1", next_slot="B")


def someone_else_in_the_final(document):
    final = row(document, "W3-1")
    final["side_a"], final["side_b"] = final["side_b"], final["side_a"]


def a_walkover_with_one_player(document):
    semi = row(document, "W2-1")
    semi["side_b"] = None


CASES = [
    pytest.param(
        lambda d: row(d, "W1-1").update(token="x"),
        "W1-1",
        "token: is not a table-link token",
        id="token-short",
    ),
    pytest.param(
        lambda d: row(d, "W1-1").update(token="a/" + "b" * 41),
        "W1-1",
        "token: is not a table-link token",
        id="token-slash",
    ),
    pytest.param(
        cycle,
        "W3-1",
        "next_match: leads to W2-1, which is not later in the bracket",
        id="cycle",
    ),
    pytest.param(final_a_bye, "W3-1", "is_bye: a bye has one player", id="final-a-bye"),
    pytest.param(bye_not_complete, None, "is_bye: a bye is complete", id="bye-not-complete"),
    pytest.param(two_into_one_slot, "W1-4", "W2-1 side A is fed by W1-", id="slot-fed-twice"),
    pytest.param(back_to_round_one, "W2-1", "leads to W1-2, which is not later", id="back"),
    pytest.param(out_of_the_third_place_match, "3P", "leads to W3-1", id="from-3p"),
    pytest.param(
        someone_else_in_the_final, "W3-1", "side_a: should hold the winner of W2-", id="moved"
    ),
    pytest.param(a_walkover_with_one_player, "W2-1", "status: a played or", id="one-player"),
]


@pytest.mark.parametrize(("change", "key", "message"), CASES)
def test_a_misshapen_bracket_is_refused_and_nothing_is_imported(
    archived,  # noqa: F811
    tmp_path,
    change,
    key,
    message,
):
    change(archived)
    before = counts()
    error = refused(write(tmp_path, archived))
    assert message in error
    if key is not None:
        assert error.startswith(f"error: matches[{index(archived, key)}].")
    assert counts() == before


def test_the_issue_s_cyclic_bracket_with_a_bye_final_is_reported_by_verify():
    """Stored behind the services' back (an archive can no longer bring it in)."""
    tournament = make_bracket(players=16, preset="modern")
    play_out(tournament)
    matches = {m.key: m for m in tournament.matches.all()}
    Match.objects.filter(pk=matches["W4-1"].pk).update(
        next_match=matches["W3-1"], next_slot="A", is_bye=True
    )

    status, out, _err = verify(tournament.slug)

    assert status == 1
    assert "W4-1  next_match: leads to W3-1, which is not later in the bracket" in out
    assert "W4-1  is_bye: a bye has one player, and that player won it" in out


def test_a_bad_token_and_a_stranger_are_reported_by_verify():
    tournament = make_bracket(players=4, preset="modern")
    other = make_tournament()
    (stranger,) = make_entries(tournament=other, count=1)
    first, second = tournament.matches.order_by("round", "position")[:2]
    Match.objects.filter(pk=first.pk).update(token="x")
    Match.objects.filter(pk=second.pk).update(side_b=stranger)

    status, out, _err = verify(tournament.slug)

    assert status == 1
    assert f"{first.key}  token: is not a table-link token" in out
    assert f"{second.key}  side_b: is a player of another tournament" in out


@pytest.mark.parametrize(
    "fields",
    [
        {"bracket_kind": "single_elimination"},
        {"bracket_kind": "single_elimination", "third_place": True, "consolation": True},
        {"bracket_kind": "double_elimination"},
        {"bracket_kind": "double_elimination", "bracket_reset": False},
        {"bracket_kind": "round_robin"},
    ],
    ids=["single", "single-3p-consolation", "double", "double-no-reset", "round-robin"],
)
@pytest.mark.parametrize("players", [2, 3, 8, 11])
def test_every_generated_and_played_bracket_has_the_right_shape(fields, players):
    tournament = make_bracket(players=players, preset="modern", **fields)
    matches = list(tournament.matches.order_by("pk"))
    assert check_structure(tournament, matches) == []
    play_out(tournament)
    matches = list(tournament.matches.order_by("pk"))
    assert all(m.status == "complete" for m in matches)
    assert check_structure(tournament, matches) == []
    assert verify(tournament.slug)[0] == 0
