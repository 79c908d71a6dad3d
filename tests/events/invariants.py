"""What must hold after every round of a simulated event, on every surface, for every
entrant. Each check reads a surface as a visitor (or the director, for the archive) gets
it and returns the problems it saw, one line each naming the surface and the entrant; an
empty list is a clean bill.

Surfaces: Find me, the player's page (it answers, its summary agrees with its list of
matches, and it says what to do now as the matches stand), ``tables.json``, the player's
club page (it lists the tournament with the same place), the public page,
``standings.json``, ``standings.csv``, the standings PDF, the projector's standings, the
prizes (they add up to the pool, main and side pots), the ``verify_tournament`` command,
the archive (``export.json`` imported into a fresh database and exported again gives
the same document), and the club's server following the night (:mod:`.mirror`: the
mirror brought up to date by the part the venue sends is the venue's tournament, row for
row).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import Hand
from tournaments.models import AuditEntry, Entry, Match, Player, Stage, TeamMember, Tournament

from .driver import Event, text_of
from .match_exports import match_exports
from .mirror import mirror
from .mirror_money import mirrored_money
from .mirror_untouched import mirror_untouched
from .problems import Problem, first_difference
from .repeats import made_once
from .secrets import nothing_secret_recorded


@dataclass(frozen=True)
class State:
    """What the checks compare against: the entrants and whether the event is over."""

    entrants: tuple[Entry, ...]
    finished: bool
    money: bool
    out: frozenset[str] = frozenset()
    """Who is out of a staged event: not in the stage being played after a cut."""


def state(event: Event) -> State:
    """Everyone entered (withdrawn players too: they played) who has been drawn into a
    match, or everyone entered before the first draw."""
    tournament = event.tournament
    entries = event.entries()
    drawn = set(
        Match.objects.filter(tournament=tournament).values_list("side_a_id", flat=True)
    ) | set(Match.objects.filter(tournament=tournament).values_list("side_b_id", flat=True))
    if drawn - {None}:
        entries = [e for e in entries if e.pk in drawn]
    from money.models import TournamentMoney

    money = TournamentMoney.objects.filter(tournament=tournament).exclude(payout="").exists()
    out: frozenset[str] = frozenset()
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    running = [s for s in stages if s.status == Stage.Status.RUNNING]
    if running and running[0].number > 1:
        still = {int(pk) for pk in running[0].entrants}
        out = frozenset(e.name for e in entries if e.pk not in still)
    return State(tuple(entries), tournament.status == Tournament.Status.FINISHED, money, out)


# -- the players' own pages -------------------------------------------------------------------


def find_me(event: Event, now: State) -> list[Problem]:
    problems = []
    for entry in now.entrants:
        own = event.url("public:player", entry_id=entry.pk)
        response = event.visitor.get(event.url("public:find"), {"q": entry.name})
        if response.status_code != 200:
            problems.append(Problem("find", entry.name, f"answers {response.status_code}"))
        elif f'href="{own}"' not in response.content.decode():
            found = re.search(r'class="find-note[^"]*"[^>]*>(.*?)</p>', response.content.decode())
            said = text_of(found.group(1)) if found else "no link to their page"
            problems.append(Problem("find", entry.name, said))
    return problems


PAIR = re.compile(r"(-?\d+)–(-?\d+)")


def _pair(text: str) -> tuple[int, int]:
    found = PAIR.search(text)
    assert found is not None, text
    return int(found.group(1)), int(found.group(2))


def player_pages(event: Event, now: State) -> list[Problem]:
    """Each entrant's page answers, and its summaries (matches, games, points) are the sums
    of the matches it lists: the first (all stages, or the only one) of every match listed,
    and each stage's of the matches under that stage's heading."""
    problems = []
    for entry in now.entrants:
        response = event.visitor.get(event.url("public:player", entry_id=entry.pk))
        if response.status_code != 200:
            problems.append(Problem("player page", entry.name, f"answers {response.status_code}"))
            continue
        page = response.content.decode()
        history = page[page.find('class="pv-history"') :] if "pv-history" in page else ""
        head, *stages = re.split(r'<h4 class="pv-stage">(.*?)</h4>', history)
        parts = [("", head, history)]  # the total, before any stage: every match listed
        parts += [(name, body, body) for name, body in zip(stages[::2], stages[1::2], strict=True)]
        for stage, summary_part, list_part in parts:
            if stage and not summary_part.strip().startswith("<dl"):
                continue  # one stage only: its summary is the total's
            problems += _summary_problems(entry.name, stage, summary_part, list_part)
    return problems


def _summary_problems(name: str, stage: str, summary_part: str, list_part: str) -> list[Problem]:
    """The first summary in ``summary_part`` against the matches listed in ``list_part``."""
    found = re.search(r'<dl class="pv-stats">(.*?)</dl>', summary_part, re.S)
    summary = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", found.group(1))) if found else {}
    items = re.findall(r'<li class="pv-played outcome-(\w+)">(.*?)</li>', list_part, re.S)
    outcomes = Counter(outcome for outcome, _body in items)
    games = [0, 0]
    points = [0, 0]
    for _outcome, body in items:
        shown = re.search(r'class="pv-games">(.*?)<', body)
        if shown:
            mine, theirs = _pair(shown.group(1))
            games[0] += mine
            games[1] += theirs
        shown = re.search(r'class="pv-points">(.*?)<', body)
        if shown:
            mine, theirs = _pair(shown.group(1))
            points[0] += mine
            points[1] += theirs
    listed = {
        "Matches": (outcomes["won"], outcomes["lost"]),
        "Games": tuple(games),
        "Columns": tuple(games),
        "Points": tuple(points),
    }
    where = f" ({stage})" if stage else ""
    problems = []
    if not stage and not summary and (outcomes["won"] or outcomes["lost"] or any(games)):
        problems.append(Problem("player page", name, "a list of matches, no summary"))
    for label, value in summary.items():
        if label in listed and _pair(value) != listed[label]:
            problems.append(
                Problem(
                    "player page",
                    name,
                    f"summary{where} {label} {value} but its list of {len(items)} matches "
                    f"adds up to {listed[label][0]}–{listed[label][1]}",
                )
            )
    return problems


# -- the standings, everywhere ----------------------------------------------------------------


def _places(surface: str, now: State, rows: list[tuple[str, str]]) -> list[Problem]:
    """``rows``: (name, place label) as the surface lists them. Every entrant exactly once;
    a place for everyone once the event is over; places never go down the list."""
    problems = []
    count = Counter(name for name, _label in rows)
    for entry in now.entrants:
        if count[entry.name] == 0:
            problems.append(Problem(surface, entry.name, "missing"))
        elif count[entry.name] > 1:
            problems.append(Problem(surface, entry.name, f"listed {count[entry.name]} times"))
    known = {e.name for e in now.entrants}
    for name in count:
        if name not in known:
            problems.append(Problem(surface, name, "listed but not an entrant"))
    last = 0
    for name, label in rows:
        if not label or label in ("–", "-"):
            if now.finished:
                problems.append(Problem(surface, name, "no place in a finished event"))
            continue
        first = int(re.match(r"\d+", label).group(0)) if re.match(r"\d+", label) else None
        if first is None:
            problems.append(Problem(surface, name, f"place {label!r} is not a place"))
        elif first < last:
            problems.append(Problem(surface, name, f"place {label} listed after place {last}"))
        else:
            last = first
    return problems


def standings_json(event: Event, now: State) -> tuple[list[Problem], list[dict]]:
    response = event.visitor.get(event.url("public:standings-json"))
    if response.status_code != 200:
        return [Problem("standings.json", "", f"answers {response.status_code}")], []
    rows = json.loads(response.content)["standings"]
    problems = []
    for row in rows:
        if (row["place"] is None) != (not row["place_label"]):
            problems.append(
                Problem(
                    "standings.json",
                    row["name"],
                    f"place {row['place']!r} but label {row['place_label']!r}",
                )
            )
        if row["place"] is None and row["name"] in now.out:
            problems.append(Problem("standings.json", row["name"], "out at the cut, no place"))
    listed = [(row["name"], row["place_label"] or "") for row in rows]
    problems += _places("standings.json", now, listed)
    return problems, rows


def standings_csv(event: Event, now: State) -> tuple[list[Problem], dict[str, str]]:
    response = event.visitor.get(event.url("club:standings-csv"))
    if response.status_code != 200:
        return [Problem("standings.csv", "", f"answers {response.status_code}")], {}
    text = response.content.decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    header, body = table[0], table[1:]
    place, player = header.index("Place"), header.index("Player")
    listed = [(row[player].removeprefix("'"), row[place]) for row in body]
    return _places("standings.csv", now, listed), dict(listed)


def _pdf_text(pdf: bytes) -> str:
    """What the pages say, as drawn (right-to-left runs back in reading order) and as laid
    out: a name is on the page if either holds it."""
    reader = PdfReader(io.BytesIO(pdf))
    drawn: list[str] = []

    def visit(text: str, *_args: object) -> None:
        drawn.append(text)

    laid = []
    for page in reader.pages:
        page.extract_text(visitor_text=visit)
        laid.append(page.extract_text(extraction_mode="layout"))
    text = "\n".join(["".join(drawn), "\n".join(drawn), *laid])
    return unicodedata.normalize("NFKC", " ".join(text.split()))


def standings_pdf(event: Event, now: State) -> list[Problem]:
    response = event.visitor.get(event.url("printing:standings-pdf"))
    if response.status_code != 200:
        return [Problem("standings PDF", "", f"answers {response.status_code}")]
    text = _pdf_text(
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    reversed_text = text[::-1]
    problems = []
    for entry in now.entrants:
        name = unicodedata.normalize("NFKC", " ".join(entry.name.split()))
        words = name.split()
        seen = name in text or all(w in text or w[::-1] in reversed_text for w in words)
        if not seen:
            problems.append(Problem("standings PDF", entry.name, "missing"))
    return problems


PROJECTOR_ROWS = 16
"""The most rows a page of the projector's standings holds."""


