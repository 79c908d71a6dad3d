"""The permission matrix, generated from the URL resolver (SPEC 5).

Every URL pattern Django can resolve is requested by every kind of visitor, with GET and
with POST, and the database is fingerprinted (each table's row count and a hash of its
rows) before and after each request. What each visitor must get, and whether the request
may change the database, is written once in ``EXPECTED`` below; a pattern the resolver
knows and the table does not (a new URL) fails :func:`test_every_url_has_an_expectation`,
so no new URL escapes the matrix. Django admin's own URLs follow their kind (list, add,
change, delete, history…) in ``ADMIN_EXPECTED``: none of these visitors is staff.

The visitors (one column each, in this order):

- ``anon``: nobody, no cookies;
- ``table``: the players at a table, holding its table link and nothing else (on the
  ``/table/<token>/…`` URLs the token of the match the URL is about; elsewhere they are as
  anonymous as anybody);
- ``revoked``: a table link the director has switched off;
- ``norole``: a signed-in account with no role anywhere;
- ``okeep``: the scorekeeper of another director's tournament;
- ``odir``: another director (may create tournaments, directs another one, not this one);
- ``codir``: a co-director of the director's tournaments;
- ``keeper``: the scorekeeper of the director's tournaments;
- ``dir``: the director who owns them.

Visitors without a table link who open a ``/table/<token>/…`` URL can only guess a token.

Every request runs in a savepoint that is rolled back afterwards, so each one meets the
same world and a write by one cell never hides a missing check in the next. POSTs carry
plausible form data (a valid hand, a real entry, a username to add…), so that a missing
permission check would really write (the player import's POST is its confirming step,
the one that saves; :func:`test_the_player_import_preview_writes_nothing` sends the file).
The sessions table is left out of the fingerprint: logging out deletes a session row, which
is not a write to the site's data. So are django-axes' tables, for the same reason: a wrong
password or a log-in or log-out writes there, the log-in limiter's bookkeeping.

The registry player the URLs are about was added by the director, who alone of these
visitors may edit it (a registrar, whom the matrix has no column for, may edit any player:
see :mod:`players.registry` and its own tests).

:func:`test_csrf_is_required_for_every_post` then POSTs to every pattern again with
Django's CSRF checks on, as the visitor the table lets write there: without a token the
request is refused (403, the CSRF failure page) and changes nothing; with one it does
exactly what the matrix says.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, Group
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from club import ratings
from club.models import Season
from money.models import SidePot
from players import csv_entries, csv_import
from publishing.models import PublishToken
from publishing.tokens import make_token
from scoring import services as scoring_services
from scoring import timing
from scoring.deals import deal_rows, deal_version
from scoring.models import Hand
from scoring.versions import hand_version
from tables import table_links
from tables.models import DirectorCall
from tests.factories import (
    PASSWORD,
    make_bracket,
    make_director,
    make_entries,
    make_player,
    make_tournament,
    make_user,
)
from tests.scoring.helpers import gin, knock, play, win_games
from tests.teams import deal_post, make_teams, play_deals, team_tournament
from tests.teams import knock as team_knock
from tournaments import self_checkin
from tournaments.draw import generate_bracket
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.stages import services as stage_services

ROLES = ("anon", "table", "revoked", "norole", "okeep", "odir", "codir", "keeper", "dir")
METHODS = ("GET", "POST")
GUESSED_TOKEN = "guessed-not-a-real-table-link-token"


# -- the URL patterns, from the resolver -----------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    route: str
    """The full route, as ``ResolverMatch.route`` gives it."""
    name: str | None
    """``namespace:name``, or None for an unnamed pattern."""
    arguments: tuple[str, ...]
    regex: bool

    @property
    def key(self) -> str:
        return self.name or self.route

    @property
    def group(self) -> str:
        """Which test runs it: the namespace, else "site"."""
        if self.route.startswith("admin/"):
            return "admin"
        return self.name.split(":")[0] if self.name and ":" in self.name else "site"


ROUTE_ARGUMENT = re.compile(r"<(?:[^>:]+:)?([^>]+)>")
REGEX_ARGUMENT = re.compile(r"\(\?P<(\w+)>[^)]*\)")


def walk(
    patterns: list[Any], prefix: str = "", namespace: str = "", regex: bool = False
) -> Iterator[Pattern]:
    """Every URLPattern under ``patterns``, through every include, with its full route."""
    for entry in patterns:
        is_regex = regex or not hasattr(entry.pattern, "_route")
        # Joined as ResolverMatch.route joins them: a nested regex loses its leading ^.
        route = prefix + str(entry.pattern).removeprefix("^" if prefix else "")
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from walk(entry.url_patterns, route, inner, is_regex)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            arguments = tuple(
                REGEX_ARGUMENT.findall(route) if is_regex else ROUTE_ARGUMENT.findall(route)
            )
            yield Pattern(route, name, arguments, is_regex)


def all_patterns() -> list[Pattern]:
    return list(walk(get_resolver().url_patterns))


def build_path(pattern: Pattern, kwargs: dict[str, str]) -> str:
    """The path of ``pattern`` with ``kwargs`` filled in, checked by resolving it back."""
    if pattern.regex:
        path = REGEX_ARGUMENT.sub(lambda m: str(kwargs[m.group(1)]), pattern.route)
        path = path.replace("^", "").replace("$", "")
    else:
        path = ROUTE_ARGUMENT.sub(lambda m: str(kwargs[m.group(1)]), pattern.route)
    path = "/" + path
    found = resolve(path)
    assert found.route == pattern.route, f"{path} resolves to {found.route}, not {pattern.route}"
    return path


# -- what each visitor gets ------------------------------------------------------------------
# One row per method, one cell per visitor in ROLES order. A cell is the status code, or
# "login" for a redirect to a log-in page; "w" after it means the request changed the
# database ("302w": redirected after writing). Every other cell must leave it as it was.
# fmt: off
#                        anon  table revoked norole okeep odir  codir keeper dir
ALL_200 =               "200   200   200     200    200   200   200   200    200"
ALL_302 =               "302   302   302     302    302   302   302   302    302"
ALL_405 =               "405   405   405     405    405   405   405   405    405"
# A venue publishing (issue 34): its token in the Authorization header, which no visitor
# here holds; never a cookie, so CSRF does not apply (test_csrf_is_required_for_every_post).
ALL_401 =               "401   401   401     401    401   401   401   401    401"
SIGNED_IN =             "login login login   200    200   200   200   200    200"
# The club's registry and new tournaments: any director.
DIRECTORS =             "login login login   403    403   200   200   403    200"
DIRECTORS_WRITE =       "login login login   403    403   302w  302w  403    302w"
# Making further directors: the club's administrator alone (a superuser, or a director who
# is the club's registrar too; no column here: tests/tournaments/test_directors.py).
CLUB_ADMIN =            "login login login   403    403   403   403   403    403"
# Publishing tokens (issue 34): any director makes one, shown on the page (never a redirect);
# only its owner revokes it (another director: 404, as if it were not there).
DIRECTORS_SHOWN =       "login login login   403    403   200w  200w  403    200w"
TOKEN_OWNER_WRITE =     "login login login   403    403   404   404   403    302w"
# A registry player: the director who added it (registrars too; no column here).
PLAYER_OWNER =          "login login login   403    403   403   403   403    200"
PLAYER_OWNER_WRITE =    "login login login   403    403   403   403   403    302w"
# One tournament's screens: its owner and co-directors.
ITS_DIRECTORS =         "login login login   403    403   403   200   403    200"
ITS_DIRECTORS_WRITE =   "login login login   403    403   403   302w  403    302w"
# A new account: the page itself shows its one-time link (never a redirect).
ITS_DIRECTORS_SHOWN =   "login login login   403    403   403   200w  403    200w"
# A fresh link for an account that has a password already: refused, nothing written.
ITS_DIRECTORS_REFUSED = "login login login   403    403   403   302   403    302"
# A match page's entry, preview and corrections: its directors and scorekeepers.
SCORERS =               "403   403   403     403    403   403   200   200    200"
SCORERS_WRITE =         "403   403   403     403    403   403   302w  302w   302w"
# Confirming a result, switching a table link off: directors only, on the match page.
MATCH_DIRECTORS_WRITE = "403   403   403     403    403   403   302w  403    302w"
# /table/<token>/…: the link's holders; a switched-off link is gone, a guessed one unknown.
TABLE =                 "404   200   410     404    404   404   404   404    404"
TABLE_WRITE =           "404   302w  410     404    404   404   404   404    404"
# The URLs about a season (its slug, not a tournament's): the club's, and its PDF.
SEASON_URLS = ("club:season", "printing:season-pdf")
# A season: the director who made it.
SEASON_OWNER =          "login login login   403    403   403   403   403    200"
SEASON_OWNER_WRITE =    "login login login   403    403   403   403   403    302w"
# Self check-in with the code of the day (issue 33): whoever holds the code and the page.
ANYONE_WRITE =          "302w  302w  302w    302w   302w  302w  302w  302w   302w"
# fmt: on

# The player import's first step, the file without the confirmation: the preview, no write.
PLAYER_IMPORT_PREVIEW = DIRECTORS

PUBLIC_PAGE = (ALL_200, ALL_405)
DIRECTORS_PAGE = (DIRECTORS, ALL_405)
ITS_DIRECTORS_PAGE = (ITS_DIRECTORS, ALL_405)
ITS_DIRECTORS_ACTION = (ALL_405, ITS_DIRECTORS_WRITE)

EXPECTED: dict[str, tuple[str, str]] = {
    # (GET, POST)
    "home": PUBLIC_PAGE,
    "login": (ALL_200, ALL_200),  # a wrong password: the form again
    "logout": (ALL_405, ALL_302),
    "set_language": (ALL_302, ALL_302),  # a cookie, no row
    "public:tournament": PUBLIC_PAGE,
    "public:standings-json": PUBLIC_PAGE,
    "public:tables-json": PUBLIC_PAGE,
    "public:display": PUBLIC_PAGE,
    "public:find": PUBLIC_PAGE,
    "public:player": PUBLIC_PAGE,  # a player of the running tournament: names and seeds only
    "public:self-check-in": (ALL_405, ANYONE_WRITE),  # the registering one's code of today
    "publishing:changes": (ALL_405, ALL_401),
    "publishing:publish-as": ITS_DIRECTORS_ACTION,  # the venue's own name on the club's
    "publishing:tokens": (DIRECTORS, DIRECTORS_SHOWN),
    "publishing:token-revoke": (ALL_405, TOKEN_OWNER_WRITE),  # the director's own token
    "publishing:destination": (CLUB_ADMIN, CLUB_ADMIN),  # where this installation publishes
    "publishing:destination-stop": (ALL_405, CLUB_ADMIN),
    "scoring:match-sheet": PUBLIC_PAGE,
    "scoring:match-entry": PUBLIC_PAGE,
    "scoring:hand-create": (ALL_405, SCORERS_WRITE),
    "scoring:hand-preview": (SCORERS, SCORERS),
    "scoring:hand-edit": (SCORERS, SCORERS_WRITE),
    "scoring:hand-delete": (SCORERS, SCORERS_WRITE),
    "scoring:match-confirm": (ALL_405, MATCH_DIRECTORS_WRITE),
    "tables:table-link": (ALL_405, MATCH_DIRECTORS_WRITE),
    "scoring:dispute": ITS_DIRECTORS_PAGE,
    "scoring:table-match-sheet": (TABLE, ALL_405),
    "scoring:table-match-entry": (TABLE, ALL_405),
    "scoring:table-hand-create": (ALL_405, TABLE_WRITE),
    "scoring:table-hand-preview": (TABLE, TABLE),
    "scoring:table-hand-edit": (TABLE, TABLE_WRITE),
    "scoring:table-hand-delete": (TABLE, TABLE_WRITE),
    "scoring:table-match-confirm": (ALL_405, TABLE_WRITE),
    "scoring:deal-create": (ALL_405, SCORERS_WRITE),
    "scoring:deal-edit": (SCORERS, SCORERS_WRITE),
    "scoring:deal-delete": (SCORERS, SCORERS_WRITE),
    "scoring:table-deal-create": (ALL_405, TABLE_WRITE),
    "scoring:table-deal-edit": (TABLE, TABLE_WRITE),
    "scoring:table-deal-delete": (TABLE, TABLE_WRITE),
    "tables:table-call-director": (TABLE, TABLE_WRITE),
    "tables:call-answer": ITS_DIRECTORS_ACTION,
    "tables:call-close": ITS_DIRECTORS_ACTION,
    "tournaments:dashboard": (SIGNED_IN, ALL_405),
    "players:player-list": DIRECTORS_PAGE,
    "players:player-create": (DIRECTORS, DIRECTORS_WRITE),
    "players:player-edit": (PLAYER_OWNER, PLAYER_OWNER_WRITE),
    "players:player-import": (DIRECTORS, DIRECTORS_WRITE),  # POST: the confirming step
    "players:entry-import": (ITS_DIRECTORS, ITS_DIRECTORS_WRITE),  # POST: the confirming step
    "tournaments:tournament-create": (DIRECTORS, DIRECTORS_WRITE),
    "accounts:directors": (CLUB_ADMIN, ALL_405),
    "accounts:director-create": (ALL_405, CLUB_ADMIN),
    "accounts:director-add": (ALL_405, CLUB_ADMIN),
    "accounts:director-link": (ALL_405, CLUB_ADMIN),
    "tournaments:rules-summary": DIRECTORS_PAGE,
    "tournaments:tournament-setup": (ITS_DIRECTORS, ITS_DIRECTORS_WRITE),
    "tournaments:tournament-status": ITS_DIRECTORS_ACTION,
    "tournaments:entry-list": ITS_DIRECTORS_PAGE,
    "tournaments:entry-add": ITS_DIRECTORS_ACTION,
    "tournaments:entry-add-many": ITS_DIRECTORS_ACTION,
    "tournaments:entry-self-checkin": ITS_DIRECTORS_ACTION,
    "tournaments:team-add": ITS_DIRECTORS_ACTION,
    "tournaments:entry-new": ITS_DIRECTORS_ACTION,
    "tournaments:entry-seed-by-rating": ITS_DIRECTORS_ACTION,
    "tournaments:entry-seed": ITS_DIRECTORS_ACTION,
    "tournaments:entry-flag": ITS_DIRECTORS_ACTION,
    "tournaments:entry-withdraw": ITS_DIRECTORS_ACTION,
    "tournaments:entry-reinstate": ITS_DIRECTORS_ACTION,
    "tournaments:entry-remove": ITS_DIRECTORS_ACTION,
    "tournaments:bracket": ITS_DIRECTORS_PAGE,
    "tournaments:bracket-generate": ITS_DIRECTORS_ACTION,
    "tournaments:bracket-clear": ITS_DIRECTORS_ACTION,
    "tournaments:round-control": ITS_DIRECTORS_PAGE,
    "tournaments:tables-assign": ITS_DIRECTORS_ACTION,
    "tournaments:match-send": ITS_DIRECTORS_ACTION,
    "tournaments:match-confirm": ITS_DIRECTORS_ACTION,
    "tournaments:match-walkover": ITS_DIRECTORS_ACTION,
    "tournaments:stages": ITS_DIRECTORS_PAGE,
    "tournaments:stage-add": ITS_DIRECTORS_ACTION,
    "tournaments:stages-start": ITS_DIRECTORS_ACTION,
    "tournaments:stage-remove": ITS_DIRECTORS_ACTION,
    "tournaments:stage-pair": ITS_DIRECTORS_ACTION,
    "tournaments:stage-close": ITS_DIRECTORS_ACTION,
    "tournaments:stage-clock": ITS_DIRECTORS_ACTION,
    "tournaments:stage-late-entry": ITS_DIRECTORS_ACTION,
    "scoring:stage-time": ITS_DIRECTORS_ACTION,
    "tournaments:match-lucky-loser": ITS_DIRECTORS_ACTION,
    "scoring:match-ruling": ITS_DIRECTORS_ACTION,
    "accounts:roles": ITS_DIRECTORS_PAGE,
    "accounts:role-add": ITS_DIRECTORS_ACTION,
    "accounts:role-remove": ITS_DIRECTORS_ACTION,
    "accounts:role-create": (ALL_405, ITS_DIRECTORS_SHOWN),
    "accounts:role-link": (ALL_405, ITS_DIRECTORS_REFUSED),
    # A guessed set-password link: the page that says it does not work, for everyone.
    "set-password": (ALL_200, ALL_200),
    # The load balancer's check (config/health.py): "ok" for anyone, nothing else.
    "health": (ALL_200, ALL_405),
    "tournaments:audit-log": ITS_DIRECTORS_PAGE,
    "printing:match-scoresheet": PUBLIC_PAGE,  # the QR code only for its directors
    "printing:round-scoresheets": ITS_DIRECTORS_PAGE,  # every table link of a round
    "printing:bracket-pdf": PUBLIC_PAGE,
    "printing:standings-pdf": PUBLIC_PAGE,
    "printing:pairings-pdf": PUBLIC_PAGE,
    "printing:stage-standings-pdf": PUBLIC_PAGE,
    "archive:tournament-export": ITS_DIRECTORS_PAGE,
    "club:player": PUBLIC_PAGE,  # the club player's page: names and results only
    "club:tournament-ratings": PUBLIC_PAGE,
    "club:seed-by-club-rating": ITS_DIRECTORS_ACTION,
    "club:standings-csv": PUBLIC_PAGE,
    "club:matches-csv": PUBLIC_PAGE,
    "club:season-list": PUBLIC_PAGE,
    "club:season-create": (DIRECTORS, DIRECTORS_WRITE),
    "club:season": PUBLIC_PAGE,
    "club:season-edit": (SEASON_OWNER, SEASON_OWNER_WRITE),
    "printing:season-pdf": PUBLIC_PAGE,
    "club:season-csv": PUBLIC_PAGE,
    "club:season-export": (SEASON_OWNER, ALL_405),
    "money:money": ITS_DIRECTORS_PAGE,
    "money:money-save": ITS_DIRECTORS_ACTION,
    "money:payment-save": ITS_DIRECTORS_ACTION,
    "money:side-pot-create": ITS_DIRECTORS_ACTION,
    "money:side-pot-save": ITS_DIRECTORS_ACTION,
    "money:side-pot-entrants": ITS_DIRECTORS_ACTION,
    "money:side-pot-delete": ITS_DIRECTORS_ACTION,  # nobody in it yet: deleted
    "money:prizes": PUBLIC_PAGE,
    "printing:prizes-pdf": PUBLIC_PAGE,
}

# Django admin's own URLs, by kind. None of the visitors is staff: the admin sends every
# one of them to its log-in page, which refuses the director's right password too.
ADMIN_LOGIN = " ".join(["login"] * 9)
ADMIN_SITE = {"index", "password_change", "password_change_done", "autocomplete"}
ADMIN_SITE |= {"jsi18n", "view_on_site", "app_list"}
ADMIN_MODEL = ("_changelist", "_add", "_change", "_delete", "_history", "_password_change")


def admin_expected(pattern: Pattern) -> tuple[str, str] | None:
    key = pattern.key
    if key == "admin:login":
        return (ALL_200, ALL_200)
    if key == "admin:logout":  # to the admin's index, which sends them on to log in
        return (ALL_302, ALL_302)
    name = key.removeprefix("admin:")
    if name in ADMIN_SITE or (key.startswith("admin:") and name.endswith(ADMIN_MODEL)):
        return (ADMIN_LOGIN, ADMIN_LOGIN)
    # Unnamed: the old object URL (redirects to its change page) and the catch-all.
    if pattern.name is None and (key.endswith("/<path:object_id>/") or key == "admin/(?P<url>.*)$"):
        return (ADMIN_LOGIN, ADMIN_LOGIN)
    return None


def expected(pattern: Pattern) -> tuple[list[str], list[str]] | None:
    rows = admin_expected(pattern) if pattern.group == "admin" else EXPECTED.get(pattern.key)
    if rows is None:
        return None
    return rows[0].split(), rows[1].split()


# -- the world -------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, Any]
    running: Tournament
    """The director's running tournament: the URLs' default target."""
    side_pot: SidePot
    """The running tournament's side pot, nobody in it yet."""
    registering: Tournament
    """The director's tournament still taking entries (registration URLs)."""
    drawn: Tournament
    """The director's tournament with a bracket drawn, nothing played, a table to give."""
    playing: Match
    """In play with three hands (hand entry and corrections)."""
    awaiting: Match
    """Decided, waiting for the loser's confirmation."""
    ready: Match
    """Both players known, no hand yet (walkover)."""
    revoked: Match
    """Its table link switched off."""
    entry: Entry
    withdrawn: Entry
    player: Player
    """In the club registry, in no tournament, added by the director."""
    sessions: dict[str, str]
    season: Season
    """The director's season (the running tournament in it)."""
    teams: Tournament
    """The director's running team tournament (partnership, teams of two)."""
    team_playing: Match
    """A team match in play with three deals (deal entry and corrections)."""
    team_registering: Tournament
    """The director's team tournament still taking teams."""
    free_players: tuple[Player, Player]
    """Two registry players in no team yet (a team to register)."""
    staging: Tournament
    """In stages (a Swiss stage, then a knockout), not started."""
    staged: Tournament
    """A Swiss stage of two rounds, the first played."""
    closable: Tournament
    """A Swiss stage of one round, played: ready for the cut."""
    knockout: Tournament
    """Cut from its Swiss stage into a knockout not begun."""
    publish_token: PublishToken
    """The director's live publishing token (issue 34)."""
    lucky: Match
    """The knockout's match, ready: a lucky loser may come in."""
    level: Tournament
    """A Swiss stage whose round had time called with no hand played: every match level."""
    level_match: Match
    """One of those: the director may rule on it."""
    call: DirectorCall
    """An open call for the director, from the table awaiting confirmation."""
    by_hand: Tournament
    """Tables called by the director (automatic calling off): two free, none given."""
    queued: Match
    """Its first match, waiting for the director to send it to a table."""


