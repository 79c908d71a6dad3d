"""The event simulator's driver: a director and the phones at the tables, through the real
pages only (Django's test client, URLs reversed by name, forms posted as a browser posts
them, version fields read back from the page that showed them).

The database is read only to know what to click: which matches are ready, which entry is
whose. Every write goes through a page. Hands are real hands (knock, gin, big gin,
undercut, dead hand, with deadwood counts) drawn from a seeded ``random.Random``, so the
same seed plays the same event.
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import NoReverseMatch, resolve, reverse

from tests.scoring.helpers import hidden_fields
from tournaments.models import Entry, Match, Stage, Tournament
from web.submissions import FIELD, new_id

VERSION = re.compile(r'name="version" value="([^"]*)"')
NUMBER = re.compile(r'name="number" value="(\d*)"')
CONFIRM = re.compile(r'name="confirm" value="([^"]+)"')
TICKBOX = re.compile(r'name="players" value="(\d+)">\s*<span>([^<]+?)(?: <small|</span>)')
TABLE_LINK = re.compile(r'<a href="(?:https?://[^/"]+)?(/table/[^"/]+/)"')

# First and last names in five scripts; a field is drawn from their combinations.
NAMES = {
    "polish": (
        ("Łukasz", "Zofia", "Paweł", "Małgorzata", "Grażyna", "Bożena", "Jędrzej"),
        ("Wiśniewski", "Dąbrowska", "Żółkiewski", "Kowalczyk", "Szczęsna", "Łęcka", "Bąk"),
    ),
    "chinese": (
        ("王", "李", "张", "刘", "陈", "欧阳", "黄"),
        ("小明", "娜", "伟", "静", "芳", "强"),
    ),
    "arabic": (
        ("محمد", "فاطمة", "علي", "ليلى", "يوسف", "مريم", "خالد"),
        ("عبد الله", "الزهراء", "حسن", "أحمد", "منصور", "سالم"),
    ),
    "russian": (
        ("Дмитрий", "Анна", "Сергей", "Ольга", "Наталья", "Иван", "Елена"),
        ("Иванов", "Смирнова", "Петров", "Кузнецова", "Соколов", "Попова"),
    ),
    "afrikaans": (
        ("Pieter", "Anri", "Sarel", "Elna", "Jannie", "Marié", "Hendrik"),
        ("van der Merwe", "Botha", "Erasmus", "du Plessis", "Pretorius", "Coetzee"),
    ),
}


class Missing(Exception):
    """A step the event needs that the site does not offer (yet)."""


def names(rng: random.Random, count: int) -> list[str]:
    """``count`` different names, the scripts dealt in turn, none inside another (so Find
    me by a whole name finds one person)."""
    pools = {
        script: rng.sample(
            [f"{first}{'' if script == 'chinese' else ' '}{last}" for first in fs for last in ls],
            len(fs) * len(ls),
        )
        for script, (fs, ls) in NAMES.items()
    }
    chosen: list[str] = []
    scripts = list(pools)
    while len(chosen) < count:
        script = scripts[len(chosen) % len(scripts)]
        name = pools[script].pop()
        if not any(name in other or other in name for other in chosen):
            chosen.append(name)
    return chosen


def path_of(url: str) -> str:
    return urlsplit(url).path


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment, one space between words."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@dataclass
class Hands:
    """Real hands from a seeded random: mostly knocks (some undercut), gins, now and then
    a big gin or a dead hand."""

    rng: random.Random

    def hand(self, rules: Any) -> dict[str, Any]:
        by = self.rng.choice("AB")
        roll = self.rng.random()
        if roll < 0.05:
            return {"kind": "draw"}
        if roll < 0.25 or not rules.knock_limit:
            return {"kind": "gin", "by": by, "defender_deadwood": self.rng.randint(0, 70)}
        if roll < 0.30 and rules.big_gin_bonus is not None:
            return {"kind": "big_gin", "by": by, "defender_deadwood": self.rng.randint(0, 80)}
        deadwood = self.rng.randint(1, min(10, rules.knock_limit))
        if self.rng.random() < 0.2:  # the defender lays off down to an undercut
            defender = self.rng.randint(0, deadwood)
        else:
            defender = self.rng.randint(deadwood + 1, 75)
        return {"kind": "knock", "by": by, "deadwood": deadwood, "defender_deadwood": defender}

    def deal(self, rules: Any, number: int) -> dict[str, Any]:
        data: dict[str, Any] = {"number": number}
        for board in range(1, rules.team_size + 1):
            for key, value in self.hand(rules).items():
                data[f"b{board}-{key}"] = value
        return data


def blank(value: Any) -> Any:
    return None if value == "" else value


def strip(form: dict[str, Any]) -> dict[str, Any]:
    """A hand's values as a form sent them (what the Hand row keeps), with blanks as None."""
    kept = ("number", "kind", "by", "deadwood", "defender_deadwood")
    return {key: (None if form.get(key) in (None, "") else form[key]) for key in kept}


