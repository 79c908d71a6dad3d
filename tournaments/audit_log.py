"""Reading the audit log for the director: each entry as a sentence with names, not ids.

``tournaments.audit`` writes the rows as stable data (English action codes, ids, side
letters); this module reads a page of them back for a person: "Hand 1 of W1-3 corrected
by director: opponent's deadwood 30 → 32". Names come from the matches and entries the
page's rows mention, loaded in two queries whatever the page's length; only the fields
that changed are named; the stored data stays behind a disclosure on the page.
It also filters the log by match, player and kind. It writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .models import AuditEntry, Entry, Match, Player, Tournament

HAND_ACTIONS = ("hand entered", "hand corrected", "hand deleted")
# A stored field as the director calls it; fields not named here are not shown.
FIELD_LABELS = {
    "kind": gettext_lazy("kind of hand"),
    "by": gettext_lazy("went out"),
    "deadwood": gettext_lazy("knocker's deadwood"),
    "defender_deadwood": gettext_lazy("opponent's deadwood"),
    "knock_card": gettext_lazy("knock card"),
    "cards": gettext_lazy("cards"),
    "seed": gettext_lazy("seed"),
    "swapped_with": gettext_lazy("seed swapped with"),
    "checked_in": gettext_lazy("checked in"),
    "paid": gettext_lazy("paid"),
    "withdrawn": gettext_lazy("withdrawn"),
    # Its own context: Afrikaans says "toestand" here (its "status" reads as English).
    "status": pgettext_lazy("audit log field", "status"),
    "winner_side": gettext_lazy("winner"),
    "side_a": gettext_lazy("player A"),
    "side_b": gettext_lazy("player B"),
    "table": gettext_lazy("table"),
    "forfeit": gettext_lazy("walkover"),
    "reason": gettext_lazy("on what basis"),
    "token_revoked": gettext_lazy("table link switched off"),
    "role": gettext_lazy("role"),
    "username": gettext_lazy("user"),
    "player": gettext_lazy("player"),
    "name": gettext_lazy("name"),
    "date": gettext_lazy("date"),
    "venue": gettext_lazy("venue"),
    "tables": gettext_lazy("tables"),
    "auto_call": gettext_lazy("call tables automatically"),
    "page_size": gettext_lazy("paper size"),
    "language": gettext_lazy("language"),
    "bracket_kind": gettext_lazy("bracket format"),
    "third_place": gettext_lazy("third-place match"),
    "consolation": gettext_lazy("consolation bracket"),
    "bracket_reset": gettext_lazy("bracket reset"),
    "random_draw": gettext_lazy("random draw"),
    "draw_seed": gettext_lazy("draw seed"),
    "matches": gettext_lazy("matches"),
    "count": gettext_lazy("players"),
    "rating": gettext_lazy("rating"),
    "club_id": gettext_lazy("club id"),
    "email": gettext_lazy("email"),
    "phone": gettext_lazy("phone"),
    "notes": gettext_lazy("notes"),
}
KIND_NAMES = {
    "knock": gettext_lazy("knock"),
    "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("big gin"),
    "draw": gettext_lazy("dead hand"),
}
ROLE_NAMES = {
    "co_director": gettext_lazy("co-director"),
    "scorekeeper": gettext_lazy("scorekeeper"),
}


@dataclass
class Change:
    label: str
    before: str | None  # None: the field was not there before (a new value)
    after: str | None  # None: it is gone (a deletion)

    def __str__(self) -> str:
        if self.before is None:
            return f"{self.label} {self.after}"
        if self.after is None:
            return f"{self.label} {self.before}"
        return f"{self.label} {self.before} → {self.after}"


@dataclass
class Line:
    """One audit row as the page shows it."""

    entry: AuditEntry
    what: str  # "Hand 1 of W1-3 corrected by director"
    changes: list[Change] = field(default_factory=list)
    match: Match | None = None
    player: Entry | None = None

    @property
    def sentence(self) -> str:
        if not self.changes:
            return f"{self.what}."
        return f"{self.what}: " + ", ".join(str(c) for c in self.changes) + "."


def filtered(
    tournament: Tournament, *, match: Match | None, player: Entry | None, action: str
) -> QuerySet[AuditEntry]:
    """The tournament's log, narrowed to one match (its own rows and its hands'), one
    player (their entry, their matches and those matches' hands) and one kind."""
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("user")
    if action:
        entries = entries.filter(action=action)
    if match is not None:
        entries = entries.filter(_about_matches([match]))
    if player is not None:
        matches = list(
            Match.objects.filter(tournament=tournament).filter(Q(side_a=player) | Q(side_b=player))
        )
        about = Q(object_type="entry", object_id=str(player.pk))
        if matches:
            about |= _about_matches(matches)
        entries = entries.filter(about)
    return entries.order_by("-at", "-pk")


def _about_matches(matches: list[Match]) -> Q:
    keys = [m.key for m in matches]
    return (
        Q(object_type="match", object_id__in=[str(m.pk) for m in matches])
        | Q(action__in=HAND_ACTIONS, after__match__in=keys)
        | Q(action__in=HAND_ACTIONS, before__match__in=keys)
    )


def lines(tournament: Tournament, rows: Iterable[AuditEntry]) -> list[Line]:
    """The rows as sentences, with the matches and entries they name loaded at once."""
    rows = list(rows)
    match_ids = {int(r.object_id) for r in rows if r.object_type == "match" and r.object_id}
    keys = {
        str((r.after or r.before or {}).get("match"))
        for r in rows
        if r.action in HAND_ACTIONS and (r.after or r.before)
    }
    matches = list(
        Match.objects.filter(tournament=tournament)
        .filter(Q(pk__in=match_ids) | Q(key__in=keys))
        .annotate(**Match.side_names())
    )
    by_pk = {m.pk: m for m in matches}
    by_key = {m.key: m for m in matches}
    entry_ids = {int(r.object_id) for r in rows if r.object_type == "entry" and r.object_id}
    for m in matches:
        entry_ids.update(i for i in (m.side_a_id, m.side_b_id) if i)
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament=tournament, pk__in=entry_ids).select_related(
            "player"
        )
    }
    player_ids = {int(r.object_id) for r in rows if r.object_type == "player" and r.object_id}
    players = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))
    return [_line(r, by_pk, by_key, entries, players) for r in rows]