def build_world() -> World:
    director = make_director(username="dir")
    co_director = make_director(username="codir")
    keeper = make_user(username="keeper")
    other_director = make_director(username="odir")
    other_keeper = make_user(username="okeep")
    nobody = make_user(username="norole")
    staff = {"co_directors": (co_director,), "scorekeepers": (keeper,)}

    running = make_bracket(
        tournament=make_tournament(owner=director, name="Spring Open", **staff), players=8
    )
    first = list(running.matches.filter(round=1).order_by("position"))
    playing, awaiting, ready, revoked = first
    play(playing, [knock("A"), gin("B"), knock("B", deadwood=5, defender=12)], user=director)
    play(awaiting, win_games("A", 3), user=director)
    table_links.set_table_link(match=revoked, action="revoke", user=director)

    registering = make_tournament(owner=director, name="Autumn Cup", **staff)
    entries = make_entries(tournament=registering, count=4)
    for rating, entry in enumerate(entries, start=1500):
        Player.objects.filter(pk=entry.player_id).update(rating=rating)
    withdrawn = make_entries(tournament=registering, count=1, seeded=False, withdrawn=True)[0]
    registering = self_checkin.set_self_checkin(tournament=registering, on=True, user=director)

    drawn = make_bracket(
        tournament=make_tournament(owner=director, name="Winter Cup", tables=1, **staff),
        players=8,
    )
    Tournament.objects.filter(pk=drawn.pk).update(tables=4)  # three tables to give out
    by_hand = make_bracket(
        tournament=make_tournament(
            owner=director, name="Hand Cup", tables=2, auto_call=False, **staff
        ),
        players=4,
    )

    rival = make_bracket(
        tournament=make_tournament(
            owner=other_director, name="Rival Night", scorekeepers=(other_keeper,)
        ),
        players=4,
    )
    play(rival.matches.filter(round=1).first(), [knock("A")], user=other_director)
    Group.objects.create(name="Helpers")
    publish_token, _secret = make_token(user=director, label="venue laptop")
    # The log-in limiter's records, for the admin's change, delete and history pages.
    attempt = {
        "username": "somebody",
        "ip_address": "192.0.2.7",
        "user_agent": "matrix",
        "http_accept": "*/*",
        "path_info": "/accounts/login/",
    }
    AccessAttempt.objects.create(
        **attempt, get_data="", post_data="username=somebody", failures_since_start=1
    )
    AccessFailureLog.objects.create(**attempt)
    AccessLog.objects.create(**attempt)

    users = {
        "norole": nobody,
        "okeep": other_keeper,
        "odir": other_director,
        "codir": co_director,
        "keeper": keeper,
        "dir": director,
    }
    sessions = {}
    for role, user in users.items():
        client = Client()
        client.force_login(user)
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    for match in (playing, awaiting, ready, revoked):
        match.refresh_from_db()
    season = Season.objects.create(
        name="Matrix season", slug="matrix-season", owner=director, placing_points=[3, 2, 1]
    )
    season.tournaments.add(running)
    teams = team_tournament(owner=director, name="Pairs Night", **staff)
    make_teams(teams, 4)
    generate_bracket(tournament=teams, user=director)
    team_playing = teams.matches.filter(round=1).order_by("position").first()
    play_deals(team_playing, [[team_knock("A", 2, 10), team_knock("B", 3, 9)]] * 3)
    team_playing.refresh_from_db()
    team_registering = team_tournament(owner=director, name="Pairs Cup", **staff)
    make_teams(team_registering, 2, prefix="Cup")
    staging, staged, closable, knockout = (
        _staged(director, staff, name, played)
        for name, played in (
            ("Summer Swiss", "none"),
            ("Autumn Swiss", "round"),
            ("Winter Swiss", "stage"),
            ("Spring Swiss", "cut"),
        )
    )
    level = _staged(director, staff, "Late Swiss", "none")
    stage_services.start(tournament=level, user=director)
    timing.call_time(stage=level.stages.get(number=1), procedure="leader", user=director)
    # The stored club rating as the results stand: a public page then reads it and writes
    # nothing (a page recomputes it only after results changed).
    ratings.recompute()
    return World(
        users=users,
        running=running,
        side_pot=SidePot.objects.create(tournament=running, name="Side pot", buy_in=10),
        registering=registering,
        drawn=drawn,
        playing=playing,
        awaiting=awaiting,
        ready=ready,
        revoked=revoked,
        entry=entries[0],
        withdrawn=withdrawn,
        player=make_player(name="Registry Person", created_by=director),
        sessions=sessions,
        season=season,
        teams=teams,
        team_playing=team_playing,
        team_registering=team_registering,
        free_players=(make_player(name="Free One"), make_player(name="Free Two")),
        staging=staging,
        staged=staged,
        closable=closable,
        knockout=knockout,
        publish_token=publish_token,
        lucky=Match.objects.get(stage__tournament=knockout, stage__number=2),
        level=level,
        level_match=Match.objects.filter(tournament=level, status="ready").first(),
        call=DirectorCall.objects.create(match=awaiting, reason="dispute"),
        by_hand=by_hand,
        queued=by_hand.matches.get(key="W1-1"),
    )


