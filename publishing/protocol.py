"""What the venue and the club's server say to each other: one POST, one JSON answer.

**Change numbers.** A tournament's changes are its audit rows, in order: every service
that writes records exactly one (``tournaments.audit``), in the same transaction. Change
*N* is the tournament's *N*-th audit row, so "through N" names the state after the first
*N* changes, and the venue's count of audit rows is how many changes it has.

**What is sent** is cumulative: the archive of the tournament (``archive.export``) as it
stands through change *N*, audit included. A change received twice, or after a newer
one, is acknowledged and not applied again; nothing can be missing between two numbers,
because each document holds every change before it.

**The request** (venue → club): ``POST {club}/publish/changes/`` with
``Authorization: Bearer <token>`` (never in the URL) and a JSON body, optionally
``Content-Encoding: gzip``::

    {"format": "ginclub-publish", "version": 1,
     "venue": "Riverside club laptop",      # the venue's name, shown on the mirror
     "slug": "friday-swiss",                 # the slug it is published under
     "through": 212,                         # the change number the venue is at
     "archive": {...} or null}               # null: "are you at 212?" (a heartbeat)

**The answer** is JSON: ``{"applied_through": M}`` with status 200 when the mirror is at
*M* (``M >= through`` when the archive was applied or had been; ``M < through`` after a
heartbeat means "send me the archive"), otherwise ``{"error": "<one clear line>",
"code": "<code>"}`` with the status below. The venue shows the line as it is.
"""

from __future__ import annotations

FORMAT = "ginclub-publish"
VERSION = 1
PATH = "/publish/changes/"
MAX_BODY = 50 * 1024 * 1024
"""The largest request body the club accepts (after gunzip)."""

# Refusal codes and their HTTP statuses.
BAD_REQUEST = "bad-request"  # 400: not JSON, wrong format or version, a bad archive
BAD_TOKEN = "bad-token"  # 401: no token, an unknown or a revoked one
SLUG_TAKEN = "slug-taken"  # 409: the slug is another tournament's (publish under another)
LIMITED = "limited"  # 429: too many wrong tokens from this address; Retry-After is set

STATUS = {BAD_REQUEST: 400, BAD_TOKEN: 401, SLUG_TAKEN: 409, LIMITED: 429}

HEARTBEAT_SECONDS = 15
"""With nothing new, the venue still asks every this many seconds, so the mirror knows
the venue is there and can say how far behind it is."""
LIVE_SECONDS = 60
"""A mirror that heard from its venue within this many seconds says it is live."""