def projector(event: Event, now: State, json_places: dict[str, str]) -> list[Problem]:
    """The projector's standings, paged through as a projector without JavaScript pages
    them (each page's link): every entrant on exactly one page, no page over
    :data:`PROJECTOR_ROWS` rows, each with the place ``standings.json`` gives."""
    url = event.url("public:display")
    response = event.visitor.get(url, {"panel": "standings"})
    if response.status_code != 200:
        return [Problem("projector", "", f"answers {response.status_code}")]
    pages = _projector_pages(response.content.decode())
    problems = []
    for number in range(2, len(pages) + 1):  # each later page as its link shows it
        later = event.visitor.get(url, {"panel": "standings", "page": number})
        shown = _projector_pages(later.content.decode())
        if later.status_code != 200 or list(shown) != [number] or shown[number] != pages[number]:
            problems.append(Problem("projector", "", f"page {number}'s link shows another page"))
    if list(pages) != list(range(1, len(pages) + 1)):
        problems.append(Problem("projector", "", f"pages numbered {list(pages)}"))
    for number, rows in pages.items():
        if len(rows) > PROJECTOR_ROWS:
            problems.append(Problem("projector", "", f"page {number} has {len(rows)} rows"))
    listed = Counter(name for rows in pages.values() for name, _label in rows)
    known = {e.name for e in now.entrants}
    for entry in now.entrants:
        if listed[entry.name] != 1:
            problems.append(
                Problem("projector", entry.name, f"on {listed[entry.name]} pages, not 1")
            )
    for name, label in (row for rows in pages.values() for row in rows):
        if name not in known:
            problems.append(Problem("projector", name, "listed but not an entrant"))
        elif json_places and (json_places.get(name) or "–") != (label or "–"):
            problems.append(
                Problem(
                    "projector", name, f"place {label!r}, standings.json {json_places.get(name)!r}"
                )
            )
        elif now.finished and label in ("", "–"):
            problems.append(Problem("projector", name, "no place in a finished event"))
    return problems