def _staged(director: Any, staff: dict[str, Any], name: str, played: str) -> Tournament:
    """Four players in a Swiss stage then a knockout of two, played as far as ``played``
    says: ``none`` (not started), ``round`` (round 1 of 2), ``stage`` (its one round), or
    ``cut`` (the knockout has begun)."""
    tournament = make_tournament(owner=director, name=name, **staff)
    make_entries(tournament=tournament, count=4)
    stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        rounds=2 if played == "round" else 1,
        advance=2,
    )
    stage_services.add_stage(tournament=tournament, user=director, kind="single_elimination")
    if played == "none":
        return tournament
    stage_services.start(tournament=tournament, user=director)
    for match in Match.objects.filter(tournament=tournament, status="ready"):
        play(match, win_games("A", 3), user=director)
        scoring_services.confirm_result(match=match, user=director)
    if played == "cut":
        stage_services.close_stage(stage=tournament.stages.get(number=1), user=director)
    tournament.refresh_from_db()
    return tournament


# -- which objects each URL is about, and what its POST sends -----------------------------------

# The tournament a /t/<slug>/… URL is about, when not the running one.
TOURNAMENT_OF = {
    **{
        f"tournaments:{name}": "registering"
        for name in (
            "tournament-setup",
            "tournament-status",
            "entry-list",
            "entry-add",
            "entry-add-many",
            "entry-new",
            "entry-seed-by-rating",
            "entry-seed",
            "entry-flag",
            "entry-self-checkin",
            "entry-withdraw",
            "entry-reinstate",
            "entry-remove",
            "bracket-generate",
        )
    },
    "club:seed-by-club-rating": "registering",
    "players:entry-import": "registering",
    "public:self-check-in": "registering",
    "money:payment-save": "registering",
    "tournaments:bracket-clear": "drawn",
    "tournaments:tables-assign": "drawn",
    "tournaments:match-send": "by_hand",
    "tournaments:team-add": "team_registering",
    **{f"scoring:{name}": "teams" for name in ("deal-create", "deal-edit", "deal-delete")},
    "tournaments:stages": "staged",
    "tournaments:stage-add": "staging",
    "tournaments:stages-start": "staging",
    "tournaments:stage-remove": "staging",
    "tournaments:stage-pair": "staged",
    "tournaments:stage-clock": "staged",
    "tournaments:stage-late-entry": "staged",
    "scoring:stage-time": "staged",
    "tournaments:stage-close": "closable",
    "tournaments:match-lucky-loser": "knockout",
    "scoring:match-ruling": "level",
    "printing:pairings-pdf": "staged",
    "printing:stage-standings-pdf": "staged",
}
# The match a match or table URL is about, when not the one in play.
MATCH_OF = {
    "scoring:match-confirm": "awaiting",
    "scoring:table-match-confirm": "awaiting",
    "tournaments:match-confirm": "awaiting",
    "tournaments:match-walkover": "ready",
    "tournaments:match-send": "queued",
    **{
        f"scoring:{prefix}deal-{action}": "team_playing"
        for prefix in ("", "table-")
        for action in ("create", "edit", "delete")
    },
    "tournaments:match-lucky-loser": "lucky",
    "scoring:match-ruling": "level_match",
}
# The stage a stage URL is about: (the tournament, as TOURNAMENT_OF names it; number).
STAGE_OF = {
    "tournaments:stage-remove": 2,
    "tournaments:stage-pair": 1,
    "tournaments:stage-clock": 1,
    "tournaments:stage-late-entry": 1,
    "scoring:stage-time": 1,
    "tournaments:stage-close": 1,
}
SETUP_FORM = {
    "name": "Renamed by the matrix",
    "date": "2030-01-01",
    "tables": 3,
    "page_size": "A4",
    "language": "en",
    "preset": "modern",
    "bracket_kind": "round_robin",
}
A_HAND = {"number": 4, "kind": "knock", "by": "A", "deadwood": 3, "defender_deadwood": 40}
HAND_THREE = {"number": 3, "kind": "knock", "by": "A", "deadwood": 1, "defender_deadwood": 20}


