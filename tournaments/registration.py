"""Registration and check-in: entering players in a tournament, seeds, flags, and adding
a new player to the club's registry (:func:`create_player`: at the door, and from the
registry's own page in :mod:`players`).

Late entries are accepted until the bracket is generated; after that the field is fixed
(withdrawal, in :mod:`tournaments.services`, is the only way out). Keyword-only service
functions, each atomic and audited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from web import unique

from . import audit
from .models import Entry, Player, TeamMember, Tournament
from .models.players import REGISTRY_FIELDS
from .movement import lock_tournament
from .public_version import changed, changing
from .stages.progress import late_entries_open

ENTRY_FLAGS = ("checked_in", "paid")


def _open_for_entries(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("This tournament is finished."))
    if tournament.matches.exists() and not late_entries_open(tournament):
        raise ValidationError(
            _(
                "The bracket has been generated: the field is closed. "
                "Clear the bracket to change it."
            )
        )


def add_entry(
    *, tournament: Tournament, player: Player, user: Any, seed: int | None = None
) -> Entry:
    with changing(tournament):
        # The tournament's lock first: the same player entered twice at once queues here,
        # and the second is refused by name.
        lock_tournament(tournament)
        _open_for_entries(tournament)
        if tournament.ruleset.is_team:
            raise ValidationError(
                _("This is a team tournament: register %(player)s as a member of a team.")
                % {"player": player.name}
            )
        if Entry.objects.filter(tournament=tournament, player=player).exists():
            raise ValidationError(_("%(player)s is already entered.") % {"player": player.name})
        if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
            raise ValidationError(_("Seed %(seed)d is already taken.") % {"seed": seed})
        entry = Entry.objects.create(tournament=tournament, player=player, seed=seed)
        audit.record(
            tournament=tournament,
            action="entry added",
            obj=entry,
            after={"player": player.name, "seed": seed},
            user=user,
        )
    return entry


@dataclass
class Entered:
    """What :func:`add_entries` did: the new entries, and the players it left alone
    because they were entered already (withdrawn ones too)."""

    entries: list[Entry] = field(default_factory=list)
    already: list[Player] = field(default_factory=list)


def check_open_for_players(tournament: Tournament) -> None:
    """Raise the ValidationError :func:`add_entry` would for any player: the field is
    closed, or this is a team tournament (what a page offering to enter players asks)."""
    _open_for_entries(tournament)
    if tournament.ruleset.is_team:
        raise ValidationError(
            _("This is a team tournament: register players as members of a team.")
        )


def add_entries(*, tournament: Tournament, players: Sequence[Player], user: Any) -> Entered:
    """Enter several registry players at once, by :func:`add_entry`'s rules, all or none,
    in a fixed number of queries. A player entered already is reported in
    ``Entered.already``, not entered twice; each new entry is audited as one entered
    alone is."""
    with transaction.atomic():
        lock_tournament(tournament)  # as add_entry: two such writes at once queue here
        check_open_for_players(tournament)
        taken = set(tournament.entries.values_list("player_id", flat=True))
        result = Entered()
        chosen: set[int] = set()
        for player in players:
            if player.pk in taken:
                result.already.append(player)
            elif player.pk not in chosen:
                chosen.add(player.pk)
                result.entries.append(Entry(tournament=tournament, player=player))
        result.entries = Entry.objects.bulk_create(result.entries)
        audit.record_each(
            tournament=tournament,
            action="entry added",
            changes=((e, {"player": e.player.name, "seed": None}) for e in result.entries),
            user=user,
        )
        if result.entries:  # nobody new, nothing written
            changed(tournament)
    return result


def add_team(
    *,
    tournament: Tournament,
    name: str,
    players: list[Player],
    user: Any,
    seed: int | None = None,
) -> Entry:
    """Register a team: its name and its players in seat order (seat 1 first), as many
    as the rules' ``team_size``. A player is in one team per event; a team name is used
    once per event. The entry's ``player`` is the seat-1 member."""
    name = " ".join(name.split())
    with changing(tournament):
        lock_tournament(tournament)  # as add_entry: the same team twice queues here
        _open_for_entries(tournament)
        size = tournament.ruleset.team_size
        if size < 2:
            raise ValidationError(
                _("This tournament is played head to head: enter players, not teams.")
            )
        if not name:
            raise ValidationError(_("Give the team a name."))
        if len(name) > Entry._meta.get_field("team_name").max_length:
            raise ValidationError(_("That team name is too long."))
        if len(players) != size:
            raise ValidationError(
                _("A team has %(size)d players; %(count)d were chosen.")
                % {"size": size, "count": len(players)}
            )
        if len({player.pk for player in players}) != len(players):
            raise ValidationError(_("Choose a different player for every seat."))
        if Entry.objects.filter(tournament=tournament, team_name__iexact=name).exists():
            raise ValidationError(_("A team called %(name)s is already entered.") % {"name": name})
        taken = (
            TeamMember.objects.filter(tournament=tournament, player__in=players)
            .select_related("entry")
            .order_by("seat")
            .first()
        )
        if taken is not None:
            raise ValidationError(
                _("%(player)s already plays for %(team)s.")
                % {"player": taken.player.name, "team": taken.entry.name}
            )
        if Entry.objects.filter(tournament=tournament, player__in=players).exists():
            raise ValidationError(_("One of these players is already entered."))
        if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
            raise ValidationError(_("Seed %(seed)d is already taken.") % {"seed": seed})
        entry = Entry.objects.create(
            tournament=tournament, player=players[0], team_name=name, seed=seed
        )
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, entry=entry, player=player, seat=seat)
            for seat, player in enumerate(players, start=1)
        )
        audit.record(
            tournament=tournament,
            action="team added",
            obj=entry,
            after={"team": name, "players": [player.name for player in players], "seed": seed},
            user=user,
        )
    return entry


