"""``POST /publish/changes/`` from a token holder who means harm, or a venue gone wrong
(issue 43): every body the club cannot read gets the protocol's JSON refusal, never an
error page; a change number out of range, or beyond what the change carries, is refused
and changes nothing, so the mirror never acknowledges (and so skips) a change it did not
apply; wrong tokens from an address are limited without locking out the right one, and the
refusal says until when."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.utils import translation

from archive.export import export_tournament
from publishing import protocol
from publishing.models import Mirror
from scoring.models import Hand
from tests.public.test_tables_json import seated
from tests.publishing import test_receiving
from tests.publishing.test_receiving import change, mirrored, send, standings
from tests.scoring.helpers import knock, play
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

venue = test_receiving.venue  # four players at two tables, two hands played: "friday"
secret = test_receiving.secret  # a token of the director clubdora


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def refused_as_bad_request(answer, says: str = "") -> None:
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "bad-request"
    assert says in answer.json()["error"]


# -- bodies the club cannot read ---------------------------------------------------------


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzipped"])
def test_deeply_nested_json_is_a_json_refusal_not_an_error_page(secret, gzipped):
    raw = nested(100_000).encode()
    headers = {}
    if gzipped:
        raw, headers = gzip.compress(raw), {"HTTP_CONTENT_ENCODING": "gzip"}
    refused_as_bad_request(send(None, secret, raw=raw, **headers), "not JSON")


def test_nesting_the_parser_reads_but_nothing_should_is_refused_before_it_is_read(venue, secret):
    body = change(venue)
    # Deep enough to break whatever writes it back as JSON (an audit row's "after").
    body["archive"]["audit"][0]["after"] = json.loads(nested(900))
    refused_as_bad_request(send(body, secret), "not JSON")
    body = change(venue)
    body["venue"] = json.loads(nested(protocol.MAX_DEPTH + 1))
    refused_as_bad_request(send(body, secret), "not JSON")
    assert not Mirror.objects.exists()


def test_an_archive_nests_well_within_the_limit(venue, secret):
    assert send(change(venue), secret).status_code == 200


def test_a_gzip_bomb_is_refused_without_being_unpacked_whole(secret):
    raw = gzip.compress(b" " * (protocol.MAX_BODY + 1024), compresslevel=1)
    assert len(raw) < 1024 * 1024  # small on the wire
    refused_as_bad_request(send(None, secret, raw=raw, HTTP_CONTENT_ENCODING="gzip"))


@pytest.mark.parametrize("slug", ["", "../admin", "a b", "x" * 81, "t/friday", 7, None], ids=repr)
def test_a_slug_that_is_not_one_is_refused(venue, secret, slug):
    refused_as_bad_request(send(change(venue, slug=slug), secret), "names no tournament")
    assert not Mirror.objects.exists()


# -- change numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "through",
    [-1, 2**31, 2**63, 2**64, 10**30, 1.5, 7.0, "7", True, [7], {"n": 7}],
    ids=repr,
)
def test_a_change_number_out_of_range_or_not_a_whole_number_is_refused(venue, secret, through):
    refused_as_bad_request(send(change(venue, through=through), secret), "no change number")
    assert not Mirror.objects.exists()
    assert not Tournament.objects.filter(slug="friday-club").exists()


def part_of(t: Tournament, *, since: int, audit_from: int, through: int | None = None) -> dict:
    """A part (what changed after ``since``) of ``t``, with the hands of every match."""
    keys = sorted(t.matches.values_list("key", flat=True))
    body = change(t, through=through)
    body["archive"] = export_tournament(t, hands_of=keys, audit_from=audit_from)
    body.update(since=since, hands_of=keys, audit_from=audit_from)
    return body


@pytest.mark.parametrize(
    "since, audit_from, says",
    [
        (-1, 0, "not well formed"),
        (2**31, 0, "not well formed"),
        (2**63, 0, "not well formed"),
        ("3", 0, "not well formed"),
        (3, -1, "not well formed"),
        (3, 2**63, "not well formed"),
        (3, 4, "not well formed"),  # the audit starting after the acknowledged change
        (10**6, 0, "not well formed"),  # acknowledged beyond the venue's own number
    ],
)
def test_a_part_with_numbers_out_of_range_or_contradicting_is_refused(
    venue, secret, since, audit_from, says
):
    send(change(venue), secret)
    before = Mirror.objects.get().applied_through
    play(seated(venue)[0], [knock("A", 2, 40)])
    body = part_of(venue, since=before, audit_from=0)
    body.update(since=since, audit_from=audit_from)
    refused_as_bad_request(send(body, secret), says)
    assert Mirror.objects.get().applied_through == before
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 2


@pytest.mark.parametrize(
    "claimed",
    [lambda n: n + 1, lambda n: n + 1000, lambda n: protocol.MAX_CHANGE],
    ids=["one more", "many more", "the largest"],
)
def test_a_change_claiming_more_than_it_carries_is_refused(venue, secret, claimed):
    through = claimed(change(venue)["through"])
    refused_as_bad_request(send(change(venue, through=through), secret), "fewer")
    assert not Mirror.objects.exists()
    assert not Tournament.objects.filter(slug="friday-club").exists()


def test_the_largest_number_never_freezes_the_mirror(venue, secret):
    """Once published, a whole archive or a part numbered far ahead is refused, and the
    venue's real changes after it are applied, not acknowledged unapplied."""
    assert send(change(venue), secret).status_code == 200
    at = Mirror.objects.get().applied_through
    play(seated(venue)[0], [knock("A", 2, 40)])
    refused_as_bad_request(send(change(venue, through=protocol.MAX_CHANGE), secret), "fewer")
    frozen = part_of(venue, since=at, audit_from=at - 1, through=protocol.MAX_CHANGE)
    refused_as_bad_request(send(frozen, secret), "fewer")
    assert Mirror.objects.get().applied_through == at
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 2
    play(seated(venue)[0], [knock("B", 3, 20)])
    real = part_of(venue, since=at, audit_from=at - 1)
    assert send(real, secret).json() == {"applied_through": real["through"]}
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 4
    assert standings("friday-club") == standings("friday")