SEASON_FORM = {
    "name": "Season by the matrix",
    "scoring": "placing",
    "placing_points_text": "10, 6, 4",
    "points_per_win": 1,
    "best_of": 2,
}


SIDE_POT_FORM = {"name": "Matrix pot", "buy_in": "5", "payout": "100", "rounding": "1"}


CSV = b"name,email\nImported Person,imported@example.com\n"


def _csv() -> io.BytesIO:
    upload = io.BytesIO(CSV)
    upload.name = "players.csv"
    return upload


def _import_confirmation(world: World, role: str) -> dict[str, Any]:
    """The player import's second step: the preview's "import" button, as the preview
    would have given it to ``role`` (the token is signed for the user who uploaded), so that
    a visitor let in here imports the file."""
    user = world.users.get(role, AnonymousUser())
    text = csv_import.decode_csv(CSV)
    return {"confirm": csv_import.confirmation(text=text, user=user)}


def _entries_confirmation(world: World, role: str) -> dict[str, Any]:
    """The tournament import's second step, as :func:`_import_confirmation`: the preview's
    "enter" button as ``role`` would have been given it, for the registering tournament."""
    user = world.users.get(role, AnonymousUser())
    text = csv_import.decode_csv(CSV)
    confirm = csv_entries.confirmation(text=text, user=user, tournament=world.registering)
    return {"confirm": confirm}


