"""A mirrored tournament's director pages are read-only pages (issue 43): walked as its
owner and as the club's administrator, every page of every tournament of the permission
matrix's world, made mirrors of a venue's, shows the venue's banner and no control that
would write to it (the middleware refuses such a write anyway:
``test_permissions_matrix.test_a_mirrored_tournament_refuses_every_write``)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from publishing.mirrors import refusal
from publishing.models import Mirror
from tests.factories import make_user
from tests.test_permissions_matrix import (  # noqa: F401  (world: the matrix's fixture)
    PATTERNS,
    SEASON_URLS,
    Pattern,
    build_path,
    kwargs_for,
    world,
)
from tournaments.models import Match, Tournament

VENUE = "Hall B"
FORM = re.compile(r"<form\b[^>]*>", re.I)
HX_POST = re.compile(r"\bhx-post=\"([^\"]*)\"")
WRITE_LINK = re.compile(r"href=\"([^\"]*/(?:edit|delete)/[^\"]*)\"")


def pages(world) -> list[str]:  # noqa: F811
    """Every path of a GET page about a tournament: each pattern as the matrix fills it,
    and each one that needs no more than a slug for every tournament of the world (its
    pages in every state: registering, drawn, running, staged, teams…)."""
    paths = []
    for pattern in PATTERNS:
        if "slug" not in pattern.arguments or pattern.key.startswith(SEASON_URLS):
            continue
        paths.append(build_path(pattern, kwargs_for(pattern, world, "dir")))
        if pattern.arguments == ("slug",):
            paths += [build_path(pattern, {"slug": slug}) for slug in slugs()]
    return sorted(set(paths))


def slugs() -> list[str]:
    return list(Tournament.objects.values_list("slug", flat=True))


def writes_shown(body: str) -> list[str]:
    """The controls on a page that would write: a POST form (but logging out and the
    language, which are the visitor's, not the tournament's), an htmx POST, a link to an
    edit or delete page."""
    found = [
        tag
        for tag in FORM.findall(body)
        if re.search(r"method=\"post\"", tag, re.I)
        and not re.search(r"action=\"/(accounts/logout|i18n/setlang)/\"", tag)
    ]
    found += [f"hx-post {url}" for url in HX_POST.findall(body)]
    found += [f"link {url}" for url in WRITE_LINK.findall(body)]
    return found


def walk(client: Client, paths: list[str]) -> dict[str, tuple[list[str], bool | None]]:
    """Each HTML page that answers 200: the write controls it shows, and its banner (or
    None: not a page of the site's layout, such as the projector or a fragment)."""
    banner = f'<p class="read-only-banner" role="note">{html.escape(refusal(VENUE))}</p>'
    seen = {}
    for path in paths:
        answer = client.get(path)
        if answer.status_code != 200 or "text/html" not in answer.get("Content-Type", ""):
            continue
        body = answer.content.decode()
        seen[path] = (
            writes_shown(body),
            banner in body if '<main class="content"' in body else None,
        )
    return seen


@pytest.fixture
def admin(world):  # noqa: F811
    return make_user(username="admin", is_superuser=True, is_staff=True)


def test_a_mirrors_pages_show_no_write_and_the_banner(world, admin):  # noqa: F811
    owner = Client()
    owner.force_login(world.users["dir"])
    paths = pages(world)
    before = walk(owner, paths)
    assert sum(bool(writes) for writes, _ in before.values()) >= 15, "the walk finds writes"
    assert not any(banner for _, banner in before.values())
    for tournament in Tournament.objects.all():
        Mirror.objects.create(tournament=tournament, owner=tournament.owner, venue=VENUE)
    Match.objects.update(token_revoked=True)  # as archive.restore.write_copy leaves them
    wrong = []
    for who in (world.users["dir"], admin):
        client = Client()
        client.force_login(who)
        seen = walk(client, paths)
        assert len(seen) >= 40, len(seen)
        for path, (writes, banner) in seen.items():
            wrong += [f"{who} {path}: {write}" for write in writes]
            if banner is False:
                wrong.append(f"{who} {path}: no banner")
    assert not wrong, "\n".join(wrong)