def check_field(tournament: Tournament, entries: list[Entry]) -> None:
    """Refuse a field that does not fit the rules: teams of ``team_size`` in a team
    tournament, single players otherwise (the team size changed after registration)."""
    size = tournament.ruleset.team_size
    counts = dict(
        TeamMember.objects.filter(entry__in=entries)
        .values_list("entry")
        .annotate(models.Count("pk"))
        .values_list("entry", "pk__count")
    )
    for entry in entries:
        if size > 1 and counts.get(entry.pk) != size:
            raise ValidationError(
                _("%(entry)s is not a team of %(size)d: the rules want teams of %(size)d.")
                % {"entry": entry.name, "size": size}
            )
        if size == 1 and entry.pk in counts:
            raise ValidationError(
                _("%(entry)s is a team, but the rules are head to head.") % {"entry": entry.name}
            )


def create_player(*, data: dict[str, Any], user: Any) -> Player:
    """A new registry entry from cleaned data (a PlayerForm's ``cleaned_data``), added by
    ``user``."""
    with transaction.atomic():
        player = Player(**{name: data.get(name) for name in REGISTRY_FIELDS if name in data})
        if getattr(user, "is_authenticated", False):
            player.created_by = user
        player.full_clean()
        with unique.taken(_("A player with this name and email is already registered.")):
            player.save()
        audit.record(
            tournament=None,
            action="player added",
            obj=player,
            after=audit.snapshot(player, REGISTRY_FIELDS),
            user=user,
        )
    return player


def register_new_player(*, tournament: Tournament, data: dict[str, Any], user: Any) -> Entry:
    """Add a player to the registry and enter them, both or neither."""
    with transaction.atomic():
        lock_tournament(tournament)  # as add_entry: the same new player twice queues here
        _open_for_entries(tournament)
        player = create_player(data=data, user=user)
        return add_entry(tournament=tournament, player=player, user=user)