def _admin_model(route: str) -> Any:
    parts = route.split("/")
    return apps.get_model(parts[1], parts[2])


def _seen_hand(world: World) -> dict[str, Any]:
    """What a correction or deletion form carries: the hand its page showed, as shown."""
    hand = Hand.objects.get(match=world.playing, number=3)
    return {"hand": hand.pk, "version": hand_version(hand), "complete": ""}


def _seen_match(name: str) -> Callable[[World], dict[str, Any]]:
    """What a confirmation or walkover form carries: the match version its page showed."""
    return lambda w: {"version": Match.objects.get(pk=getattr(w, name).pk).version}


def _seen_deal(world: World) -> dict[str, Any]:
    """What a deal correction or deletion form carries: deal 3 as its page showed it."""
    hands = list(Hand.objects.filter(match=world.team_playing).order_by("number"))
    return {"version": deal_version(deal_rows(hands, 2)[2]), "complete": ""}


A_DEAL = deal_post(4, [team_knock("A", 1, 20), team_knock("A", 2, 20)])
DEAL_THREE = deal_post(3, [team_knock("B", 1, 20), team_knock("A", 2, 20)])


POST_DATA: dict[str, Callable[[World], dict[str, Any]]] = {
    "publishing:publish-as": lambda w: {"slug": "friday-night-2"},
    "publishing:tokens": lambda w: {"label": "matrix"},
    "publishing:destination": lambda w: {
        "url": "https://club.example/",
        "token": "matrix-token",
        "venue": "Hall",
    },
    "login": lambda w: {"username": "dir", "password": "not the password"},
    "set_language": lambda w: {"language": "es", "next": "/"},
    "admin:login": lambda w: {"username": "dir", "password": PASSWORD},
    "scoring:hand-create": lambda w: A_HAND,
    "scoring:table-hand-create": lambda w: A_HAND,
    "scoring:hand-preview": lambda w: A_HAND,
    "scoring:table-hand-preview": lambda w: A_HAND,
    "scoring:hand-edit": lambda w: {**HAND_THREE, "confirm": "1", **_seen_hand(w)},
    "scoring:table-hand-edit": lambda w: {**HAND_THREE, "confirm": "1", **_seen_hand(w)},
    "scoring:hand-delete": _seen_hand,
    "scoring:table-hand-delete": _seen_hand,
    "scoring:deal-create": lambda w: A_DEAL,
    "scoring:table-deal-create": lambda w: A_DEAL,
    "scoring:deal-edit": lambda w: {**DEAL_THREE, **_seen_deal(w)},
    "scoring:table-deal-edit": lambda w: {**DEAL_THREE, **_seen_deal(w)},
    "scoring:deal-delete": _seen_deal,
    "scoring:table-deal-delete": _seen_deal,
    "scoring:match-confirm": _seen_match(MATCH_OF["scoring:match-confirm"]),
    "scoring:table-match-confirm": _seen_match(MATCH_OF["scoring:table-match-confirm"]),
    "tournaments:match-confirm": _seen_match(MATCH_OF["tournaments:match-confirm"]),
    "tables:table-link": lambda w: {"action": "revoke"},
    "tables:table-call-director": lambda w: {"reason": "dispute", "note": "Knock at 11?"},
    "players:player-create": lambda w: {"name": "Created by the matrix"},
    "accounts:director-create": lambda w: {"name": "Matrix Director", "email": "m@example.com"},
    "accounts:director-add": lambda w: {"username": "norole"},
    "accounts:director-link": lambda w: {"user": w.users["norole"].pk},
    "players:player-edit": lambda w: {"name": "Edited by the matrix"},
    "tournaments:tournament-create": lambda w: SETUP_FORM,
    "tournaments:tournament-setup": lambda w: SETUP_FORM,
    "tournaments:tournament-status": lambda w: {"status": "draft"},
    "tournaments:entry-add": lambda w: {"player": w.player.pk},
    "tournaments:entry-add-many": lambda w: {"players": [w.player.pk]},
    "tournaments:team-add": lambda w: {
        "team_name": "Matrix Pair",
        "seat1": w.free_players[0].pk,
        "seat2": w.free_players[1].pk,
    },
    "tournaments:entry-new": lambda w: {"new-name": "New at the door"},
    "tournaments:entry-seed": lambda w: {"seed": 9},
    "tournaments:entry-flag": lambda w: {"value": "1"},
    "tournaments:entry-self-checkin": lambda w: {"on": "1"},
    "public:self-check-in": lambda w: {"code": w.registering.checkin_code},
    "tournaments:match-walkover": lambda w: {
        "winner_side": "B",
        "confirmed": "1",
        **_seen_match(MATCH_OF["tournaments:match-walkover"])(w),
    },
    "tournaments:match-send": lambda w: {"table": "2"},
    "accounts:role-add": lambda w: {"username": "norole", "role": "scorekeeper"},
    "club:season-create": lambda w: SEASON_FORM,
    "club:season-edit": lambda w: SEASON_FORM,
    "money:money-save": lambda w: {
        "entry_fee": "10",
        "currency": "€",
        "payout": "60, 40",
        "rounding": "1",
    },
    "money:payment-save": lambda w: {"method": "cash", "amount": "10"},
    "money:side-pot-create": lambda w: SIDE_POT_FORM,
    "money:side-pot-save": lambda w: {**SIDE_POT_FORM, "name": "Renamed by the matrix"},
    "money:side-pot-entrants": lambda w: {"entry": [w.running.entries.order_by("pk").first().pk]},
    "tournaments:stage-add": lambda w: {"kind": "single_elimination", "tiebreak_1": "buchholz"},
    "tournaments:stage-clock": lambda w: {"minutes": 40},
    "tournaments:stage-late-entry": lambda w: {
        "entry": w.staged.entries.order_by("pk").first().pk,
        "points": 0,
    },
    # early: the confirmation's POST, which calls time even with the round clock running.
    "scoring:stage-time": lambda w: {"procedure": "extra_hands", "extra_hands": 2, "early": "1"},
    "scoring:match-ruling": lambda w: {"winner_side": "A", "reason": "a cut of the cards"},
    "tournaments:match-lucky-loser": lambda w: {
        "side": "B",
        "entry": w.knockout.entries.exclude(pk__in=w.knockout.stages.get(number=2).entrants)
        .first()
        .pk,
    },
    "accounts:role-remove": lambda w: {"user": w.users["keeper"].pk, "role": "scorekeeper"},
    "accounts:role-create": lambda w: {
        "new-name": "New Keeper",
        "new-email": "new.keeper@example.com",
        "new-role": "scorekeeper",
    },
    "accounts:role-link": lambda w: {"user": w.users["keeper"].pk},
    "set-password": lambda w: {
        "new_password1": "a-new-long-password-1",
        "new_password2": "a-new-long-password-1",
    },
}