def _who(row: AuditEntry) -> str:
    return row.who or _("someone")


def _line(
    row: AuditEntry,
    by_pk: Mapping[int, Match],
    by_key: Mapping[str, Match],
    entries: Mapping[int, Entry],
    players: Mapping[int, str],
) -> Line:
    before, after = row.before or {}, row.after or {}
    who = _who(row)
    if row.action in HAND_ACTIONS:
        data = after or before
        match = by_key.get(str(data.get("match")))
        params = {"number": data.get("number"), "match": data.get("match"), "who": who}
        if row.action == "hand entered":
            what = _("Hand %(number)s of %(match)s entered by %(who)s") % params
            return Line(row, f"{what}: {_hand_text(after, match)}", match=match)
        elif row.action == "hand corrected":
            what = _("Hand %(number)s of %(match)s corrected by %(who)s") % params
            changes = _fields(_hand_fields(before), _hand_fields(after), match, entries)
        else:
            what = _("Hand %(number)s of %(match)s deleted by %(who)s") % params
            what = _("%(what)s (it was: %(hand)s)") % {
                "what": what,
                "hand": _hand_text(before, match),
            }
            changes = []
        return Line(row, what, changes, match=match)
    if row.object_type == "match" and row.object_id.isdigit():
        match = by_pk.get(int(row.object_id))
        label = match.key if match else row.object_id
        what = _("%(match)s: %(action)s by %(who)s") % {
            "match": label,
            "action": row.action_label,
            "who": who,
        }
        changes = _fields(before, after, match, entries)
        return Line(row, what, changes, match=match)
    if row.object_type == "entry" and row.object_id.isdigit():
        entry = entries.get(int(row.object_id))
        name = entry.player.name if entry else str(after.get("player") or before.get("player"))
        what = _("%(player)s: %(action)s by %(who)s") % {
            "player": name,
            "action": row.action_label,
            "who": who,
        }
        shown_before = {k: v for k, v in before.items() if k != "player"}
        shown_after = {k: v for k, v in after.items() if k != "player"}
        return Line(row, what, _fields(shown_before, shown_after, None, entries), player=entry)
    if row.object_type == "player" and row.object_id.isdigit():
        what = _("%(player)s: %(action)s by %(who)s") % {
            "player": players.get(int(row.object_id), row.object_id),
            "action": row.action_label,
            "who": who,
        }
        return Line(row, what, _fields(before, after, None, entries))
    what = _("%(action)s by %(who)s") % {"action": _capital(row.action_label), "who": who}
    if row.action in ("bracket generated", "tables assigned", "seeded by rating"):
        return Line(row, what)  # the whole draw: the details hold it
    return Line(row, what, _fields(before, after, None, entries))