def _projector_pages(page: str) -> dict[int, list[tuple[str, str]]]:
    """The pages of the projector's standings panel in ``page``: (name, place label) rows
    by page number (``data-page``)."""
    start = page.find("pj-panel-standings")
    panel = page[start : page.find("</section>", start)] if start >= 0 else ""
    pages: dict[int, list[tuple[str, str]]] = {}
    for number, body in re.findall(
        r'<div class="pj-page" data-page="(\d+)"[^>]*>(.*?)</div>', panel, re.S
    ):
        rows = re.findall(
            r'<td class="num place">(.*?)</td>\s*<td class="player">(.*?)</td>', body, re.S
        )
        pages[int(number)] = [
            (text_of(re.sub(r'<span class="seed">.*?</span>', "", name)), text_of(label))
            for label, name in rows
        ]
    return pages


def time_decisions(event: Event, now: State) -> list[Problem]:
    """Each match decided on time, on both players' pages: said so, with the games and the
    points its sheet shows (the match total and the game being played at the call)."""
    problems = []
    decided = Match.objects.filter(
        tournament=event.tournament, decided_on_time=True, forfeit=False, status="complete"
    )
    for match in decided:
        sheet_url = event.url("scoring:match-sheet", match_id=match.pk)
        sheet = event.visitor.get(sheet_url).content.decode()
        won = re.search(r'class="match-score">(\d+)–(\d+)<', sheet)
        total = re.search(r'<tr class="match-row">\s*<td>(\d+)</td>.*?<td>(\d+)</td>', sheet, re.S)
        playing = re.findall(
            r'<tr class="game current">\s*<td[^>]*>(\d+)</td>.*?<td[^>]*>(\d+)</td>', sheet, re.S
        )
        if won is None or total is None:
            problems.append(Problem("match sheet", match.key, "no score"))
            continue
        points = [int(total.group(1)), int(total.group(2))]
        for a, b in playing:  # the game being played at the call (not closed)
            points = [points[0] + int(a), points[1] + int(b)]
        for side, entry_id in (("A", match.side_a_id), ("B", match.side_b_id)):
            page = event.visitor.get(event.url("public:player", entry_id=entry_id)).content.decode()
            start = page.find(f'href="{sheet_url}"')
            row = page[start : page.find("</li>", start)] if start >= 0 else ""
            games = re.search(r'class="pv-games">(\d+)–(\d+)', row)
            shown = re.search(r'class="pv-points">(\d+)–(\d+)', row)
            mine = (0, 1) if side == "A" else (1, 0)
            wanted_games = (int(won.group(mine[0] + 1)), int(won.group(mine[1] + 1)))
            wanted = (points[mine[0]], points[mine[1]])
            got = (
                (int(games.group(1)), int(games.group(2))) if games else None,
                (int(shown.group(1)), int(shown.group(2))) if shown else None,
            )
            if got != (wanted_games, wanted) or "decided on time" not in row:
                problems.append(
                    Problem(
                        "player page",
                        match.key,
                        f"side {side}: games {got[0]}, points {got[1]}"
                        f"{'' if 'decided on time' in row else ', not said decided on time'}; "
                        f"its sheet {wanted_games}, {wanted}",
                    )
                )
    return problems


