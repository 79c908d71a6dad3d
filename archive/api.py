"""The tournament archive: one JSON document with everything about a tournament, and the
way back in (``manage.py import_tournament``).

The document (``FORMAT``, version ``VERSION``) holds the tournament with its rules
snapshot, the registry rows of its players, the entries, the matches, every hand and the
audit log. Rows refer to each other by stable references, never by database ids: an
entry is its index in ``entries`` (``players[i]`` is the player of ``entries[i]``), a
match is its key, a hand is its match key and number, a user is a username. Times are
UTC ISO 8601 with microseconds. The document carries no export time, so exporting,
importing into an empty database and exporting again gives the same document, byte for
byte. ``ginclub_version`` names the build that wrote it (``ginclub --version``), for the
reader and a bug report; the import reads archives without it (written before it was).

In audit rows, ``object`` is ``{"type", "ref"}``: ``ref`` is the match key, the entry
index or ``[match key, hand number]``, and null for the tournament itself or an object
that no longer exists (a deleted hand). ``side_a``/``side_b`` inside the ``before`` and
``after`` of a match's audit row are entry indexes too.

Importing checks the whole document before writing anything, then writes it in one
transaction. That includes the bracket's shape (:mod:`archive.structure`): routes that
only move on, byes that are byes, table-link tokens, players where the results sent them.
Players are matched to the registry by club id, else by name and email (ignoring case),
else created. Users are matched by username; an unknown owner is
replaced by ``owner`` (else the first superuser), unknown co-directors and scorekeepers
are left out, and hands or audit rows by unknown users keep no user. A table-link token
already used on this installation is renewed.

A tournament in stages also has ``"stages"`` (:mod:`archive.stage_rows`): each stage's
settings, its entrants, pools and late entries' starting points as entry indexes; each
match names its stage by number (null: the one bracket of a tournament without stages),
and an audit row's ``ref`` for a stage is its number. An archive without ``"stages"``
(made before them) imports as one bracket.

Decisions that are not hands (issue 28: on time, a director's ruling on a level match, a
walkover, a lucky loser, a bye) are ``"decisions"`` (:mod:`archive.decision_rows`,
:data:`archive.schema.DECISION_FIELDS`), written when the tournament has any: each names
its match by key, its players by entry index and who decided by username, and carries
its basis (the score at the call, a ruling's reason), so that ``verify_tournament``
replays the match from its hands plus its decision on either side of a round trip.

A tournament's money is ``"money"`` (version 2, :mod:`money.copies`): the entry fee,
payout table, the prize pool as one sum and each side pot's settings, count and winners,
never who paid or bought in; an archive a club's server is sent (``published``,
:mod:`publishing`) also has ``"seasons"`` (:mod:`club.copies`) and leaves out every
payment (entries unpaid, the payment rows of the audit reduced to their action). These
parts are kept by apps above the archive (:mod:`archive.sections`). A document without
them is version 1, as before them, and version 1 is read as it always was.

The export view is :mod:`archive.views`; checking that the stored bracket has that shape
and its match summaries agree with the hands is :mod:`archive.verify`
(``manage.py verify_tournament``).
"""

from .export import dumps, export_tournament
from .reading import check_archive, parse
from .restore import ImportReport, import_archive
from .schema import (
    AUDIT_FIELDS,
    DECISION_FIELDS,
    DECISION_REFS,
    ENTRY_FIELDS,
    ENTRY_TEAM_FIELDS,
    FORMAT,
    HAND_FIELDS,
    HAND_OPTIONAL_FIELDS,
    MATCH_ENTRIES,
    MATCH_FIELDS,
    MATCH_OPTIONAL_FIELDS,
    MATCH_ROUTES,
    PLAYER_FIELDS,
    PLAYER_OPTIONAL_FIELDS,
    STAGE_ENTRIES,
    STAGE_FIELDS,
    TOP_KEYS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_USERS,
    VERSION,
    ArchiveError,
)

__all__ = [
    "AUDIT_FIELDS",
    "DECISION_FIELDS",
    "DECISION_REFS",
    "ENTRY_FIELDS",
    "ENTRY_TEAM_FIELDS",
    "FORMAT",
    "HAND_FIELDS",
    "HAND_OPTIONAL_FIELDS",
    "MATCH_ENTRIES",
    "MATCH_FIELDS",
    "MATCH_OPTIONAL_FIELDS",
    "MATCH_ROUTES",
    "PLAYER_FIELDS",
    "PLAYER_OPTIONAL_FIELDS",
    "STAGE_ENTRIES",
    "STAGE_FIELDS",
    "TOP_KEYS",
    "TOURNAMENT_FIELDS",
    "TOURNAMENT_USERS",
    "VERSION",
    "ArchiveError",
    "ImportReport",
    "check_archive",
    "dumps",
    "export_tournament",
    "import_archive",
    "parse",
]
