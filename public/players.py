"""The players' own view of a tournament (issue 15): find yourself by name, see where you
play next and how your matches went.

:func:`search` finds the players whose name holds what was typed, ignoring case and
accents ("jose" finds "José", "zolc" finds "Żółć"). :func:`player_view` builds one
player's view: the next thing (the match being played or ready at a table, the match
still waiting for an opponent and the match that decides who it will be, the next Swiss
round to be paired, or how the tournament ended for them) and the matches played so far,
stage by stage in the order they were played (:mod:`public.history`). Everyone who
played a match is found and has a view to the end, in whichever stage they went out.

Both take :class:`standings.data.Results` already loaded and make no queries, so the
pages built on them cost the same whatever the field size. Like the other public pages
they read names and seeds only. Round names come from :func:`standings.standings.round_title`
(each stage's within that stage), where a player stands from the standings, the
bracket's "Winner of W1-2" placeholders and the live score of a table from
:mod:`standings.board`.

What this module does not do: load anything, or know about requests and htmx
(:mod:`public.views.find`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from standings.board import LIVE, LiveTable, MatchBox, feeders, feeding, live_table, match_box
from standings.data import Results
from standings.stage_views import QUALIFYING
from standings.standings import Standing
from standings.stats import COMPLETE, player_page, seed_in
from tournaments.models import Entry, Match, Stage

from .history import Played, RoundNames, StageHistory, Summary, history, side_of

__all__ = [
    "Hit",
    "NextUp",
    "Played",
    "PlayerView",
    "Search",
    "StageHistory",
    "Summary",
    "fold",
    "people",
    "player_view",
    "player_views",
    "search",
]

MIN_QUERY = 2
"""Letters a search needs: one letter would list most of the field. One ideograph (a Han
character: 王, a whole Chinese surname) is enough on its own (:func:`long_enough`)."""
MAX_QUERY = 100
MAX_HITS = 25
"""A search lists at most this many players; the page asks for more of the name."""

# Letters that Unicode does not decompose into a base letter and an accent.
_LETTERS = str.maketrans(
    {
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ħ": "h",
        "ı": "i",
        "ŀ": "l",
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
    }
)
_WORD_BREAK = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """``text`` as names are compared: lower case, no accents, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.translate(_LETTERS).split())


# -- finding players -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hit:
    entry_id: int
    name: str
    seed: int | None
    progress: str = ""
    """Where the player stands, in the standings' words ("Next: Semifinals, table 3")."""
    members: str = ""
    """A team's players, comma-separated: a player finds their team by their own name."""


@dataclass(frozen=True, slots=True)
class Search:
    query: str
    hits: tuple[Hit, ...] = ()
    more: int = 0
    """Players found beyond the ones listed."""
    short: bool = False
    """Too short (or blank) to look for: nobody is listed."""

    @property
    def blank(self) -> bool:
        return self.query == ""

    @property
    def total(self) -> int:
        return len(self.hits) + self.more


def people(data: Results) -> list[Hit]:
    """Everyone a visitor can look up: every entrant who plays in the tournament, in any
    of its stages (withdrawn ones too: they played), with where the standings say each
    stands; before the draw, the players entered."""
    if data.matches:
        progress = {row.stats.entry_id: row.progress for row in data.standings.rows}
        everyone = [*entrants(data), *data.waiting]
        return [Hit(e.pk, e.name, e.seed, progress.get(e.pk, "")) for e in everyone]
    return [Hit(entry.pk, entry.name, entry.seed) for entry in data.entries]


def entrants(data: Results) -> list[Entry]:
    """Every entry in a match of the tournament, whichever stage it reached, by seed: the
    players who did not make a cut stay as findable as the ones who did."""
    found: dict[int, Entry] = {}
    for match in data.matches:
        for entry in (match.side_a, match.side_b):
            if entry is not None and entry.pk not in found:
                found[entry.pk] = entry
    return sorted(
        found.values(), key=lambda e: (e.seed if e.seed is not None else 1 << 30, e.name, e.pk)
    )


def search(everyone: Sequence[Hit], query: str) -> Search:
    """The players of ``everyone`` (:func:`people`) whose name holds every word of
    ``query`` (case and accents ignored): names starting with it first, then names with a
    word starting with each word, by seed."""
    query = " ".join(query.split())[:MAX_QUERY]
    words = fold(query).split()
    if not long_enough(words):
        return Search(query, short=True)
    found: list[tuple[tuple[int, int, str], Hit]] = []
    for person in everyone:
        name = fold(person.name)
        haystack = f"{name} {fold(person.members)}" if person.members else name
        if all(word in haystack for word in words):
            found.append((_rank(name, words, person), person))
    found.sort(key=lambda item: item[0])
    hits = tuple(person for _rank_key, person in found[:MAX_HITS])
    return Search(query, hits, more=max(0, len(found) - MAX_HITS))


def long_enough(words: Sequence[str]) -> bool:
    """Whether ``words`` (folded) hold :data:`MIN_QUERY` letters, an ideograph counting as
    that many: it is a syllable with a meaning, and one of them can be a whole name. (A
    Korean syllable is already several letters once folded: NFKD spells out its jamo.)"""
    weight = sum(
        MIN_QUERY if "IDEOGRAPH" in unicodedata.name(char, "") else 1
        for word in words
        for char in word
    )
    return weight >= MIN_QUERY