def public_page(event: Event, now: State) -> list[Problem]:
    response = event.visitor.get(event.url("public:tournament"))
    if response.status_code != 200:
        return [Problem("public page", "", f"answers {response.status_code}")]
    page = text_of(response.content.decode())
    return [Problem("public page", e.name, "missing") for e in now.entrants if e.name not in page]


def agree(surface: str, places: dict[str, str], json_places: dict[str, str]) -> list[Problem]:
    return [
        Problem(surface, name, f"place {label!r}, standings.json {json_places[name]!r}")
        for name, label in places.items()
        if name in json_places and label != json_places[name]
    ]


def club_pages(event: Event, now: State, json_rows: list[dict]) -> list[Problem]:
    """Once the event is over, each player's club page answers and lists this tournament
    with the place the standings give (then, after a comma, how far they went), and its
    statistics count the hands this event's standings count (the simulator's players play
    no other event). While the event runs the page may say how far the player is, in the
    standings' words; only the end is checked, the pages being the slowest."""
    json_places = {row["name"]: row["place_label"] or "" for row in json_rows}
    hands_won = {row["name"]: row["hands_won"] for row in json_rows}
    problems: list[Problem] = []
    if not now.finished:
        return problems
    listed = re.escape(f'href="{event.url("public:tournament")}"')
    for entry in now.entrants:
        if entry.team_name or entry.player.hidden:
            continue
        response = event.visitor.get(reverse("club:player", args=[entry.player_id]))
        if response.status_code != 200:
            problems.append(Problem("club page", entry.name, f"answers {response.status_code}"))
            continue
        row = re.search(listed + r"[^>]*>.*?</a></td>\s*<td>(.*?)</td>", response.content.decode())
        if row is None:
            problems.append(Problem("club page", entry.name, "does not list the tournament"))
            continue
        shown = text_of(row.group(1))
        label = json_places.get(entry.name, "")
        if not re.match(r"\d", shown):
            problems.append(Problem("club page", entry.name, f"{shown!r} in a finished event"))
        elif label and shown.split(",")[0] != label:
            problems.append(
                Problem("club page", entry.name, f"{shown!r}, standings.json {label!r}")
            )
        stats = re.search(r"<dt>Hands won</dt><dd>(\d+) / (\d+)", response.content.decode())
        if stats is None:
            problems.append(Problem("club page", entry.name, "no hands won in its statistics"))
        elif entry.name in hands_won and int(stats.group(1)) != hands_won[entry.name]:
            problems.append(
                Problem(
                    "club page",
                    entry.name,
                    f"statistics: {stats.group(1)} hands won, standings.json "
                    f"{hands_won[entry.name]}",
                )
            )
    return problems


