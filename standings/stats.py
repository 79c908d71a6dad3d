"""Per-player statistics of one tournament, from its matches and their engine sheets.

Hands won, gins (big gins included), undercuts won, shutouts (games or columns won while
the opponent won no hand), average deadwood of the player's knocks, matches played and
won (confirmed results), games and points (every stored match summary, so they move
while a match is being played). No queries; names and seeds only, no personal data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import HandKind, MatchSheet, Result, Side, points_at_call

if TYPE_CHECKING:
    from tournaments.models import Entry, Match

COMPLETE = "complete"


@dataclass(slots=True)
class PlayerStats:
    """One player's numbers in one tournament (filled in by :func:`player_stats`)."""

    entry_id: int
    name: str
    seed: int | None
    withdrawn: bool = False
    matches_played: int = 0
    matches_won: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    hands_won: int = 0
    gins: int = 0
    undercuts: int = 0
    shutouts: int = 0
    knocks: int = 0
    knock_deadwood: int = 0
    player_id: int | None = None
    """The club player, for the link to the club's player page (None: no page, hidden)."""

    @property
    def matches_lost(self) -> int:
        return self.matches_played - self.matches_won

    @property
    def margin(self) -> int:
        return self.points_for - self.points_against

    @property
    def average_knock_deadwood(self) -> float | None:
        """Mean deadwood of the player's knocks, to one decimal; None without a knock."""
        if not self.knocks:
            return None
        return round(self.knock_deadwood / self.knocks, 1)


def player_page(entry: Entry | None) -> int | None:
    """The club player whose page the entry's name links to (None: no entry, a team, a
    hidden player). Reads ``entry.player``: load it with the entry."""
    if entry is None or entry.team_name or entry.player.hidden:
        return None
    return entry.player_id


def seed_in(match: Match, entry: Entry) -> int | None:
    """The seed ``entry`` holds in ``match``: in a stage made by a cut, the place the cut
    gave the player (what decided the bracket: :meth:`Stage.cut_seed`); elsewhere the
    registration seed. Reads ``match.stage`` only for a staged match: load it with the
    match (:func:`standings.data.attach_stages`, ``select_related``)."""
    if match.stage_id is not None:
        seed = match.stage.cut_seed(entry.pk)
        if seed is not None:
            return seed
    return entry.seed


def stats_for(entry: Entry) -> PlayerStats:
    """A player's line before they have played: their name and seed, no numbers."""
    page = player_page(entry)
    return PlayerStats(entry.pk, entry.name, entry.seed, entry.withdrawn, player_id=page)


def points_shown(match: Match, sheet: MatchSheet | None) -> tuple[int, int]:
    """A finished match's points (A, B) as its sheet shows them: its stored summary, or
    for a match decided on time the sheet's points at the call (the game being played
    then at its points so far: :func:`engine.points_at_call`), not the 0–0 of its
    finished games."""
    if match.decided_on_time and not match.forfeit and sheet is not None:
        at_call = points_at_call(sheet)
        return at_call.a, at_call.b
    return match.total_a, match.total_b


def player_stats(matches: Sequence[Match], sheets: dict[int, MatchSheet]) -> dict[int, PlayerStats]:
    """Everybody who appears in a match, with their numbers, by entry id (seed order)."""
    stats: dict[int, PlayerStats] = {}
    for match in matches:
        for entry in (match.side_a, match.side_b):
            if entry is not None and entry.pk not in stats:
                stats[entry.pk] = stats_for(entry)
    for match in matches:
        if match.is_bye or match.side_a_id is None or match.side_b_id is None:
            continue
        a, b = stats[match.side_a_id], stats[match.side_b_id]
        a.games_won += match.score_a
        a.games_lost += match.score_b
        b.games_won += match.score_b
        b.games_lost += match.score_a
        a.points_for += match.total_a
        a.points_against += match.total_b
        b.points_for += match.total_b
        b.points_against += match.total_a
        if match.status == COMPLETE and match.winner_side:
            a.matches_played += 1
            b.matches_played += 1
            (a if match.winner_side == "A" else b).matches_won += 1
        sheet = sheets.get(match.pk)
        if sheet is not None:
            _add_hands(sheet, {Side.A: a, Side.B: b})
    return dict(sorted(stats.items(), key=lambda item: seed_key(item[1])))


def _add_hands(sheet: MatchSheet, players: dict[Side, PlayerStats]) -> None:
    # A team match's sheet has a hand per deal (its net result): deals won count as hands
    # won; gins, undercuts and knocks belong to its boards, which the sheet does not hold.
    team = sheet.rules.is_team
    for scored in sheet.hands:
        winner = scored.score.winner
        if winner is not None:
            player = players[winner]
            player.hands_won += 1
            if team:
                continue
            if scored.score.result in (Result.GIN, Result.BIG_GIN):
                player.gins += 1
            elif scored.score.result is Result.UNDERCUT:
                player.undercuts += 1
        hand = scored.hand
        if not team and hand.kind is HandKind.KNOCK and hand.by is not None:
            knocker = players[hand.by]
            knocker.knocks += 1
            knocker.knock_deadwood += hand.deadwood or 0
    for game in sheet.games:
        if game.complete and game.shutout and game.winner is not None:
            players[game.winner].shutouts += 1


def seed_key(stats: PlayerStats) -> tuple[int, str, int]:
    return (stats.seed if stats.seed is not None else 1 << 30, stats.name, stats.entry_id)