def _hand_text(data: Mapping[str, Any], match: Match | None) -> str:
    """A hand as the sheet says it: "Ana knocked, 5 v 30", "Ben went gin, opponent 41"."""
    by = data.get("by")
    name = match.side_name(by) if match is not None and by in ("A", "B") else str(by or "")
    params = {"name": name, "k": data.get("deadwood"), "d": data.get("defender_deadwood")}
    kind = data.get("kind")
    if kind == "knock":
        text = _("%(name)s knocked, %(k)s v %(d)s") % params
    elif kind == "gin":
        text = _("%(name)s went gin, opponent %(d)s") % params
    elif kind == "big_gin":
        text = _("%(name)s went big gin, opponent %(d)s") % params
    else:
        text = _("dead hand")
    if data.get("knock_card"):
        text += ", " + _("knock card %(card)s") % {"card": data["knock_card"]}
    if data.get("cards"):
        text += ", " + _("with the cards")
    return text


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _hand_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in data.items() if k not in ("match", "number")}
    if shown.get("cards") is not None:
        cards = shown["cards"]
        if isinstance(cards, Mapping):
            shown["cards"] = " / ".join(
                " ".join(cards.get(s) or []) for s in ("knocker", "defender")
            )
    return shown


def _fields(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    match: Match | None,
    entries: Mapping[int, Entry],
    *,
    new: bool = False,
    gone: bool = False,
) -> list[Change]:
    """The named fields that differ (or, for a new or deleted thing, that have a value)."""
    changes = []
    for name in dict.fromkeys([*before, *after]):
        if name not in FIELD_LABELS:
            continue
        old, now = before.get(name), after.get(name)
        if new or gone:
            value = now if new else old
            if value in (None, "", [], {}):
                continue
            shown = _value(name, value, match, entries)
            changes.append(
                Change(str(FIELD_LABELS[name]), None, shown)
                if new
                else Change(str(FIELD_LABELS[name]), shown, None)
            )
        elif old != now:
            shown_old = _value(name, old, match, entries)
            shown_now = _value(name, now, match, entries)
            if shown_old != shown_now:  # None and "" read the same
                changes.append(Change(str(FIELD_LABELS[name]), shown_old, shown_now))
    return changes


def _value(name: str, value: Any, match: Match | None, entries: Mapping[int, Entry]) -> str:
    if value in (None, ""):
        return "–"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if name in ("by", "winner_side") and value in ("A", "B"):
        return match.side_name(value) if match is not None else str(value)
    if name in ("side_a", "side_b") and isinstance(value, int):
        entry = entries.get(value)
        return entry.player.name if entry else str(value)
    if name == "kind":
        return str(KIND_NAMES.get(value, value))
    if name == "role":
        return str(ROLE_NAMES.get(value, value))
    if name == "status":
        for choices in (Match.Status, Tournament.Status):
            if value in choices.values:
                return str(choices(value).label)
    return str(value)
