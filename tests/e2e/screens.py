"""Every screen of the site, from the demo data (``seed_demo``), for the accessibility
test and ``make screenshots``: the director's pages, the public ones, the projector, the
table link and the error pages a visitor meets.

A screen is a name, a path, and who opens it: ``director`` (logged in as the demo
director), or ``visitor`` (nobody logged in: the public, the players at a table).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.management import call_command
from django.urls import reverse

from club.models import Season
from money.models import SidePot, SidePotEntry
from tables.table_links import set_table_link
from tournaments.models import Match, Tournament

DEMO = "Club Championship (demo)"


@dataclass(frozen=True)
class Screen:
    name: str
    path: str
    who: str  # "director" or "visitor"
    status: int = 200
    table_page: bool = False  # a players' page at the table: every target >= 44 px


def demo_screens() -> list[Screen]:
    """Load the demo (once per database) and list its screens."""
    if not Tournament.objects.exists():
        call_command("seed_demo", verbosity=0)
    t = Tournament.objects.get(name=DEMO)
    slug = t.slug
    in_play = Match.objects.filter(tournament=t, status=Match.Status.IN_PLAY).order_by("pk").first()
    complete = (
        Match.objects.filter(tournament=t, status=Match.Status.COMPLETE, forfeit=False)
        .exclude(side_a=None)
        .exclude(side_b=None)
        .order_by("pk")
        .first()
    )
    assert in_play is not None and complete is not None
    if not complete.token:
        set_table_link(match=complete, action="renew", user=t.owner)
        complete.refresh_from_db()
    entry = t.entries.order_by("seed").first()
    assert entry is not None
    manage = f"/t/{slug}/manage/"
    return [
        *_screens(slug, manage, in_play, complete, entry),
        *_event_screens(t),
        *_companion_screens(t),
    ]


def _screens(slug: str, manage: str, in_play: Match, complete: Match, entry) -> list[Screen]:
    return [
        # The public and the players
        Screen("home", "/", "visitor"),
        Screen("login", reverse("login"), "visitor"),
        Screen("public-page", f"/t/{slug}/", "visitor"),
        Screen("find-me", f"/t/{slug}/find/?q={entry.player.name.split()[0]}", "visitor"),
        Screen("player-page", f"/t/{slug}/players/{entry.pk}/", "visitor"),
        Screen("projector", f"/t/{slug}/display/", "visitor"),
        Screen("table-link", f"/table/{in_play.token}/", "visitor", table_page=True),
        Screen("table-link-closed", f"/table/{complete.token}/", "visitor", 410, table_page=True),
        Screen("table-link-wrong", "/table/not-a-real-token-0000/", "visitor", 404),
        Screen("not-found", "/no/such/page/", "visitor", 404),
        Screen("set-password-stale", "/accounts/set-password/MQ/stale-link/", "visitor"),
        # The director
        Screen("dashboard", reverse("tournaments:dashboard"), "director"),
        Screen("directors", reverse("accounts:directors"), "director"),
        Screen("players", reverse("players:player-list"), "director"),
        Screen("player-new", reverse("players:player-create"), "director"),
        Screen("player-import", reverse("players:player-import"), "director"),
        Screen("tournament-new", reverse("tournaments:tournament-create"), "director"),
        Screen("setup", manage, "director"),
        Screen("registration", f"{manage}entries/", "director"),
        Screen("bracket", f"{manage}bracket/", "director"),
        Screen("round-control", f"{manage}rounds/", "director"),
        Screen("roles", f"{manage}roles/", "director"),
        Screen("audit-log", f"{manage}audit/", "director"),
        Screen("settle-a-count", f"{manage}dispute/", "director"),
        Screen("match-page", f"/t/{slug}/matches/{in_play.pk}/", "director"),
        Screen("forbidden", f"/t/{slug}/manage/", "other-director", 403),
    ]


def _side_pot(t: Tournament) -> None:
    """A side pot three players of a finished night bought into, for the money and prizes
    screens (its winners named)."""
    if t.side_pots.exists():
        return
    pot = SidePot.objects.create(tournament=t, name="Side pot", buy_in=10, payout=["60", "40"])
    SidePotEntry.objects.bulk_create(
        SidePotEntry(pot=pot, entry=entry) for entry in t.entries.order_by("seed")[:3]
    )


def _event_screens(t: Tournament) -> list[Screen]:
    """The demo's other events: the Swiss qualifying cut into a knockout (stages), the
    partnership night (teams) and the club's season (player pages, ratings, money)."""
    swiss = Tournament.objects.get(name="Swiss Open (demo)")
    teams = Tournament.objects.get(name="Partnership night (demo)")
    team_match = (
        Match.objects.filter(tournament=teams, hands__isnull=False)
        .distinct()
        .order_by("-pk")
        .first()
    )
    assert team_match is not None
    if team_match.status != Match.Status.COMPLETE and not team_match.token:
        set_table_link(match=team_match, action="renew", user=teams.owner)
        team_match.refresh_from_db()
    season = Season.objects.order_by("pk").first()
    assert season is not None
    night = season.tournaments.order_by("-date").first()
    assert night is not None
    player = t.entries.order_by("seed").first().player
    _side_pot(night)
    screens = [
        Screen("stages", f"/t/{swiss.slug}/manage/stages/", "director"),
        Screen("stages-round-control", f"/t/{swiss.slug}/manage/rounds/", "director"),
        Screen("stages-public", f"/t/{swiss.slug}/", "visitor"),
        Screen("stages-projector", f"/t/{swiss.slug}/display/", "visitor"),
        Screen("team-registration", f"/t/{teams.slug}/manage/entries/", "director"),
        Screen("team-sheet", f"/t/{teams.slug}/matches/{team_match.pk}/", "director"),
        Screen("team-public", f"/t/{teams.slug}/", "visitor"),
        Screen("club-player", f"/players/{player.pk}/", "visitor"),
        Screen("club-ratings", f"/t/{night.slug}/ratings/", "visitor"),
        Screen("seasons", "/seasons/", "visitor"),
        Screen("season", f"/seasons/{season.slug}/", "visitor"),
        # A finished club night of the season: its money, prizes and standings with them.
        Screen("money", f"/t/{night.slug}/manage/money/", "director"),
        Screen("prizes", f"/t/{night.slug}/prizes/", "visitor"),
        Screen("club-night-public", f"/t/{night.slug}/", "visitor"),
    ]
    if team_match.status != Match.Status.COMPLETE:
        screens.append(
            Screen("team-table-link", f"/table/{team_match.token}/", "visitor", table_page=True)
        )
    return screens


