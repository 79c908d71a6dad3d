"""Self check-in from a player's page (issue 33): the code shown at the door, typed on the
phone. The rules and the refusals are :mod:`tournaments.self_checkin`'s; here a wrong code
is counted against the phone that sent it and its address
(:mod:`public.checkin_guesses`), and a phone (or address) past its allowance has its codes
turned away unread, told until when. Nobody logs in: anyone who knows the code and a
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

from public import checkin_guesses
from public.live import live
from tournaments import self_checkin


@require_POST
def check_in(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    found = live(request, slug)
    back = redirect(reverse("public:player", kwargs={"slug": slug, "entry_id": entry_id}))
    who = checkin_guesses.guesser(request)
    checkin_guesses.give_cookie(who, back)
    waiting = checkin_guesses.wait(who)
    if waiting:
        messages.error(request, waiting)
        return back
    code = request.POST.get("code", "")[:20]
    try:
        self_checkin.check_in_self(tournament=found.tournament, entry_id=entry_id, code=code)
    except self_checkin.Refused as refused:
        if refused.code == "wrong":
            checkin_guesses.count_wrong(who)
        messages.error(request, " ".join(str(m) for m in refused.messages))
        return back
    messages.success(request, _("You are checked in."))
    return back