def set_seed(*, entry: Entry, seed: int | None, user: Any) -> Entry:
    """Give ``entry`` this seed; a player who had it takes ``entry``'s old seed (a swap)."""
    with changing(entry.tournament_id):
        _open_for_entries(entry.tournament)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        old = entry.seed
        if seed == old:
            return entry
        holder = None
        if seed is not None:
            holder = Entry.objects.filter(tournament_id=entry.tournament_id, seed=seed).first()
        if holder is not None:
            Entry.objects.filter(pk=holder.pk).update(seed=None)
        entry.seed = seed
        entry.save(update_fields=["seed"])
        if holder is not None:
            Entry.objects.filter(pk=holder.pk).update(seed=old)
        audit.record(
            tournament=entry.tournament,
            action="seed changed",
            obj=entry,
            before={"seed": old},
            after={"seed": seed, "swapped_with": holder.name if holder else None},
            user=user,
        )
    return entry


def seed_by_rating(
    *, tournament: Tournament, user: Any, club_ratings: Mapping[int, float] | None = None
) -> list[Entry]:
    """Seeds 1..n by rating, highest first (unrated last, then by name); withdrawn
    players lose their seed.

    ``club_ratings`` (player id to club rating, from the club app) seeds by the club
    rating instead, the registry's rating breaking ties and placing the club's unrated."""
    with changing(tournament):
        _open_for_entries(tournament)
        entries = list(
            tournament.entries.select_related("player").order_by(
                F("player__rating").desc(nulls_last=True), "player__name", "pk"
            )
        )
        if club_ratings is not None:
            # Stable: the registry's order above breaks ties and orders the unrated.
            entries.sort(key=lambda e: -club_ratings.get(e.player_id, float("-inf")))
        before = {e.name: e.seed for e in entries}
        tournament.entries.update(seed=None)
        number = 0
        for entry in entries:
            if entry.withdrawn:
                entry.seed = None
            else:
                number += 1
                entry.seed = number
        Entry.objects.bulk_update(entries, ["seed"], batch_size=500)
        audit.record(
            tournament=tournament,
            action="seeded by rating" if club_ratings is None else "seeded by club rating",
            obj=tournament,
            before=before,
            after={e.name: e.seed for e in entries},
            user=user,
        )
    return entries


def set_entry_flag(*, entry: Entry, field: str, value: bool, user: Any) -> Entry:
    """Check-in or paid."""
    if field not in ENTRY_FLAGS:
        raise ValidationError(_("Unknown flag."))
    with transaction.atomic():
        # No key update: a bracket move may be writing a match that points at this entry.
        entry = (
            Entry.objects.select_for_update(no_key=True)
            .select_related("tournament")
            .get(pk=entry.pk)
        )
        if field == "checked_in" and entry.withdrawn and value:
            raise ValidationError(_("A withdrawn player cannot check in."))
        old = getattr(entry, field)
        if old != value:
            setattr(entry, field, value)
            updated = [field]
            if field == "checked_in" and entry.self_checked_in:
                entry.self_checked_in = False  # by hand now (tournaments.self_checkin)
                updated.append("self_checked_in")
            entry.save(update_fields=updated)
            audit.record(
                tournament=entry.tournament,
                action=f"entry {field.replace('_', ' ')}",
                obj=entry,
                before={field: old},
                after={field: value},
                user=user,
            )
            if field == "checked_in":
                changed(entry.tournament_id)  # the player's page says whether to check in
    return entry


def remove_entry(*, entry: Entry, user: Any) -> None:
    """Delete an entry made by mistake (before the bracket only; later, withdraw)."""
    with changing(entry.tournament_id):
        _open_for_entries(entry.tournament)
        name = entry.name
        audit.record(
            tournament=entry.tournament,
            action="entry removed",
            obj=entry,
            before={"player": name, "seed": entry.seed},
            user=user,
        )
        entry.delete()


def reinstate_entry(*, entry: Entry, user: Any) -> Entry:
    """Undo a withdrawal before the bracket is generated."""
    with changing(entry.tournament_id):
        _open_for_entries(entry.tournament)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if not entry.withdrawn:
            raise ValidationError(_("%(player)s has not withdrawn.") % {"player": entry})
        entry.withdrawn = False
        entry.save(update_fields=["withdrawn"])
        audit.record(
            tournament=entry.tournament,
            action="entry reinstated",
            obj=entry,
            before={"withdrawn": True},
            after={"withdrawn": False},
            user=user,
        )
    return entry
