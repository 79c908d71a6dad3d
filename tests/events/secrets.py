"""Issue 43's invariant: no answer the night's forms were given is kept with a secret in
it. Every recorded answer (the double-tap recording, ``web.submissions``) is read whole:
none holds a new publishing token's page or a set-password link. (What the mirror
acknowledges it applied: :mod:`.mirror` reports any refusal of the venue's changes.)"""

from __future__ import annotations

import re

from web.models import Submission

from .driver import Event
from .problems import Problem

SECRET_SHOWN = re.compile(
    rb'id="new-token"|/accounts/set-password/[^/"<\s]+/[0-9a-z]+-[0-9a-f]{20,}/'
)


def nothing_secret_recorded(event: Event) -> list[Problem]:
    return [
        Problem("recorded answers", "", f"the answer to {path} is kept with a secret in it")
        for path, body in Submission.objects.values_list("path", "body").iterator()
        if SECRET_SHOWN.search(bytes(body or b""))
    ]