# -- money ------------------------------------------------------------------------------------


def prizes(event: Event, now: State) -> list[Problem]:
    if not now.money:
        return []
    response = event.visitor.get(event.url("money:prizes"))
    if response.status_code != 200:
        return [Problem("prizes", "", f"answers {response.status_code}")]
    found = response.context["prizes"]
    problems = []
    pots = [("main pool", found.pool, found.places, found.winners, True)]
    pots += [(f"side pot {p.pot.name}", p.pool, p.places, p.winners, True) for p in found.side_pots]
    for name, pool, places, winners, _main in pots:
        if sum(p.cents for p in places) != pool:
            problems.append(
                Problem(
                    "prizes",
                    name,
                    f"places share {sum(p.cents for p in places)} of a pool of {pool}",
                )
            )
        if now.finished and sum(w.cents for w in winners) != pool:
            problems.append(
                Problem(
                    "prizes",
                    name,
                    f"winners get {sum(w.cents for w in winners)} "
                    f"of a pool of {pool}: {[(w.name, w.place_label, w.cents) for w in winners]}",
                )
            )
    page = text_of(response.content.decode())
    if now.finished:
        for winner in found.winners:
            if winner.name not in page:
                problems.append(
                    Problem("prizes", winner.name, "wins a prize the page does not show")
                )
    return problems


# -- the record -------------------------------------------------------------------------------


