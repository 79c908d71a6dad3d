"""Wrong self check-in codes, counted per phone and, as a wide backstop, per address
(issue 41), so that one phone guessing cannot lock out a room that shares one address (a
venue's Wi-Fi, a club's server behind one proxy).

A phone is known by a random id in a cookie of its own (:data:`COOKIE`, for the public
pages' paths: not a person, nothing else stored), given with the answer to its first
check-in. Each wrong code counts against that phone (:data:`DEVICE_LIMIT` in
:data:`WINDOW`) and against its address (:data:`ADDRESS_LIMIT` in the same window), on
the shared cache :mod:`web.limiter` counts table links on. Past either, that phone's
(or address's) codes are turned away unread until the window ends, and the refusal says
when that is. A phone that refuses cookies gets a new id each time, so only its address
counts it: the backstop. A right code from a phone that has not guessed goes through
while its address is under the backstop.

This module only counts and words the wait; :mod:`public.views.checkin` decides.
"""

from __future__ import annotations

import datetime
import re
import secrets
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from web import limiter
from web.clients import client_address

COOKIE = "ginclub_device"
COOKIE_PATH = "/t/"
MAX_AGE = 7 * 24 * 60 * 60
ID = re.compile(r"^[A-Za-z0-9_-]{22}$")

DEVICE_LIMIT = 10
"""Wrong codes one phone may send in :data:`WINDOW`: a player who misreads the door's
code a few times is not stopped; a phone trying codes is, after ten."""
ADDRESS_LIMIT = 200
"""Wrong codes all the phones behind one address may send in :data:`WINDOW`, between them."""
WINDOW = 15 * 60
"""Seconds from a phone's (or address's) first wrong code; then its count starts afresh."""

DEVICE_GUESSES = "check-in-code-failures-device"
ADDRESS_GUESSES = "check-in-code-failures"


@dataclass(frozen=True)
class Guesser:
    """Who sent a code: the phone's id (new when it had none) and its address."""

    device: str
    address: str
    new: bool


def guesser(request: HttpRequest) -> Guesser:
    """The phone and address of ``request``; a phone without a (well-formed) id gets one."""
    device = request.COOKIES.get(COOKIE, "")
    if ID.match(device):
        return Guesser(device, client_address(request), new=False)
    return Guesser(secrets.token_urlsafe(16), client_address(request), new=True)


def give_cookie(who: Guesser, response: HttpResponse) -> None:
    """Give a phone seen for the first time its id, for the next code it sends."""
    if who.new:
        response.set_cookie(
            COOKIE, who.device, max_age=MAX_AGE, path=COOKIE_PATH, httponly=True, samesite="Lax"
        )


def wait(who: Guesser) -> str:
    """Why and until when ``who``'s codes are turned away, or "" when they are read."""
    device_over = limiter.failures(who.device, counter=DEVICE_GUESSES) >= DEVICE_LIMIT
    address_over = limiter.failures(who.address, counter=ADDRESS_GUESSES) >= ADDRESS_LIMIT
    if not (device_over or address_over):
        return ""
    ends = [
        limiter.window_end(key, counter=counter)
        for over, key, counter in (
            (device_over, who.device, DEVICE_GUESSES),
            (address_over, who.address, ADDRESS_GUESSES),
        )
        if over
    ]
    at = max((end for end in ends if end is not None), default=None)
    until = timezone.localtime(
        timezone.now() if at is None else datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
    )
    # A minute up, so that "after 20:46" is never a minute too early.
    shown = time_format(until.replace(second=0, microsecond=0) + datetime.timedelta(minutes=1))
    if address_over and not device_over:
        return _(
            "Too many wrong codes from this network: try again after %(time)s, "
            "or check in at the desk."
        ) % {"time": shown}
    return _(
        "Too many wrong codes from this phone: try again after %(time)s, or check in at the desk."
    ) % {"time": shown}


def count_wrong(who: Guesser) -> None:
    """Count one wrong code against ``who``'s phone and its address."""
    limiter.add_failure(who.device, window=WINDOW, counter=DEVICE_GUESSES)
    limiter.add_failure(who.address, window=WINDOW, counter=ADDRESS_GUESSES)
