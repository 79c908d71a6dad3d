"""The players' own view of a tournament (issue 15): find yourself by name, see where you
play next and how your matches went.

:func:`search` finds the players whose name holds what was typed, ignoring case and
accents ("jose" finds "José", "zolc" finds "Żółć"). :func:`player_view` builds one
player's view: the next thing (the match being played or ready at a table, the match
still waiting for an opponent and the match that decides who it will be, or how the
tournament ended for them) and the matches played so far, in the order they were played.

Both take :class:`public.data.PublicData` already loaded and make no queries, so the
pages built on them cost the same whatever the field size. Like the other public pages
they read names and seeds only. Round names come from :func:`public.standings.round_title`,
where a player stands from the standings, the bracket's "Winner of W1-2" placeholders and
the live score of a table from :mod:`public.board`.

What this module does not do: load anything, or know about requests and htmx
(:mod:`public.find`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.models import Match

from .board import LIVE, LiveTable, MatchBox, feeders, feeding, live_table, match_box
from .data import PublicData
from .standings import Standing, last_rounds, round_title
from .stats import COMPLETE, player_page

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

Title = Callable[[Match], str]


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


def people(data: PublicData) -> list[Hit]:
    """Everyone a visitor can look up: the players in the bracket (withdrawn ones too: they
    played), or before the draw the players entered."""
    if data.matches:
        return [
            Hit(row.stats.entry_id, row.stats.name, row.stats.seed, row.progress)
            for row in data.standings.rows
        ]
    return [Hit(entry.pk, entry.name, entry.seed) for entry in data.entries]


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
    "finished" (a round robin with every match of the player's played), "not_drawn".
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
class Played:
    """A match the player has finished: from the player's side."""

    match_id: int
    key: str
    round: str
    outcome: str
    """"won", "lost", "bye" (went through without playing) or "void" (nobody played it)."""
    opponent: str = ""
    opponent_seed: int | None = None
    games_mine: int = 0
    games_theirs: int = 0
    points_mine: int = 0
    points_theirs: int = 0
    forfeit: bool = False
    table: int | None = None

    @property
    def played(self) -> bool:
        return self.outcome in ("won", "lost")

    @property
    def scored(self) -> bool:
        """Whether it has a score to show (a walkover before any hand has none)."""
        return self.played and not (self.forfeit and not (self.games_mine or self.games_theirs))


@dataclass(frozen=True, slots=True)
class PlayerView:
    entry_id: int
    name: str
    seed: int | None
    next: NextUp
    played: tuple[Played, ...] = ()
    standing: Standing | None = None
    withdrawn: bool = False
    hollywood: bool = False
    members: tuple[tuple[str, int | None], ...] = ()
    """A team's players in seat order (team tournaments): name, club player page."""
    player_id: int | None = None
    """The club player's page, for the link (None: a team, a hidden player)."""


def player_view(data: PublicData, entry_id: int) -> PlayerView | None:
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
    standing = next((row for row in data.standings.rows if row.stats.entry_id == entry_id), None)
    if standing is None:
        return None
    last = last_rounds(data.matches)

    def title(match: Match) -> str:
        return round_title(
            match.section, match.round, last.get(match.section, 0), double=data.double
        )

    mine = [m for m in data.matches if entry_id in (m.side_a_id, m.side_b_id)]
    played = [m for m in in_order(mine, entry_id) if m.status == COMPLETE]
    return PlayerView(
        entry_id=entry_id,
        name=standing.stats.name,
        seed=standing.stats.seed,
        next=_next_up(data, entry_id, mine, standing, title, last),
        played=tuple(_played(m, entry_id, title) for m in played),
        standing=standing,
        withdrawn=standing.stats.withdrawn,
        hollywood=hollywood,
        player_id=standing.stats.player_id,
    )


def in_order(matches: Sequence[Match], entry_id: int) -> list[Match]:
    """One player's matches in the order they are played: each decided one sends the player
    on, the winner one way and the loser another, to the next (round numbers alone would
    not do: a double elimination numbers its losers' rounds apart from the winners').
    Matches no route links come in the order given."""
    by_id = {m.pk: m for m in matches}
    then: dict[int, Match] = {}
    for m in matches:
        if m.status == COMPLETE and m.winner_side:
            won = m.winner_side == _side(m, entry_id)[0]
            target = by_id.get((m.next_match_id if won else m.loser_next_match_id) or 0)
            if target is not None:
                then[m.pk] = target
    fed = {target.pk for target in then.values()}
    order: list[Match] = []
    seen: set[int] = set()
    for start in matches:
        current = None if start.pk in fed else start
        while current is not None and current.pk not in seen:
            seen.add(current.pk)
            order.append(current)
            current = then.get(current.pk)
    return order + [m for m in matches if m.pk not in seen]


def _side(match: Match, entry_id: int) -> tuple[str, str]:
    return ("A", "B") if match.side_a_id == entry_id else ("B", "A")


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
    data: PublicData,
    entry_id: int,
    mine: list[Match],
    standing: Standing,
    title: Title,
    last: dict[str, int],
) -> NextUp:
    unfinished = [m for m in mine if m.status != COMPLETE]
    if unfinished:
        return _next_match(data, min(unfinished, key=_urgency), entry_id, title, last)
    champion = data.standings.champion
    ending = {"text": standing.progress, "place": standing.place_label}
    if champion is not None and champion.entry_id == entry_id:
        return NextUp("champion", final=True, **ending)
    if data.round_robin:
        return NextUp("finished", final=data.standings.complete, **ending)
    return NextUp("out", final=standing.place is not None, **ending)


def _next_match(
    data: PublicData, match: Match, entry_id: int, title: Title, last: dict[str, int]
) -> NextUp:
    side, other = _side(match, entry_id)
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
        "opponent_seed": opponent.seed,
        "opponent_page": player_page(opponent),
    }
    if match.status in LIVE:
        table = live_table(match, data.sheets.get(match.pk), last, double=data.double)
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


def _played(match: Match, entry_id: int, title: Title) -> Played:
    side, other = _side(match, entry_id)
    if match.is_bye:
        outcome = "bye" if match.winner_side == side else "void"
        return Played(match.pk, match.key, title(match), outcome)
    opponent = match.entry(other)
    scores = (match.score_a, match.score_b, match.total_a, match.total_b)
    games_mine, games_theirs, points_mine, points_theirs = (
        scores if side == "A" else (scores[1], scores[0], scores[3], scores[2])
    )
    return Played(
        match_id=match.pk,
        key=match.key,
        round=title(match),
        outcome="won" if match.winner_side == side else "lost",
        opponent=opponent.name if opponent is not None else "",
        opponent_seed=opponent.seed if opponent is not None else None,
        games_mine=games_mine,
        games_theirs=games_theirs,
        points_mine=points_mine,
        points_theirs=points_theirs,
        forfeit=match.forfeit,
        table=match.table,
    )
