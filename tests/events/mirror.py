"""The club's server following the night (issue 34), after every round: the mirror as it
stood at the last check, brought up to date by what the venue sends now (a part: only
the matches that changed), is the venue's tournament again, row for row, and
``verify_tournament`` finds it clean.

The club's server shares the test database with the venue, so each check is undone
afterwards (a savepoint rolled back) and the next one rebuilds the mirror from the archive
kept at the last: the club's pages see the venue's tournament alone, as they would on
another machine.
"""

from __future__ import annotations

import gzip
import io
import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from archive.export import export_tournament
from archive.restore import write_copy
from publishing.lag import freshness
from publishing.mirrors import forget_mirrored
from publishing.models import Destination, Mirror, Publication
from publishing.receiving import receive
from publishing.sending import Publisher, Reply, changes_of, fingerprints
from publishing.tokens import make_token
from tournaments.models import Tournament

from .driver import Event
from .problems import Problem, first_difference


@dataclass(frozen=True)
class Published:
    """What the club had at the last check: the archive, its change number, and each
    match's fingerprint as the venue sent it."""

    document: dict[str, Any]
    number: int
    marks: dict[str, str]


class _Undo(Exception):
    pass


def _nobody(_player: Any) -> bool:
    return False


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """An archive without what a mirror has of its own: its slug, its people (the venue's
    are not the club's), its revoked table links, its seasons (the venue's, in this shared
    database, keep their slugs: checked by :mod:`.mirror_money`); rows in an order of their
    own keys."""
    document = {**document, "tournament": dict(document["tournament"])}
    document.pop("seasons", None)
    for name in ("slug", "owner", "co_directors", "scorekeepers"):
        document["tournament"].pop(name)
    document["matches"] = sorted(
        (
            {k: v for k, v in m.items() if k not in ("token", "token_revoked")}
            for m in document["matches"]
        ),
        key=lambda m: m["key"],
    )
    document["hands"] = sorted(
        ({k: v for k, v in h.items() if k != "entered_by"} for h in document["hands"]),
        key=lambda h: (h["match"], h["number"]),
    )
    document["audit"] = [{k: v for k, v in row.items() if k != "user"} for row in document["audit"]]
    if "decisions" in document:
        document["decisions"] = sorted(
            ({k: v for k, v in d.items() if k != "by"} for d in document["decisions"]),
            key=lambda d: (d["match"], d["at"], d["kind"]),
        )
    return document


def _club_director() -> Any:
    user, _created = get_user_model().objects.get_or_create(
        username="club-director", defaults={"is_staff": True}
    )
    return user


def mirror(event: Event) -> list[Problem]:
    venue = event.tournament
    if venue.status == Tournament.Status.DRAFT:
        return []
    slug = f"{venue.slug}-club"
    problems: list[Problem] = []
    before: Published | None = event.published
    try:
        with transaction.atomic():
            problems = _publish(venue, slug, before)
            raise _Undo
    except _Undo:
        pass
    finally:
        forget_mirrored()
    event.published = Published(
        export_tournament(venue, shows_private=_nobody, published=True),
        changes_of([venue]).get(venue.pk, 0),
        fingerprints(venue),
    )
    return problems


def _publish(venue: Tournament, slug: str, before: Published | None) -> list[Problem]:
    director = _club_director()
    token, secret = make_token(user=director)
    Destination.objects.all().delete()
    Destination.objects.create(url="http://club.test/", token=secret, venue="The venue")
    Publication.objects.update_or_create(
        tournament=venue, defaults={"slug": slug, "acknowledged_through": 0, "sent": None}
    )
    if before is not None:  # the club's mirror as it was at the last check
        copy = write_copy(before.document, slug=slug, owned_by=director)
        Mirror.objects.create(
            tournament=copy, owner=director, token=token, applied_through=before.number
        )
        Publication.objects.filter(tournament=venue).update(
            acknowledged_through=before.number, sent=before.marks
        )
    bodies: list[dict[str, Any]] = []
    answers: list[Reply] = []

    def post(_url: str, data: bytes, _headers: dict[str, str]) -> Reply:
        body = json.loads(gzip.decompress(data))
        bodies.append(body)
        answer = receive(token, body)
        answers.append(Reply(answer.status, answer.body))
        return answers[-1]

    Publisher(post).publish_once()
    mine = [(b, a) for b, a in zip(bodies, answers, strict=True) if b["slug"] == slug]
    problems = [
        Problem("publishing", "", f"the club answered {a.status}: {a.body}")
        for _b, a in mine
        if a.status != 200
    ]
    moved = before is not None and changes_of([venue]).get(venue.pk, 0) > before.number
    if moved and (len(mine) != 1 or mine[0][0]["since"] != before.number):
        sent = [(b["since"], b.get("hands_of")) for b, _a in mine]
        problems.append(Problem("publishing", "", f"not one part since the last check: {sent}"))
    copy = Tournament.objects.filter(slug=slug).first()
    if copy is None:
        return [*problems, Problem("mirror", "", "the club has no mirror")]
    problems += up_to_date(copy)
    venue_doc = comparable(export_tournament(venue, shows_private=_nobody, published=True))
    mirror_doc = comparable(export_tournament(copy, shows_private=_nobody, published=True))
    if mirror_doc != venue_doc:
        difference = first_difference(venue_doc, mirror_doc, "the mirror", "venue", "mirror")
        problems.append(Problem("mirror", "", difference))
    out = io.StringIO()
    try:
        call_command("verify_tournament", slug, stdout=out, stderr=out)
    except SystemExit:
        lines = out.getvalue().strip().splitlines()
        problems += [Problem("mirror verify_tournament", "", line) for line in lines]
    return problems


def up_to_date(copy: Tournament) -> list[Problem]:
    """Issue 43: a mirror that has every change the venue told of says so, 0 s behind."""
    found = freshness(Mirror.objects.get(tournament=copy))
    if found.behind == 0 and found.line.startswith("Live from the venue · up to date"):
        return []
    return [Problem("mirror freshness", "", f"says {found.line!r} ({found.behind} s behind)")]