def entered_once(event: Event, now: State) -> list[Problem]:
    """Issue 41: however an entrant was entered (one at a time, ticked with others, from a
    CSV file), they are entered once, their entry has its one audit row, and the registry
    holds them once (no other player with their club id, or their name and email)."""
    tournament = event.tournament
    audited = Counter(
        AuditEntry.objects.filter(
            tournament=tournament, action__in=("entry added", "team added")
        ).values_list("object_id", flat=True)
    )
    players = Counter(tournament.entries.values_list("player_id", flat=True))
    by_key = Counter(
        (name.casefold(), email.casefold())
        for name, email in Player.objects.values_list("name", "email")
    )
    by_club = Counter(Player.objects.exclude(club_id="").values_list("club_id", flat=True))
    problems = []
    for entry in now.entrants:
        player = entry.player
        if players[player.pk] != 1:
            problems.append(Problem("entries", entry.name, f"entered {players[player.pk]} times"))
        if audited[str(entry.pk)] != 1:
            problems.append(
                Problem("audit log", entry.name, f"{audited[str(entry.pk)]} rows for the entry")
            )
        twins = by_key[(player.name.casefold(), player.email.casefold())]
        if twins != 1 or (player.club_id and by_club[player.club_id] != 1):
            problems.append(Problem("registry", entry.name, "registered more than once"))
    return problems


def verify(event: Event, now: State) -> list[Problem]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_tournament", event.slug, stdout=out, stderr=err)
    except SystemExit:
        lines = (out.getvalue() + err.getvalue()).strip().splitlines()
        return [Problem("verify_tournament", "", line) for line in lines]
    return []


class _Undo(Exception):
    pass


def _forget(tournament: Tournament) -> None:
    """The tournament and its players gone, as on another installation."""
    players = list(tournament.entries.values_list("player_id", flat=True))

    players += list(
        TeamMember.objects.filter(entry__tournament=tournament).values_list("player_id", flat=True)
    )
    Match.objects.filter(tournament=tournament).update(next_match=None, loser_next_match=None)
    Hand.objects.filter(match__tournament=tournament).delete()
    Match.objects.filter(tournament=tournament).delete()
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()


def round_trip(event: Event, now: State, tmp_path) -> list[Problem]:
    """``export.json``, imported into a database without the tournament or its players,
    exported again: the same document. Undone afterwards (a savepoint rolled back)."""
    first = event.director.get(event.url("archive:tournament-export"))
    if first.status_code != 200:
        return [Problem("export.json", "", f"answers {first.status_code}")]
    document = first.content.decode()
    path = tmp_path / f"{event.slug}.json"
    path.write_text(document, encoding="utf-8")
    problems: list[Problem] = []
    try:
        with transaction.atomic():
            _forget(event.tournament)
            out, err = io.StringIO(), io.StringIO()
            try:
                call_command("import_tournament", str(path), stdout=out, stderr=err)
            except SystemExit:
                problems.append(Problem("export.json", "", f"refused: {err.getvalue().strip()}"))
                raise _Undo from None
            again = event.director.get(event.url("archive:tournament-export")).content.decode()
            if again != document:
                problems.append(
                    Problem(
                        "export.json", "", first_difference(json.loads(document), json.loads(again))
                    )
                )
            raise _Undo
    except _Undo:
        pass
    return problems


# -- the companion and the tables ------------------------------------------------------------

AT_A_TABLE = (Match.Status.READY, Match.Status.IN_PLAY, Match.Status.AWAITING)