# What a POST sends that depends on who sends it.
POST_DATA_AS: dict[str, Callable[[World, str], dict[str, Any]]] = {
    "players:player-import": _import_confirmation,
    "players:entry-import": _entries_confirmation,
}


def admin_post_data(pattern: Pattern, world: World) -> dict[str, Any]:
    """Enough for the admin to act if it let a visitor in: confirm a delete, name a player."""
    if pattern.key.endswith("_delete"):
        return {"post": "yes"}
    if pattern.key in ("admin:tournaments_player_add", "admin:tournaments_player_change"):
        return {"name": "Admin-made", "email": "", "phone": "", "club_id": "", "notes": ""}
    if pattern.key == "admin:auth_user_password_change":
        return {"password1": "a-new-long-password-1", "password2": "a-new-long-password-1"}
    return {}


def kwargs_for(pattern: Pattern, world: World, role: str) -> dict[str, Any]:
    tournament = getattr(world, TOURNAMENT_OF.get(pattern.key, "running"))
    match = getattr(world, MATCH_OF.get(pattern.key, "playing"))
    values: dict[str, Any] = {}
    for argument in pattern.arguments:
        if argument == "slug" and pattern.key.startswith(SEASON_URLS):
            values[argument] = world.season.slug
        elif argument == "slug":
            values[argument] = tournament.slug
        elif argument == "match_id":
            values[argument] = match.pk
        elif argument == "token":
            values[argument] = {"table": match.token, "revoked": world.revoked.token}.get(
                role, GUESSED_TOKEN
            )
        elif argument == "number":
            values[argument] = 1 if pattern.key == "printing:round-scoresheets" else 3
        elif argument == "player_id":
            values[argument] = world.player.pk
        elif argument == "entry_id" and pattern.key == "public:player":
            values[argument] = world.playing.side_a_id  # in the running tournament
        elif argument == "entry_id":
            entry = world.withdrawn if pattern.key.endswith("entry-reinstate") else world.entry
            values[argument] = entry.pk
        elif argument == "token_id":
            values[argument] = world.publish_token.pk
        elif argument == "pot_id":
            values[argument] = world.side_pot.pk
        elif argument == "call_id":
            values[argument] = world.call.pk
        elif argument == "field":
            values[argument] = "paid"
        elif argument in ("stage", "round"):
            values[argument] = 1
        elif argument == "stage_id":
            values[argument] = tournament.stages.get(number=STAGE_OF[pattern.key]).pk
        elif argument == "uidb64":
            values[argument] = "MQ"  # user 1, with a guessed token
        elif argument == "object_id" and pattern.route.startswith("admin/r/"):
            values[argument] = world.running.pk
        elif argument == "content_type_id":
            values[argument] = ContentType.objects.get_for_model(Tournament).pk
        elif argument in ("object_id", "id"):
            model = _admin_model(pattern.route)
            values[argument] = model._default_manager.order_by("pk").first().pk
        elif argument == "app_label":
            values[argument] = "tournaments"
        elif argument == "url":
            values[argument] = "no-such-page/"
        else:
            raise AssertionError(
                f"{pattern.key} takes <{argument}>, which the matrix does not know how to fill:"
                " teach kwargs_for() about it"
            )
    return values


