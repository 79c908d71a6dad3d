"""What the venue and the club's server say to each other: one POST, one JSON answer.

**Change numbers.** A tournament's changes are its audit rows, in order: every service
that writes records exactly one (``tournaments.audit``), in the same transaction. Change
*N* is the tournament's *N*-th audit row, so "through N" names the state after the first
*N* changes, and the venue's count of audit rows is how many changes it has.

**What is sent.** The first time, and whenever the club's copy is not known, the whole
archive of the tournament (``archive.export``) as it stands through change *N*, audit
included. After that, only what changed since change *S*, the last the club
acknowledged: the same document, with the tournament, players, entries, stages and
matches whole, but only the hands and decisions of the matches whose hands or decisions
changed since *S* (``hands_of``), and the audit from row ``audit_from`` (a few rows before
*S*: a row that committed late lands in its place). The club applies it in place, row by
row, keeping every row's id (``archive.refresh``). A change received twice, or after a
newer one, is acknowledged and not applied again. A part that starts after what the club
has (a gap), or does not fit its copy, is not applied: the answer gives the club's
number, and the venue sends the whole archive.

**The request** (venue → club): ``POST {club}/publish/changes/`` with
``Authorization: Bearer <token>`` (never in the URL) and a JSON body, optionally
``Content-Encoding: gzip``::

    {"format": "ginclub-publish", "version": 2,
     "venue": "Riverside club laptop",      # the venue's name, shown on the mirror
     "slug": "friday-swiss",                 # the slug it is published under
     "through": 212,                         # the change number the venue is at
     "archive": {...} or null,               # null: "are you at 212?" (a heartbeat)
     "since": 205 or null,                   # a part: what changed after change 205
     "hands_of": ["W3-2", ...],              # a part: the matches whose hands it carries
     "audit_from": 195,                      # a part: the audit's first row in it
     "age": 3.2,                             # optional: seconds since change 212 was made
     "waiting": 14.0}                        # optional: seconds since the oldest change
                                             #   the club has not acknowledged was made

``age`` and ``waiting`` are measured on the venue's clock as it sends, so the club can
say how far behind its mirror is without comparing the two machines' clocks (see
:mod:`.lag`). A club of before ignores them; a venue of before sends neither, and the
club then counts from its last word.

**The probe.** ``HEAD {club}/publish/changes/`` is answered at once (405) without a
token or any work: while its changes wait for the connection, the venue asks it every
few seconds whether the club is back (a proxy with no server behind it answers 502–504).

**The answer** is JSON: ``{"applied_through": M}`` with status 200 when the mirror is at
*M* (``M >= through`` when the archive was applied or had been; ``M < through`` after a
heartbeat means "send me the archive"), otherwise ``{"error": "<one clear line>",
"code": "<code>"}`` with the status below. The venue shows the line as it is.

**What is refused.** Every body the club cannot read is a ``bad-request`` with its line,
never an error page: not JSON, gzip that is not, a body beyond :data:`MAX_BODY` once
unpacked, nesting beyond :data:`MAX_DEPTH`, a slug that is not one (letters, digits,
``-`` and ``_``, at most 80), a change number that is not a whole number from 0 to
:data:`MAX_CHANGE`, a part whose numbers disagree (not ``audit_from <= since <=
through``), and a change that claims more than it carries (``through`` beyond the audit
rows the mirror has once it is applied: the mirror would otherwise acknowledge, and so
skip, the venue's real changes up to that number). Nothing of a
refused request is applied. ``applied_through`` is always the number of the change the
mirror holds: never one it was sent and did not apply.

**Wrong tokens** are counted per address: past :data:`TOKEN_FAILURE_LIMIT` in
:data:`TOKEN_FAILURE_WINDOW` seconds, a wrong token from that address is refused (429,
``limited``) without its body being read, with ``Retry-After`` and the time in the line.
A right token is checked first (a digest looked up) and still publishes from that address:
a venue behind the same address as someone's mistakes is not locked out. Tokens are 256
random bits, so the limit guards the server's work, not the tokens.
"""

from __future__ import annotations

FORMAT = "ginclub-publish"
VERSION = 2
PATH = "/publish/changes/"
MAX_BODY = 50 * 1024 * 1024
"""The largest request body the club accepts (after gunzip: a small gzip that would unpack
beyond it is refused without being unpacked further)."""
MAX_DEPTH = 32
"""How deeply the body's lists and objects may nest (an archive nests six deep): deeper is
refused as not JSON, before anything reads it."""
MAX_CHANGE = 2**31 - 1
"""The largest change number (``through``, ``since``, ``audit_from``) the club accepts: the
largest a database column of change numbers holds on every database."""

# Refusal codes and their HTTP statuses.
BAD_REQUEST = "bad-request"  # 400: not JSON, wrong format or version, a bad archive
BAD_TOKEN = "bad-token"  # 401: no token, an unknown or a revoked one
SLUG_TAKEN = "slug-taken"  # 409: the slug is another tournament's (publish under another)
LIMITED = "limited"  # 429: too many wrong tokens from this address; Retry-After is set

STATUS = {BAD_REQUEST: 400, BAD_TOKEN: 401, SLUG_TAKEN: 409, LIMITED: 429}

TOKEN_FAILURE_LIMIT = 10
"""Wrong tokens one address may send in :data:`TOKEN_FAILURE_WINDOW` before its wrong
tokens are refused unread."""
TOKEN_FAILURE_WINDOW = 15 * 60
"""Seconds from an address's first wrong token; then its count starts afresh."""

AUDIT_OVERLAP = 10
"""A part's audit starts this many rows before the acknowledged number."""

HEARTBEAT_SECONDS = 15
"""With nothing new, the venue still asks every this many seconds, so the mirror knows
the venue is there and can say how far behind it is."""
LIVE_SECONDS = 3 * HEARTBEAT_SECONDS
"""A mirror that heard from its venue within this many seconds (two heartbeats missed)
says it is live and how far behind; after that, when it last heard."""