def _companion_screens(t: Tournament) -> list[Screen]:
    """The player's companion and the room's estimates (issue 33): a knockout of eight at
    two tables, two matches queued (a waiting player's page says which table should free
    for them and about when), and a night in registration with self check-in open (its
    code on the projector)."""
    from tests.factories import make_bracket, make_entries, make_tournament
    from tests.public.test_tables_json import paced, seated
    from tournaments import self_checkin

    knockout = Tournament.objects.filter(slug="friday-knockout").first()
    if knockout is None:
        knockout = make_bracket(
            players=8, tables=2, owner=t.owner, name="Friday knockout", slug="friday-knockout"
        )
        for match, minutes in zip(seated(knockout), (3, 8), strict=True):
            paced(match, 5, minutes, ago=1)
    waiting = Match.objects.filter(tournament=knockout, table=None, status=Match.Status.READY)
    queued = waiting.order_by("position").first()
    assert queued is not None and queued.side_a_id is not None
    opening = Tournament.objects.filter(slug="saturday-open").first()
    if opening is None:
        opening = make_tournament(
            owner=t.owner, name="Saturday open", slug="saturday-open", status="registration"
        )
        make_entries(tournament=opening, count=6)
    if not self_checkin.is_open(opening):
        self_checkin.set_self_checkin(tournament=opening, on=True, user=t.owner)
    return [
        Screen("projector-tables", f"/t/{t.slug}/display/?panel=tables", "visitor"),
        Screen("player-waiting", f"/t/{knockout.slug}/players/{queued.side_a_id}/", "visitor"),
        Screen("projector-checkin", f"/t/{opening.slug}/display/", "visitor"),
    ]