def post_data(pattern: Pattern, world: World, role: str) -> dict[str, Any]:
    if pattern.group == "admin":
        return admin_post_data(pattern, world)
    if pattern.key in POST_DATA_AS:
        return POST_DATA_AS[pattern.key](world, role)
    make = POST_DATA.get(pattern.key)
    return make(world) if make else {}


# -- one request, and the database around it --------------------------------------------------

# Neither sessions nor the log-in limiter's records (django-axes) are the site's data.
FINGERPRINTED = [
    model._meta.db_table
    for model in apps.get_models(include_auto_created=True)
    if model is not Session
    and model._meta.app_label != "axes"
    and model._meta.managed
    and not model._meta.proxy
]


def fingerprint() -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows. Plain SQL: through the ORM this
    costs ten times as much, and it runs twice around each of some two thousand requests.
    PostgreSQL digests every table in one query, since there each query is a round trip."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                " UNION ALL ".join(
                    f"SELECT %s, count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY"
                    f" t::text), '')) FROM {quote(table)} t"
                    for table in FINGERPRINTED
                ),
                FINGERPRINTED,
            )
            return {table: (count, digest) for table, count, digest in cursor.fetchall()}
        prints = {}
        for table in FINGERPRINTED:
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY 1")
            rows = cursor.fetchall()
            digest = hashlib.blake2b(repr(rows).encode(), digest_size=8).hexdigest()
            prints[table] = (len(rows), digest)
        return prints


LOGIN_PAGES = ("/accounts/login/?next=", "/admin/login/?next=")


@dataclass
class Outcome:
    status: int
    changed: list[str]
    """The tables whose rows the request changed."""
    response: Any

    @property
    def cell(self) -> str:
        location = self.response.headers.get("Location", "")
        code = "login" if self.status == 302 and location.startswith(LOGIN_PAGES) else self.status
        return f"{code}{'w' if self.changed else ''}"

    def describe(self) -> str:
        extra = f" (changed {', '.join(self.changed)})" if self.changed else ""
        if getattr(self.response, "exc_info", None):
            extra += f" (raised {self.response.exc_info[1]!r})"
        return self.cell + extra


def request(
    pattern: Pattern,
    world: World,
    role: str,
    method: str,
    *,
    csrf: str | None = None,
    data: dict[str, Any] | None = None,
) -> Outcome:
    """``role`` requests ``pattern`` with ``method`` inside a savepoint, which is rolled
    back after the database has been compared with what it was before. ``csrf``: run
    Django's CSRF checks, sending this token ("" for none). ``data``: POST this instead of
    what :func:`post_data` sends."""
    client = Client(enforce_csrf_checks=csrf is not None, raise_request_exception=False)
    if role in world.sessions:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    if method == "POST" and data is None:
        data = post_data(pattern, world, role)
    if csrf:
        client.cookies[settings.CSRF_COOKIE_NAME] = csrf
        data = {**(data or {}), "csrfmiddlewaretoken": csrf}
    path = build_path(pattern, kwargs_for(pattern, world, role))
    cache.clear()  # the table-link guess limiter would turn the guessers away
    with transaction.atomic():
        before = fingerprint()
        response = client.get(path) if method == "GET" else client.post(path, data or {})
        after = fingerprint()
        transaction.set_rollback(True)
    changed = sorted(table for table, value in after.items() if before[table] != value)
    return Outcome(response.status_code, changed, response)


# -- the tests -------------------------------------------------------------------------------

PATTERNS = all_patterns()
GROUPS = sorted({pattern.group for pattern in PATTERNS})
CELL = re.compile(r"^(200|302|401|403|404|405|410|login)w?$")
AUDIT_TABLE = "tournaments_auditentry"