@dataclass
class Event:
    """One tournament being run: the director's client, a phone, and a visitor."""

    director: Client
    rng: random.Random
    slug: str = ""
    phone: Client = field(default_factory=Client)
    visitor: Client = field(default_factory=Client)
    steps: list[str] = field(default_factory=list)
    """What happened, in order (shown when an invariant fails)."""
    last_page: str = ""
    """The phone's last answer (the box to confirm the result, once decided)."""
    wifi: random.Random | None = None
    """A venue's Wi-Fi that loses answers (issue 32): with it, some hands' answers are lost
    and the phone sends the same form again, and some hands are entered first from a
    second phone at the table, with other values. None: every answer arrives."""
    second_phone: Client = field(default_factory=Client)
    meant: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """The hands each match should hold, in order, as the phones had them stored."""
    resends: int = 0
    clashes: int = 0
    repeats_sent: int = 0
    repeats_asked: int = 0
    """Creation forms sent again from a second render, and of those asked about (issue 41)."""
    published: Any = None
    """What the club's server had at the last check (:class:`tests.events.mirror.Published`),
    None before the first."""

    # -- plumbing ----------------------------------------------------------------------------

    @property
    def tournament(self) -> Tournament:
        return Tournament.objects.get(slug=self.slug)

    def url(self, name: str, **kwargs: Any) -> str:
        return reverse(name, kwargs={"slug": self.slug, **kwargs})

    def post(self, client: Client, url: str, data: dict[str, Any] | None = None) -> Any:
        response = client.post(url, data or {}, follow=True)
        assert response.status_code < 500, (url, response.status_code)
        return response

    def ok(self, response: Any, *expected: str) -> str:
        """The page after a director's move; the move's message must say it happened."""
        page = response.content.decode()
        errors = re.findall(r'class="message[^"]*error[^"]*"[^>]*>(.*?)<', page, re.S)
        assert not errors, (self.steps[-1:], [text_of(e) for e in errors])
        for text in expected:
            assert text in text_of(page), (self.steps[-1:], text, text_of(page)[:2000])
        return page

    def note(self, text: str) -> None:
        self.steps.append(text)

    # -- setting up --------------------------------------------------------------------------

    def create(self, name: str, *, preset: str = "modern", tables: int = 16, **fields: Any) -> None:
        data = {
            "name": name,
            "date": "2026-11-27",
            "tables": tables,
            "page_size": "A4",
            "language": "en",
            "preset": preset,
            "bracket_kind": "single_elimination",
            **fields,
        }
        path = reverse("tournaments:tournament-create")
        response = self.director.post(path, {**data, FIELD: new_id()})
        assert response.status_code == 302, response.content.decode()[:3000]
        self.slug = resolve(path_of(response["Location"])).kwargs["slug"]
        self.note(f"created {name} ({preset})")
        self.back_and_submit(path, data)

    def back_and_submit(self, path: str, data: dict[str, Any]) -> None:
        """The director goes Back to the creation form and sends it again (issue 41): a
        second render, its own submission id. It asks, and makes nothing
        (:func:`tests.events.repeats.made_once` counts what exists)."""
        page = text_of(self.post(self.director, path, {**data, FIELD: new_id()}).content.decode())
        asked = "make another?" in page
        self.repeats_sent += 1
        self.repeats_asked += asked
        self.note(f"sent {path} again: {'asked' if asked else 'not asked'}")

    def register(self, name: str) -> Entry:
        """A new player, into the registry and the tournament, from Registration."""
        response = self.post(self.director, self.url("tournaments:entry-new"), {"new-name": name})
        self.ok(response, f"{name} entered.")
        self.note(f"registered {name}")
        return Entry.objects.get(tournament__slug=self.slug, player__name=name)

    def new_player(self, name: str, **details: str) -> int:
        """A new player in the registry only (a team's member)."""
        data = {"name": name, **details}
        response = self.director.post(reverse("players:player-create"), data)
        assert response.status_code == 302, response.content.decode()[:2000]
        from tournaments.models import Player

        return Player.objects.get(name=name).pk

    def import_entries(self, rows: list[tuple[str, str, str]], *, expect: int) -> None:
        """Enter players from a CSV file (name, email, club id per row) through the
        tournament's import: upload, read the preview, confirm it (issue 41)."""
        lines = ["name,email,club_id"] + [",".join(row) for row in rows]
        upload = SimpleUploadedFile("players.csv", "\n".join(lines).encode(), "text/csv")
        url = self.url("players:entry-import")
        preview = self.ok(self.post(self.director, url, {"file": upload}))
        token = CONFIRM.search(preview)
        if expect == 0:
            assert token is None and "entered already" in text_of(preview), text_of(preview)
            self.note(f"imported a file of {len(rows)}: everyone entered already")
            return
        assert token, text_of(preview)[:2000]
        said = "1 player entered." if expect == 1 else f"{expect} players entered."
        self.ok(self.post(self.director, url, {"confirm": html.unescape(token[1])}), said)
        self.note(f"imported a file of {len(rows)}: {expect} entered")

    def tick_entries(self, chosen: list[str]) -> None:
        """Tick these registry players on Registration's list of everyone not entered,
        and enter them with the one button (issue 41)."""
        page = self.director.get(self.url("tournaments:entry-list"), {"all": "1"})
        offered = {html.unescape(name): pk for pk, name in TICKBOX.findall(page.content.decode())}
        missing = [name for name in chosen if name not in offered]
        assert not missing, ("not offered to tick", missing)
        ticked = {"players": [offered[name] for name in chosen]}
        said = "1 player entered." if len(chosen) == 1 else f"{len(chosen)} players entered."
        self.ok(self.post(self.director, self.url("tournaments:entry-add-many"), ticked), said)
        self.note(f"ticked and entered {len(chosen)}")

    def register_team(self, team: str, members: list[str]) -> Entry:
        data: dict[str, Any] = {"team_name": team}
        for seat, member in enumerate(members, 1):
            data[f"seat{seat}"] = self.new_player(member)
        response = self.post(self.director, self.url("tournaments:team-add"), data)
        self.ok(response, f"{team} entered.")
        self.note(f"registered team {team}")
        return Entry.objects.get(tournament__slug=self.slug, team_name=team)

    def withdraw(self, entry: Entry) -> None:
        url = self.url("tournaments:entry-withdraw", entry_id=entry.pk)
        self.ok(self.post(self.director, url), "withdrawn")
        self.note(f"{entry} dropped")

    def generate(self) -> None:
        self.ok(self.post(self.director, self.url("tournaments:bracket-generate")), "generated")
        self.note("bracket generated")

    # -- money -------------------------------------------------------------------------------

    def money(self, *, fee: str, payout: str, currency: str = "€", rounding: str = "1") -> None:
        data = {"entry_fee": fee, "currency": currency, "payout": payout, "rounding": rounding}
        self.ok(self.post(self.director, self.url("money:money-save"), data), "saved")
        self.note(f"money: {fee} {currency}, {payout}")

    def pay(self, entry: Entry, method: str) -> None:
        url = self.url("money:payment-save", entry_id=entry.pk)
        self.ok(self.post(self.director, url, {"method": method}), "Payment recorded")

    def side_pot(self, name: str, buy_in: str, payout: str, entries: list[Entry]) -> None:
        data = {"name": name, "buy_in": buy_in, "payout": payout, "rounding": "1"}
        self.ok(self.post(self.director, self.url("money:side-pot-create"), data))
        from money.models import SidePot

        pot = SidePot.objects.get(tournament__slug=self.slug, name=name)
        url = self.url("money:side-pot-entrants", pot_id=pot.pk)
        self.ok(self.post(self.director, url, {"entry": [e.pk for e in entries]}))
        self.note(f"side pot {name}: {len(entries)} in")

    def season(self, name: str, placing: str) -> None:
        """A season of this tournament alone, by placing (the club's seasons page)."""
        data = {
            "name": name,
            "scoring": "placing",
            "placing_points_text": placing,
            "points_per_win": "1",
            "best_of": "",
            "tournaments": [self.tournament.pk],
        }
        self.ok(self.post(self.director, reverse("club:season-create"), data))
        self.note(f"season {name}: {placing}")

    # -- stages ------------------------------------------------------------------------------

    def add_stage(self, **fields: Any) -> None:
        data = {"tiebreak_1": "match_points", **fields}
        path = self.url("tournaments:stage-add")
        self.ok(self.post(self.director, path, {**data, FIELD: new_id()}), "added")
        self.note(f"stage added: {fields}")
        self.back_and_submit(path, data)

    def stage(self, number: int) -> Stage:
        return Stage.objects.get(tournament__slug=self.slug, number=number)

    def start(self) -> None:
        self.ok(self.post(self.director, self.url("tournaments:stages-start")), "has started")
        self.note("stage 1 started")

    def pair(self, stage: Stage) -> None:
        url = self.url("tournaments:stage-pair", stage_id=stage.pk)
        self.ok(self.post(self.director, url), "is paired")
        self.note(f"{stage} paired")

    def close(self, stage: Stage) -> None:
        url = self.url("tournaments:stage-close", stage_id=stage.pk)
        self.ok(self.post(self.director, url), "is closed")
        self.note(f"{stage} closed")

    def late_points(self, stage: Stage, entry: Entry, points: int) -> None:
        url = self.url("tournaments:stage-late-entry", stage_id=stage.pk)
        self.ok(self.post(self.director, url, {"entry": entry.pk, "points": points}), "starts with")
        self.note(f"{entry} starts with {points}")

    def clock(self, stage: Stage, minutes: int) -> None:
        url = self.url("tournaments:stage-clock", stage_id=stage.pk)
        self.ok(self.post(self.director, url, {"minutes": minutes}), "clock runs")

    def call_time(self, stage: Stage) -> str:
        """Time called, decide now: the leaders win; the level ones are the director's.
        With time left on the round clock the site asks first (issue 41): "0:13 left on
        the clock: decide these matches now?", and the director says yes on its form."""
        url = self.url("scoring:stage-time", stage_id=stage.pk)
        answer = self.post(self.director, url, {"procedure": "leader"})
        asked = answer.content.decode()
        if Stage.objects.get(pk=stage.pk).clock_ends_at is not None:
            said = text_of(asked)
            question = r"\d+:\d\d left on the clock: decide these matches now\?"
            assert re.search(question, said), said[:1500]
            assert not Stage.objects.get(pk=stage.pk).time_called, "time called unasked"
            answer = self.post(self.director, url, hidden_fields(asked, url))
        page = self.ok(answer, "Decided on time")
        self.note(f"time called in {stage}")
        return text_of(page)

    def lucky_loser(self, match: Match, side: str, entry: Entry) -> None:
        """A qualifier who does not come: a player of the previous stage takes the seat."""
        url = self.url("tournaments:match-lucky-loser", match_id=match.pk)
        data = {"side": side, "entry": entry.pk}
        self.ok(self.post(self.director, url, data), "comes in as a lucky loser")
        self.note(f"{entry} comes into {match.key} as a lucky loser")

    # -- the director at round control -------------------------------------------------------

    def walkover(self, match: Match, winner_side: str) -> None:
        """A no-show: the director picks the winner, then confirms on the box naming them."""
        url = self.url("tournaments:match-walkover", match_id=match.pk)
        asked = self.director.post(url, self.seen_version(match, winner_side))
        assert "Award the walkover to" in text_of(asked.content.decode())
        version = VERSION.search(asked.content.decode()).group(1)
        data = {"winner_side": winner_side, "version": version, "confirmed": "1"}
        self.ok(self.post(self.director, url, data), "Walkover:")
        self.note(f"walkover in {match.key} to {winner_side}")

    def rule_level(self, match: Match, winner_side: str) -> None:
        """The director rules a match left level on time, from the Stages page's form
        (``scoring:match-ruling``: the winner and on what basis)."""
        try:
            url = self.url("scoring:match-ruling", match_id=match.pk)
        except NoReverseMatch:
            raise Missing(
                "no director's ruling on a level match: scoring:match-ruling "
                "(/t/<slug>/manage/matches/<id>/ruling/, winner_side and reason) is not a page"
            ) from None
        page = self.director.get(self.url("tournaments:stages")).content.decode()
        if f'action="{url}"' not in page:
            raise Missing(f"the Stages page offers no ruling on {match.key}, level on time")
        data = {"winner_side": winner_side, "reason": "a cut of the cards"}
        self.ok(self.post(self.director, url, data), "wins on your ruling")
        self.note(f"level {match.key} ruled for {winner_side}")

    def seen_version(self, match: Match, winner_side: str) -> dict[str, Any]:
        """The match's version as round control shows it (its walkover form carries it)."""
        page = self.director.get(self.url("tournaments:round-control")).content.decode()
        url = self.url("tournaments:match-walkover", match_id=match.pk)
        form = re.search(re.escape(f'action="{url}"') + r".*?</form>", page, re.S)
        assert form is not None, f"{match.key} is not on round control"
        return {"winner_side": winner_side, "version": VERSION.search(form.group(0)).group(1)}

    # -- the phones at the tables ------------------------------------------------------------

    def table_link(self, match: Match) -> str:
        """The table link, as the director's match page prints it (and its QR code)."""
        page = self.director.get(self.url("scoring:match-sheet", match_id=match.pk))
        found = TABLE_LINK.search(page.content.decode())
        assert found is not None, f"no table link on {match.key}'s page"
        return found.group(1)

    def enter_hands(
        self, match: Match, hands: Hands, *, given: list[dict[str, Any]] | None = None
    ) -> str:
        """Hands from the phone at the table until the match is decided (or just the
        ``given`` ones); returns the table link. Each hand's number is the one its form
        carries."""
        link = self.table_link(match)
        token = link.split("/")[2]
        rules = match.ruleset
        name = "scoring:table-deal-create" if rules.is_team else "scoring:table-hand-create"
        target = reverse(name, kwargs={"token": token})
        page = self.phone.get(link).content.decode()
        entered = 0
        while given is None or entered < len(given):
            number = NUMBER.search(page)
            if number is None or not number.group(1):
                break  # no form: the match is decided
            n = int(number.group(1))
            if rules.is_team:
                data = hands.deal(rules, n)
            else:
                data = {"number": n, **(given[entered] if given else hands.hand(rules))}
            if self.wifi is not None and not rules.is_team:
                page = self.unreliable(match, link, target, page, data, hands, clash=given is None)
                entered += 1
                continue
            # As the phone's browser sends it (htmx): the answer is the entry region, with
            # the next hand's form (its number) or the box to confirm the result.
            response = self.phone.post(target, data, HTTP_HX_REQUEST="true")
            if response.status_code == 302:  # a team's deal: saved, back to the sheet
                response = self.phone.get(link)
            page = response.content.decode()
            refused = NUMBER.search(page)
            assert response.status_code == 200 and not (refused and refused.group(1) == str(n)), (
                match.key,
                data,
                text_of(page)[:1500],
            )
            entered += 1
            assert entered < 400, f"{match.key}: no end after 400 hands"
        return link

    def unreliable(
        self,
        match: Match,
        link: str,
        target: str,
        page: str,
        data: dict[str, Any],
        hands: Hands,
        *,
        clash: bool,
    ) -> str:
        """One hand over a Wi-Fi that loses answers: the phone sends its form (its
        submission id and the score it shows) as the outbox does; the answer may be lost
        (the same form again must say "saved", never "already entered"), or the second
        phone may have entered other values for the number first (this one is told what
        was stored, and offered the next hand). Returns the phone's page after it."""
        assert self.wifi is not None
        form = {**hidden_fields(page, target), **data}
        meant = self.meant.setdefault(match.pk, [])
        roll = self.wifi.random()
        if clash and roll < 0.08:  # the other phone at the table is quicker, with other values
            theirs_page = self.second_phone.get(link).content.decode()
            theirs = {**hidden_fields(theirs_page, target), "number": data["number"]}
            theirs.update(hands.hand(match.ruleset))
            answer = self.second_phone.post(target, theirs, HTTP_HX_REQUEST="true")
            assert answer["Submission-Outcome"] == "saved", text_of(answer.content.decode())
            meant.append(strip(theirs))
            response = self.phone.post(target, form, HTTP_HX_REQUEST="true")
            said = text_of(response.content.decode())
            assert response["Submission-Outcome"] == "taken", said[:800]
            assert f"Hand {data['number']} was already entered from" in said, said[:800]
            assert "Yours was not saved" in said, said[:800]
            self.clashes += 1
            return response.content.decode()
        response = self.phone.post(target, form, HTTP_HX_REQUEST="true")
        if roll < 0.25:  # the answer never reached the phone: the outbox sends it again
            response = self.phone.post(target, form, HTTP_HX_REQUEST="true")
            self.resends += 1
        said = text_of(response.content.decode())
        assert response["Submission-Outcome"] == "saved", (match.key, said[:800])
        assert f"Hand {data['number']} saved." in said and "already entered" not in said
        meant.append(strip(form))
        return response.content.decode()

    def stored_as_meant(self) -> list[str]:
        """Matches whose stored hands are not exactly the ones the phones had stored."""
        from scoring.models import Hand

        wrong = []
        for pk, meant in self.meant.items():
            rows = Hand.objects.filter(match_id=pk).order_by("number")
            stored = [{k: blank(getattr(h, k)) for k in meant[0] if k != "number"} for h in rows]
            expected = [{k: blank(v) for k, v in m.items() if k != "number"} for m in meant]
            if [h.number for h in rows] != list(range(1, len(rows) + 1)) or stored != expected:
                wrong.append(f"match {pk}: stored {stored}, the phones stored {expected}")
        return wrong

    def confirm_at_table(self, link: str) -> None:
        page = self.phone.get(link).content.decode()
        version = VERSION.search(page)
        assert version is not None, f"nothing to confirm at {link}"
        token = link.split("/")[2]
        response = self.phone.post(
            reverse("scoring:table-match-confirm", kwargs={"token": token}),
            {"version": version.group(1)},
            follow=True,
        )
        assert "Result confirmed" in text_of(response.content.decode()), link

    def wait_for_table(self, match: Match, hands: Hands) -> None:
        """The players of a queued match scan their sheet's QR code and try a hand anyway,
        as the phone's outbox sends it (issue 41). The invariants check what became of it:
        nothing stored, and the link saying where the match stands in the queue."""
        link = self.table_link(match)
        target = reverse("scoring:table-hand-create", kwargs={"token": link.split("/")[2]})
        self.phone.get(link)
        data = {"number": 1, **hands.hand(match.ruleset)}
        response = self.phone.post(
            target, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="match-entry"
        )
        assert response.status_code < 500, (match.key, response.status_code)
        self.note(f"{match.key} waits for a table; its phone tried a hand")

    def play(self, match: Match, hands: Hands) -> None:
        link = self.enter_hands(match, hands)
        self.confirm_at_table(link)
        self.note(f"{match.key} played")

    # -- what is on the tables ---------------------------------------------------------------

    def ready(self) -> list[Match]:
        return list(
            Match.objects.filter(
                tournament__slug=self.slug, status=Match.Status.READY, is_bye=False
            )
            .exclude(side_a=None)
            .exclude(side_b=None)
            .order_by("round", "position", "pk")
        )

    def entries(self) -> list[Entry]:
        return list(
            Entry.objects.filter(tournament__slug=self.slug).select_related("player").order_by("pk")
        )
