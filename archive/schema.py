"""The archive's layout: format name and version, the fields of each kind of row, and the
one error an archive can cause. See :mod:`archive.api` for the format itself."""

from __future__ import annotations

from typing import Any

FORMAT = "ginclub-tournament"
VERSION = 2
"""The newest version written: 2 when the document has a part kept by an app above the
archive (``money``, ``seasons``: :mod:`archive.sections`), else 1, as before them, so that
an older reader still reads what it can. The reader reads both."""
FIRST_VERSION = 1
READABLE_VERSIONS = (1, 2)
TOP_KEYS = ("format", "version", "tournament", "players", "entries", "matches", "hands", "audit")
BUILD_KEY = "ginclub_version"
"""Which build wrote the archive (``ginclub --version``): for the reader and a bug report,
never for the import, which reads archives without it (written before it was) too."""
OPTIONAL_TOP_KEYS = (BUILD_KEY, "stages", "decisions")
"""``stages``: written only for a tournament in stages; without it, the tournament is one
bracket. ``decisions``: written only when the tournament has any (see
:data:`DECISION_FIELDS`); an archive from before them has none, and its matches decided
on time, walkovers and byes import and verify as they always did."""

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "venue",
    "tables",
    "page_size",
    "language",
    "status",
    "rules",
    "rules_locked_at",
    "bracket_kind",
    "third_place",
    "consolation",
    "bracket_reset",
    "random_draw",
    "draw_seed",
    "created",
    "updated",
)
TOURNAMENT_USERS = ("owner", "co_directors", "scorekeepers")
PLAYER_FIELDS = ("name", "email", "phone", "club_id", "rating", "notes")
# Written only when not the default, so archives from before the field still read.
PLAYER_OPTIONAL_FIELDS = ("hidden",)  # no club player page (issue 17)
ENTRY_FIELDS = ("seed", "checked_in", "paid", "withdrawn", "registered_at")
ENTRY_TEAM_FIELDS = ("team_name", "members")
"""Written only for a team (team tournaments): its name and its players (indexes into
``players``) in seat order, the first being the entry's ``player``. A team's other
players follow the entries' players in ``players``."""
MATCH_FIELDS = (
    "key",
    "section",
    "round",
    "position",
    "status",
    "table",
    "queued_at",
    "winner_side",
    "score_a",
    "score_b",
    "total_a",
    "total_b",
    "is_bye",
    "forfeit",
    "conditional",
    "token",
    "token_revoked",
    "next_slot",
    "loser_next_slot",
    "first_dealer",
    "started_at",
    "completed_at",
)
MATCH_OPTIONAL_FIELDS = ("decided_on_time",)
"""Written only when true (with ``"stage"``, written only for a match of a stage)."""
MATCH_ENTRIES = ("side_a", "side_b")
STAGE_FIELDS = (
    "number",
    "name",
    "kind",
    "status",
    "rounds",
    "pool_size",
    "advance",
    "tiebreaks",
    "rules",
    "round_rules",
    "rules_locked_at",
    "pairing_seed",
    "third_place",
    "bracket_reset",
    "clock_started_at",
    "clock_minutes",
    "time_procedure",
    "time_extra_hands",
)
STAGE_ENTRIES = ("entrants", "pools", "start_points", "time_called")
"""Entry indexes: the entrants in seed order, the pools, late entries' starting points."""
MATCH_ROUTES = ("next_match", "loser_next_match")
DECISION_FIELDS = ("kind", "side", "hands", "basis", "at", "via")
"""A decision that is not a hand (:class:`tournaments.models.Decision`, issue 28), one row
of ``decisions`` each, in the order they were made. ``kind``: ``time`` (decided on time),
``ruling`` (the director's ruling on a match level on time), ``walkover``,
``lucky_loser``, ``bye``. ``side``: the winner's side, or for a lucky loser the side they
came into. ``hands``: how many of the match's hands the decision read (on time, a
ruling). ``basis``: an object, what it rested on: on time and a ruling, ``procedure``,
``extra_hands``, ``hands_at_call`` and the score at the call (``games``, ``game_points``,
``points``: ``[A, B]``; ``game_points`` null in Hollywood), a ruling's ``reason`` too; a
walkover's ``reason`` (``walkover``, ``withdrawal``); a bye's (``no opponent``); a lucky
loser's ``stage`` (the number of the stage they came from). ``at``: when; ``via``: a table
link or the like."""
DECISION_REFS = ("match", "entry", "replaced", "by")
"""``match``: its key. ``entry``: an entry index or null: the lucky loser, the bye's
player, the player whose withdrawal gave the walkover. ``replaced``: the entry index a
lucky loser replaced, or null. ``by``: the username who decided, or null (a table link,
an account unknown here)."""
HAND_FIELDS = (
    "number",
    "kind",
    "by",
    "deadwood",
    "defender_deadwood",
    "knock_card",
    "entered_at",
    "updated_at",
    "entered_via",
)
HAND_OPTIONAL_FIELDS = ("cards",)
"""Written only when set (a hand entered from its cards), so archives of hands typed as
counts, from before cards were stored among them, read as they always did."""
AUDIT_FIELDS = ("at", "via", "action")

# Portable limits (PostgreSQL's column types; SQLite would store anything).
INT_RANGES = {
    "PositiveSmallIntegerField": (0, 2**15 - 1),
    "PositiveIntegerField": (0, 2**31 - 1),
    "IntegerField": (-(2**31), 2**31 - 1),
    "BigIntegerField": (-(2**63), 2**63 - 1),
}
MAX_JSON_DEPTH = 32


class ArchiveError(Exception):
    """An archive that cannot be imported; the message is one line for the user."""


def map_sides(value: Any, object_type: str, convert: Any) -> Any:
    """``side_a``/``side_b`` in a match's audit snapshot, passed through ``convert`` (entry
    ids to archive indexes on export, and back on import)."""
    if object_type != "match" or not isinstance(value, dict):
        return value
    return {
        key: convert(item)
        if key in MATCH_ENTRIES and isinstance(item, int) and not isinstance(item, bool)
        else item
        for key, item in value.items()
    }
