"""The director's screens: tournament setup, registration and check-in,
bracket generation, round control and the audit log; plus the home page (the Roles and
Directors pages are the accounts app's).

Every view is a function with an explicit method decorator. Pages own their partials: an
htmx request gets ``page.html#partial`` (the element with that id), a plain request gets
the whole page, and every response varies on ``HX-Request``. A POST without htmx ends in
a redirect with a message; with htmx it returns the region it changed. Permissions are
checked here, on the server, for every view: anonymous visitors are sent to log in, a
signed-in user without the right gets 403.
"""

from __future__ import annotations

from .audit import audit_log
from .bracket import bracket, bracket_clear, bracket_generate
from .entries import (
    entry_add,
    entry_add_many,
    entry_flag,
    entry_list,
    entry_new,
    entry_reinstate,
    entry_remove,
    entry_seed,
    entry_seed_by_rating,
    entry_self_checkin,
    entry_withdraw,
    team_add,
)
from .home import dashboard, home
from .rounds import match_confirm, match_send, match_walkover, round_control, tables_assign
from .setup import rules_summary_view, tournament_create, tournament_setup, tournament_status
from .stages import (
    match_lucky_loser,
    stage_add,
    stage_clock,
    stage_close,
    stage_late_entry,
    stage_pair,
    stage_remove,
    stages_page,
    stages_start,
)

__all__ = [
    "audit_log",
    "bracket",
    "bracket_clear",
    "bracket_generate",
    "dashboard",
    "entry_add",
    "entry_add_many",
    "entry_flag",
    "entry_list",
    "entry_new",
    "entry_reinstate",
    "entry_remove",
    "entry_seed",
    "entry_seed_by_rating",
    "entry_self_checkin",
    "entry_withdraw",
    "home",
    "match_confirm",
    "match_lucky_loser",
    "match_send",
    "match_walkover",
    "round_control",
    "rules_summary_view",
    "stage_add",
    "stage_clock",
    "stage_close",
    "stage_late_entry",
    "stage_pair",
    "stage_remove",
    "stages_page",
    "stages_start",
    "tables_assign",
    "team_add",
    "tournament_create",
    "tournament_setup",
    "tournament_status",
]