def test_a_part_after_a_gap_is_not_acknowledged(venue, secret):
    send(change(venue), secret)
    at = Mirror.objects.get().applied_through
    play(seated(venue)[0], [knock("A", 2, 40)])
    gap = part_of(venue, since=at + 1, audit_from=at)
    answer = send(gap, secret)
    assert answer.status_code == 200 and answer.json() == {"applied_through": at}
    assert gap["through"] > at
    assert Hand.objects.filter(match__tournament=mirrored()).count() == 2


def test_the_answer_is_always_the_number_the_mirror_holds(venue, secret):
    """Every answer's ``applied_through`` is a number whose changes the mirror has."""
    send(change(venue), secret)
    for body in (
        change(venue, through=change(venue)["through"] + 3, archive=False),  # a heartbeat ahead
        change(venue, through=change(venue)["through"] + 3),  # claims more
    ):
        applied = send(body, secret).json().get("applied_through")
        if applied is not None:
            assert applied <= AuditEntry.objects.filter(tournament=mirrored()).count()
    assert Mirror.objects.get().applied_through == change(venue)["through"]


# -- wrong tokens ------------------------------------------------------------------------------


def limit_reached(venue) -> None:
    for _n in range(protocol.TOKEN_FAILURE_LIMIT):
        assert send(change(venue), "wrong").status_code == 401


def test_wrong_tokens_do_not_lock_out_the_right_one_from_the_same_address(venue, secret):
    limit_reached(venue)
    assert send(change(venue), "wrong").status_code == 429
    answer = send(change(venue), secret)
    assert answer.status_code == 200 and mirrored()
    play(seated(venue)[0], [knock("A", 2, 40)])
    assert send(change(venue), secret).json() == {"applied_through": change(venue)["through"]}
    assert send(change(venue), "wrong").status_code == 429  # still limited


def test_the_refusal_says_until_when(venue):
    limit_reached(venue)
    answer = send(change(venue), "wrong")
    seconds = int(answer["Retry-After"])
    assert 0 < seconds <= protocol.TOKEN_FAILURE_WINDOW
    assert answer.json()["code"] == "limited"
    error = answer.json()["error"]
    assert "wait" not in error.split(":")[-1] and re.search(r"\d{1,2}:\d\d", error), error


@pytest.mark.parametrize(
    "language, says",
    [
        ("en", "Too many wrong publishing tokens from this address"),
        ("es", "Demasiadas claves de publicación incorrectas desde esta dirección"),
        ("af", "Te veel verkeerde publiseersleutels van hierdie adres"),
    ],
)
def test_the_limit_is_said_in_each_language(venue, language, says):
    limit_reached(venue)
    with translation.override(language):
        answer = send(change(venue), "wrong", HTTP_ACCEPT_LANGUAGE=language)
    assert says in answer.json()["error"]
    assert re.search(r"\d{1,2}:\d\d", answer.json()["error"])
