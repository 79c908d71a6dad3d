"""Self check-in from a player's page (issue 33): the code shown at the door, typed on the
phone. The rules and the refusals are :mod:`tournaments.self_checkin`'s; here a wrong code
is counted against the address it came from (:mod:`web.limiter`, as wrong table links
are), and past :data:`GUESS_LIMIT` in :data:`GUESS_WINDOW` that address's codes are turned
away unread until the window ends. Nobody logs in: anyone who knows the code and a
player's page can check that player in, as anyone at the door could say their name.

Every answer is a redirect back to the player's page with a message (so a double tap, or
a reload, never sends the code twice): "checked in", or why not.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from public.live import live
from tournaments import self_checkin
from web import limiter
from web.clients import client_address

GUESSES = "check-in-code-failures"
GUESS_LIMIT = 20
GUESS_WINDOW = 15 * 60


@require_POST
def check_in(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    found = live(request, slug)
    back = redirect(reverse("public:player", kwargs={"slug": slug, "entry_id": entry_id}))
    address = client_address(request)
    if limiter.failures(address, counter=GUESSES) >= GUESS_LIMIT:
        messages.error(request, _("Too many wrong codes from here: wait a few minutes."))
        return back
    code = request.POST.get("code", "")[:20]
    try:
        self_checkin.check_in_self(tournament=found.tournament, entry_id=entry_id, code=code)
    except self_checkin.Refused as refused:
        if refused.code == "wrong":
            limiter.add_failure(address, window=GUESS_WINDOW, counter=GUESSES)
        messages.error(request, " ".join(str(m) for m in refused.messages))
        return back
    messages.success(request, _("You are checked in."))
    return back