def companions(event: Event, now: State) -> list[Problem]:
    """Each entrant's page says what to do now, as their matches stand (issue 33): at a
    table and no hand yet, "called"; a hand in, or the result to confirm, "playing";
    ready without a table, "waiting" (with the table that should free for them and about
    when, when ``tables.json`` has a start for the match). And ``tables.json`` lists
    every match at a table (each in play with a hand has an estimated finish) and every
    match waiting for one."""
    problems = []
    tables = event.visitor.get(event.url("public:tables-json")).json()
    listed = {row["match"]: row for row in tables["tables"]}
    queue = {row["match"]: row for row in tables["queue"]}
    current: dict[int, Match] = {}
    matches = Match.objects.filter(tournament=event.tournament, status__in=AT_A_TABLE)
    # A player in several (a round robin): what they do now is the one being played, then
    # the one at a table, then the first to get one (the last written wins here).
    for match in sorted(
        matches.filter(is_bye=False).exclude(side_a=None).exclude(side_b=None),
        key=lambda m: (m.status == Match.Status.READY, m.table is None, m.round, m.position),
        reverse=True,
    ):
        current[match.side_a_id] = current[match.side_b_id] = match
        if match.table:
            row = listed.get(match.key)
            if row is None or row["table"] != match.table:
                problems.append(Problem("tables.json", match.key, f"not at table {match.table}"))
            elif (
                match.status == Match.Status.IN_PLAY
                and row["hands"]
                and not row["estimated_finish"]
            ):
                problems.append(Problem("tables.json", match.key, "in play, no estimate"))
        elif match.key not in queue:
            problems.append(Problem("tables.json", match.key, "waiting, not in the queue"))
    for entry in now.entrants:
        match = current.get(entry.pk)
        if match is None:
            continue
        page = event.visitor.get(event.url("public:player", entry_id=entry.pk)).content.decode()
        found = re.search(r'<main class="content" data-state="([^"]+)"', page)
        said = re.search(r'<p class="pv-now[^"]*" role="status">(.+?)</p>', page, re.S)
        shown = (found.group(1) if found else "none", text_of(said.group(1)) if said else "")
        if match.status != Match.Status.READY:
            wanted = "playing"
        elif match.table:
            wanted = "called"
        else:
            wanted = "waiting"
        if shown[0] != wanted:
            problems.append(Problem("companion", entry.name, f"{shown[0]}, not {wanted}"))
        start = queue.get(match.key, {}).get("estimated_start")
        if wanted == "waiting" and start and "(about " not in shown[1]:
            problems.append(Problem("companion", entry.name, f"no time said: {shown[1]}"))
    return problems


# -- all of them ------------------------------------------------------------------------------


# -- a match waiting for a table (issue 41) ----------------------------------------------------

WAITING = re.compile(
    r"Wait for a table: (you are next after table \d+ \(about [^)]+\)|you are first in the "
    r"queue|\d+ match(es)? (is|are) ahead of you in the queue)\."
)


def queued_matches(event: Event, now: State) -> list[Problem]:
    """Every match waiting for a table (both players known, no table, not decided) has no
    hand, and its table link says where it stands in the queue, with no form to play it."""
    problems = []
    queued = (
        Match.objects.filter(
            tournament__slug=event.slug, table=None, status__in=("ready", "in_play")
        )
        .exclude(side_a=None)
        .exclude(side_b=None)
    )
    for match in queued:
        hands = Hand.objects.filter(match=match).count()
        if hands:
            problems.append(
                Problem("queued match", match.key, f"{hands} hands stored without a table")
            )
        link = reverse("scoring:table-match-sheet", kwargs={"token": match.token})
        page = event.visitor.get(link).content.decode()
        said = text_of(page)
        if not WAITING.search(said) or 'name="number"' in page:
            problems.append(
                Problem(
                    "queued match", match.key, f"its table link does not say to wait: {said[:300]}"
                )
            )
    return problems


def check(event: Event, tmp_path) -> list[Problem]:
    now = state(event)
    problems = find_me(event, now) + player_pages(event, now) + public_page(event, now)
    problems += companions(event, now)
    problems += queued_matches(event, now)
    problems += match_exports(event)
    json_problems, json_rows = standings_json(event, now)
    json_places = {row["name"]: row["place_label"] or "" for row in json_rows}
    csv_problems, csv_places = standings_csv(event, now)
    problems += json_problems + csv_problems + agree("standings.csv", csv_places, json_places)
    problems += standings_pdf(event, now) + projector(event, now, json_places)
    problems += club_pages(event, now, json_rows)
    problems += time_decisions(event, now)
    problems += prizes(event, now) + verify(event, now) + round_trip(event, now, tmp_path)
    problems += entered_once(event, now)
    problems += made_once(event)
    problems += mirror_untouched(event)
    problems += nothing_secret_recorded(event)
    problems += mirrored_money(event)
    return problems + mirror(event)
