"""The phones at a table: each browser that opens a table link gets a short label in a
cookie (four letters or digits, e.g. ``K7QF``), so a hand stored through the link says
which phone sent it ("phone K7QF at table 7"). No personal data: a random code, scoped to
the table links' paths; a phone without cookies simply has no label.
"""

from __future__ import annotations

import re
import secrets

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

COOKIE = "ginclub_phone"
# No 0/O, 1/I: read aloud across a table without doubt.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE = re.compile(r"^[A-HJ-NP-Z2-9]{4}$")
MAX_AGE = 60 * 60 * 24 * 365


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _n in range(4))


def device_of(request: HttpRequest) -> str:
    """The phone's label from its cookie, or "" when it has none (or a malformed one)."""
    code = request.COOKIES.get(COOKIE, "")
    return code if CODE.match(code) else ""


def remember(request: HttpRequest, response: HttpResponse) -> None:
    """Give a phone that has no label one (on any table-link answer)."""
    if device_of(request):
        return
    response.set_cookie(
        COOKIE, new_code(), max_age=MAX_AGE, path="/table/", httponly=True, samesite="Lax"
    )


def entered_from(request: HttpRequest, device: str, by_account: bool, table: object) -> str:
    """Where a stored hand came from, as the phone that was refused is told: "this phone",
    "phone K7QF at table 7", a scorer's or the director's screen, or another phone."""
    if device and device == device_of(request):
        return _("this phone")
    if device:
        return label(device, table)
    if by_account:
        return _("a scorer's or the director's screen")
    return _("another phone")


def label(code: str, table: object) -> str:
    """How a phone is named to the players: "phone K7QF at table 7"."""
    return _("phone %(code)s at table %(table)s") % {"code": code, "table": table or "?"}