def _rank(name: str, words: Sequence[str], person: Hit) -> tuple[int, int, str]:
    parts = _WORD_BREAK.split(name)
    if name.startswith(" ".join(words)):
        closeness = 0
    elif all(any(part.startswith(word) for part in parts) for word in words):
        closeness = 1
    else:
        closeness = 2
    return (closeness, person.seed if person.seed is not None else 1 << 30, name)


# -- one player's view -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    number: int
    mine: int
    theirs: int
    won: str = ""
    """"mine", "theirs" or "" (still open)."""


@dataclass(frozen=True, slots=True)
class LiveScore:
    """A match being played, from the player's side (games, or Hollywood columns, won)."""

    hands: int = 0
    games_mine: int = 0
    games_theirs: int = 0
    game_number: int = 1
    points_mine: int = 0
    points_theirs: int = 0
    columns: tuple[Column, ...] = ()


@dataclass(frozen=True, slots=True)
class Feeder:
    """The match whose winner (or loser) the player meets next, as the bracket draws it."""

    kind: str
    """"winner" or "loser"."""
    round: str
    box: MatchBox


@dataclass(frozen=True, slots=True)
class NextUp:
    """The next thing for a player.

    ``kind``: "playing" or "awaiting" (at the table now, or the result to confirm),
    "table" (ready at a table), "queued" (ready, waiting for a free table), "waiting"
    (the opponent is still to be decided: see ``feeder``), "champion", "out",
    "finished" (a round robin, or a qualifying stage still running, with every match of
    the player's played), "next_round" (a Swiss round played, the next not paired yet),
    "not_drawn".
    """

    kind: str
    round: str = ""
    match_id: int | None = None
    key: str = ""
    table: int | None = None
    opponent: str = ""
    opponent_seed: int | None = None
    opponent_page: int | None = None
    """The opponent's club player page, for the link (None: a team, hidden)."""
    feeder: Feeder | None = None
    score: LiveScore | None = None
    text: str = ""
    """How it ended, in the standings' words ("Out in: Semifinals", "Runner-up")."""
    place: str = ""
    final: bool = False
    """Whether ``place`` is final (the whole tournament is decided)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    entry_id: int
    name: str
    seed: int | None
    next: NextUp
    played: tuple[Played, ...] = ()
    """Every finished match, in playing order (``stages`` one after the other)."""
    stages: tuple[StageHistory, ...] = ()
    """The finished matches stage by stage (one unnamed group without stages)."""
    total: Summary = field(default_factory=Summary)
    """The summary of every finished match."""
    standing: Standing | None = None
    """The player's row of the standings (None: the standings have no row for them)."""
    withdrawn: bool = False
    hollywood: bool = False
    members: tuple[tuple[str, int | None], ...] = ()
    """A team's players in seat order (team tournaments): name, club player page."""
    player_id: int | None = None
    """The club player's page, for the link (None: a team, a hidden player)."""


def player_view(data: Results, entry_id: int) -> PlayerView | None:
    """The view of the player entered as ``entry_id``; None if nobody public has that
    entry in this tournament (another tournament's entry, or a withdrawal before the draw)."""
    hollywood = data.tournament.ruleset.is_hollywood
    if not data.matches:
        entry = next((e for e in data.entries if e.pk == entry_id), None)
        if entry is None:
            return None
        next_up = NextUp("not_drawn")
        return PlayerView(
            entry.pk,
            entry.name,
            entry.seed,
            next_up,
            hollywood=hollywood,
            player_id=player_page(entry),
        )
    mine = [m for m in data.matches if entry_id in (m.side_a_id, m.side_b_id)]
    entry = _entry_in(mine, entry_id) or next((e for e in data.waiting if e.pk == entry_id), None)
    if entry is None:
        return None
    standing = next((row for row in data.standings.rows if row.stats.entry_id == entry_id), None)
    return _drawn_view(data, entry, mine, standing, RoundNames(data))


def player_views(data: Results) -> dict[int, PlayerView]:
    """The view of everyone :func:`people` finds, by entry id: :func:`player_view` for
    each, from one pass over the matches and the standings (linear in the field)."""
    if not data.matches:
        return {
            entry.pk: view
            for entry in data.entries
            if (view := player_view(data, entry.pk)) is not None
        }
    by_entry: dict[int, list[Match]] = {}
    for match in data.matches:
        for entry_id in (match.side_a_id, match.side_b_id):
            if entry_id is not None:
                by_entry.setdefault(entry_id, []).append(match)
    rows = {row.stats.entry_id: row for row in data.standings.rows}
    names = RoundNames(data)
    views = {}
    for entry_id, mine in by_entry.items():
        entry = _entry_in(mine, entry_id)
        assert entry is not None
        views[entry_id] = _drawn_view(data, entry, mine, rows.get(entry_id), names)
    for entry in data.waiting:
        views[entry.pk] = _drawn_view(data, entry, [], rows.get(entry.pk), names)
    return views