@pytest.fixture
def world(db, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Thousands of refusals: Django would log a warning (and a traceback) for each one.
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security.csrf")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    yield build_world()
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_every_url_has_an_expectation():
    """A URL pattern the table does not know fails here: no new URL escapes the matrix."""
    keys = [pattern.key for pattern in PATTERNS]
    assert len(keys) == len(set(keys)), "two patterns share a name"
    missing = [pattern.key for pattern in PATTERNS if expected(pattern) is None]
    assert not missing, (
        "URL patterns with no entry in EXPECTED (tests/test_permissions_matrix.py): say who"
        f" may read and write there: {missing}"
    )
    stale = sorted(set(EXPECTED) - set(keys))
    assert not stale, f"EXPECTED names URLs that no longer exist: {stale}"
    for key, rows in EXPECTED.items():
        for row in rows:
            cells = row.split()
            assert len(cells) == len(ROLES), f"{key}: {len(cells)} cells for {len(ROLES)} roles"
            assert all(CELL.match(cell) for cell in cells), f"{key}: {row}"


@pytest.mark.parametrize("group", GROUPS)
def test_permission_matrix(world, group):
    """Every pattern of ``group`` × every visitor × GET and POST, as EXPECTED says; and
    every write outside the admin leaves a line in the audit log (SPEC 5)."""
    wrong = []
    for pattern in (p for p in PATTERNS if p.group == group):
        rows = expected(pattern)
        assert rows is not None, f"{pattern.key}: no expectation"
        for method, row in zip(METHODS, rows, strict=True):
            got = [request(pattern, world, role, method) for role in ROLES]
            for role, want, outcome in zip(ROLES, row, got, strict=True):
                if outcome.cell != want:
                    wrong.append(
                        f"{pattern.key} {method} as {role}: expected {want}, got "
                        f"{outcome.describe()}"
                    )
                elif outcome.changed and group != "admin" and AUDIT_TABLE not in outcome.changed:
                    wrong.append(f"{pattern.key} {method} as {role}: wrote without an audit line")
            if any(outcome.cell != want for want, outcome in zip(row, got, strict=True)):
                observed = " ".join(outcome.cell for outcome in got)
                wrong.append(f"    observed row for {pattern.key} {method}: {observed}")
    assert not wrong, "\n".join(wrong)


def test_the_player_import_preview_writes_nothing(world):
    """The player import's first step, which the matrix's POST goes past: whoever may
    import gets the preview (with the button that imports it) and nothing is saved; the
    others are refused as on the confirming step."""
    pattern = next(p for p in PATTERNS if p.key == "players:player-import")
    wrong = []
    for role, want in zip(ROLES, PLAYER_IMPORT_PREVIEW.split(), strict=True):
        outcome = request(pattern, world, role, "POST", data={"file": _csv()})
        if outcome.cell != want:
            wrong.append(f"preview as {role}: expected {want}, got {outcome.describe()}")
        elif want == "200" and not outcome.response.context.get("confirm"):
            wrong.append(f"preview as {role}: no confirmation to import the file with")
    assert not wrong, "\n".join(wrong)


def test_the_entries_import_preview_writes_nothing(world):
    """The tournament's CSV import, first step: its directors get the preview (with the
    button that enters the file) and nothing is saved; the others are refused."""
    pattern = next(p for p in PATTERNS if p.key == "players:entry-import")
    wrong = []
    for role, want in zip(ROLES, ITS_DIRECTORS.split(), strict=True):
        outcome = request(pattern, world, role, "POST", data={"file": _csv()})
        if outcome.cell != want:
            wrong.append(f"preview as {role}: expected {want}, got {outcome.describe()}")
        elif want == "200" and not outcome.response.context.get("confirm"):
            wrong.append(f"preview as {role}: no confirmation to enter the file with")
    assert not wrong, "\n".join(wrong)


TOKEN_AUTHED = {"publishing:changes"}
"""Read no cookie (a token in the Authorization header), so a forged cross-site request
has nothing to borrow: CSRF does not apply (tests/publishing/test_receiving.py)."""


def writer(pattern: Pattern) -> str:
    """The visitor whose POST the matrix lets write here (the director if anyone may),
    else the director."""
    rows = expected(pattern)
    assert rows is not None
    writers = [role for role, cell in zip(ROLES, rows[1], strict=True) if cell.endswith("w")]
    return "dir" if "dir" in writers or not writers else writers[0]


@pytest.mark.parametrize("group", GROUPS)
def test_csrf_is_required_for_every_post(world, group):
    """Every pattern, POSTed with CSRF checks on by the visitor most able to write there:
    without a token it is refused with the CSRF page and changes nothing; with a token it
    does what the matrix says."""
    wrong = []
    token = "matrixcsrfsecret" * 2  # 32 characters: a CSRF secret
    for pattern in (p for p in PATTERNS if p.group == group and p.key not in TOKEN_AUTHED):
        role = writer(pattern)
        want = expected(pattern)[1][ROLES.index(role)]  # type: ignore[index]
        refused = request(pattern, world, role, "POST", csrf="")
        templates = [t.name for t in refused.response.templates]
        if refused.cell != "403" or "403_csrf.html" not in templates:
            wrong.append(f"{pattern.key} as {role} without a CSRF token: {refused.describe()}")
        allowed = request(pattern, world, role, "POST", csrf=token)
        if allowed.cell != want:
            wrong.append(
                f"{pattern.key} as {role} with a CSRF token: expected {want}, got "
                f"{allowed.describe()}"
            )
    assert not wrong, "\n".join(wrong)


# -- a draft is private everywhere but to its directors ---------------------------------------

#                anon  table revoked norole okeep odir  codir keeper dir
DRAFT_PRIVATE = "404   404   404     404    404   404   200   404    200"
# The public URLs about one tournament: its pages, PDFs, CSVs, JSON, ratings and prizes.
ABOUT_A_TOURNAMENT = {"slug", "match_id", "entry_id"}


def test_a_draft_is_private_on_every_public_url(world):
    """Every public URL about a tournament, the running one (and the staged one the stage
    PDFs are about) put back to draft: 404 to everyone but its directors, who see it."""
    drafts = (world.running.pk, world.staged.pk)
    Tournament.objects.filter(pk__in=drafts).update(status=Tournament.Status.DRAFT)
    from club import ratings

    ratings.ensure_current()  # a draft is not rated: the rating as it now stands, no page's
    wrong = []
    checked = 0
    for pattern in PATTERNS:
        if EXPECTED.get(pattern.key) != PUBLIC_PAGE or pattern.key.startswith(SEASON_URLS):
            continue
        if not ABOUT_A_TOURNAMENT & set(pattern.arguments):
            continue
        checked += 1
        for role, want in zip(ROLES, DRAFT_PRIVATE.split(), strict=True):
            outcome = request(pattern, world, role, "GET")
            if outcome.cell != want:
                wrong.append(f"{pattern.key} GET of a draft as {role}: {outcome.describe()}")
    assert checked >= 17
    assert not wrong, "\n".join(wrong)


def test_a_draft_is_on_no_club_page_but_its_directors(world):
    """A player's club page, the season list, a season's page, PDF and CSV: a draft in
    them is not named to anyone but its directors."""
    Tournament.objects.filter(pk=world.running.pk).update(status=Tournament.Status.DRAFT)
    player = Entry.objects.get(pk=world.playing.side_a_id).player
    paths = [
        f"/players/{player.pk}/",
        "/seasons/",
        f"/seasons/{world.season.slug}/",
        f"/seasons/{world.season.slug}/standings.csv",
    ]
    wrong = []
    for role in ROLES:
        client = Client()
        if role in world.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
        for path in paths:
            cache.clear()
            body = client.get(path).content.decode()
            shown = world.running.name in body or world.running.slug in body
            if shown and role not in ("dir", "codir"):
                wrong.append(f"{path} as {role}: names the draft")
    assert not wrong, "\n".join(wrong)


# -- a tournament mirrored from a venue is read-only -----------------------------------------


def test_a_mirrored_tournament_refuses_every_write(world):
    """Every tournament of the world made a mirror of a venue's (issue 34): each POST a
    visitor may write with, to a URL about one of them (its slug, or a table link of one
    of its matches), is refused by the one who may write there, naming the venue, and
    changes nothing."""
    from publishing.models import Mirror

    for tournament in Tournament.objects.all():
        Mirror.objects.create(tournament=tournament, owner=tournament.owner, venue="Hall B")
    # As archive.restore.write_copy leaves a mirror's matches: their table links revoked.
    Match.objects.update(token_revoked=True)
    wrong = []
    checked = 0
    for pattern in PATTERNS:
        rows = expected(pattern)
        if rows is None or not {"slug", "token"} & set(pattern.arguments):
            continue
        if pattern.key.startswith(SEASON_URLS):  # a season's slug: the club's own, writable
            continue
        if not any(cell.endswith("w") for cell in rows[1]):
            continue
        checked += 1
        outcome = request(pattern, world, writer(pattern), "POST")
        said = outcome.response.content.decode()
        if "token" in pattern.arguments:  # a table link: revoked, nothing written
            if outcome.cell not in ("410", "404"):
                wrong.append(f"{pattern.key} POST to a mirror's table: {outcome.describe()}")
        elif outcome.cell != "403" or "Hall B" not in said:
            wrong.append(f"{pattern.key} POST to a mirror: {outcome.describe()}")
    assert checked >= 40, checked
    assert not wrong, "\n".join(wrong)