def _entry_in(mine: list[Match], entry_id: int) -> Entry | None:
    """The entry as loaded with the first of its matches (None: it has none)."""
    if not mine:
        return None
    first = mine[0]
    return first.side_a if first.side_a_id == entry_id else first.side_b


def _drawn_view(
    data: Results,
    entry: Entry,
    mine: list[Match],
    standing: Standing | None,
    names: RoundNames,
) -> PlayerView:
    """The view of a player once the draw is made: ``mine``, their matches in the order
    loaded (none for a late entry waiting for the next round's pairing)."""
    entry_id = entry.pk
    stages, total = history(data, entry_id, mine, names)
    return PlayerView(
        entry_id=entry_id,
        name=entry.name,
        seed=entry.seed,
        next=_next_up(data, entry, mine, standing, names),
        played=tuple(played for group in stages for played in group.played),
        stages=stages,
        total=total,
        standing=standing,
        withdrawn=entry.withdrawn,
        hollywood=data.tournament.ruleset.is_hollywood,
        player_id=player_page(entry),
    )


def _urgency(match: Match) -> tuple[int, int, int, int]:
    """What a player goes to first: a table in play, then a table to sit at, then the queue."""
    if match.status in LIVE:
        rank = 0
    elif match.status == Match.Status.READY:
        rank = 1 if match.table else 2
    else:
        rank = 3
    return (rank, match.round, match.position, match.pk)


def _next_up(
    data: Results,
    entry: Entry,
    mine: list[Match],
    standing: Standing | None,
    names: RoundNames,
) -> NextUp:
    unfinished = [m for m in mine if m.status != COMPLETE]
    if unfinished:
        return _next_match(data, min(unfinished, key=_urgency), entry.pk, names)
    champion = data.standings.champion
    ending = {"text": "", "place": ""}
    if standing is not None:
        ending = {"text": standing.progress, "place": standing.place_label}
    if not mine:  # entered late: in the next round's pairing
        if standing is not None and standing.place is not None:
            return NextUp("out", final=True, **ending)
        return NextUp("next_round", **ending)
    placed = standing is not None and standing.place is not None
    if champion is not None and champion.entry_id == entry.pk:
        return NextUp("champion", final=True, **ending)
    stage = _last_stage(mine)
    if stage is not None:
        if stage.status == Stage.Status.RUNNING and stage.kind in QUALIFYING:
            if not entry.withdrawn and _rounds_to_pair(stage, names):
                return NextUp("next_round", **ending)
            if not entry.withdrawn:
                return NextUp("finished", **ending)
        if standing is None:  # out in an earlier stage, and the standings do not say where
            ending["text"] = _("Out in: %(round)s") % {"round": stage.name}
        return NextUp("out", final=placed, **ending)
    if data.round_robin:
        return NextUp("finished", final=data.standings.complete, **ending)
    return NextUp("out", final=placed, **ending)


def _last_stage(mine: list[Match]) -> Stage | None:
    """The last stage the player played in (None: a tournament of one bracket)."""
    staged = [m.stage for m in mine if m.stage_id is not None]
    return max(staged, key=lambda stage: stage.number) if staged else None


def _rounds_to_pair(stage: Stage, names: RoundNames) -> bool:
    """Whether a Swiss stage has rounds still to pair."""
    if stage.kind != Stage.Kind.SWISS:
        return False
    return names.rounds(stage.pk) < (stage.rounds or 0)


def _next_match(data: Results, match: Match, entry_id: int, names: RoundNames) -> NextUp:
    side, other = side_of(match, entry_id)
    title = names.title
    where = {
        "round": title(match),
        "match_id": match.pk,
        "key": match.key,
        "table": match.table,
    }
    opponent = match.entry(other)
    if opponent is None:
        source = feeding(data.matches).get((match.pk, other))
        feeder = None
        if source is not None:
            fed_by, kind = source
            feeder = Feeder(kind, title(fed_by), match_box(fed_by, feeders(data.matches)))
        return NextUp("waiting", feeder=feeder, **where)
    who = {
        "opponent": opponent.name,
        "opponent_seed": seed_in(match, opponent),
        "opponent_page": player_page(opponent),
    }
    if match.status in LIVE:
        table = live_table(
            match, data.sheets.get(match.pk), names.last(match), double=names.double(match)
        )
        kind = "awaiting" if match.status == Match.Status.AWAITING else "playing"
        return NextUp(kind, score=_score(table, side), **where, **who)
    if match.status == Match.Status.READY:
        return NextUp("table" if match.table else "queued", **where, **who)
    return NextUp("waiting", **where, **who)


def _score(table: LiveTable, side: str) -> LiveScore:
    def mine_first(a: int, b: int) -> tuple[int, int]:
        return (a, b) if side == "A" else (b, a)

    games = mine_first(table.games_a, table.games_b)
    points = mine_first(table.points_a, table.points_b)
    columns = tuple(
        Column(number, *mine_first(a, b), won="" if not w else "mine" if w == side else "theirs")
        for number, a, b, w in table.columns
    )
    return LiveScore(table.hands, *games, table.game_number, *points, columns)
