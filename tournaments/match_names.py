"""What people call a round and a match, the one place every surface names them: Round
control, the match sheet and its table link, the printed scoresheets, the public pages and
the exports.

A round is named within its own stage, from the stage's last round of its section
(:func:`round_title`): "Quarterfinals", "Final", "Losers' round 2", and "Round 3" in a
Swiss or pools, whose round numbers start again in each stage. A tournament in stages puts
the stage first: "Qualifying · Round 1 · Match 6", "Knockout · Quarterfinals · Match 1". A
round of one match is the match ("Knockout · Final"). A match's key ("S1.R1-6") is the
bracket's internal code and is never part of a name.

:class:`RoundNames` names the matches it is given (a tournament's, or a stage's) without a
query; :func:`name_of` names one match with one query. How a finished match was decided
(:func:`decided`) is said here too, for the exports. Also :func:`in_order`: stage, then
round in playing order, then match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.utils.translation import gettext as _

from .models import Decision, Match, Stage, Tournament

Status = Match.Status

# Rounds of the main brackets interleave by number (W1, L1, W2, L2 …); the deciders come
# after all of them, in this order.
_SECTION_RANK = {
    Match.Section.WINNERS: 0,
    Match.Section.ROUND_ROBIN: 0,
    Match.Section.LOSERS: 1,
    Match.Section.CONSOLATION: 2,
    Match.Section.THIRD_PLACE: 3,
    Match.Section.FINAL: 4,
    Match.Section.RESET: 5,
}
_DECIDERS = (Match.Section.THIRD_PLACE, Match.Section.FINAL, Match.Section.RESET)


def play_order(section: str, round_: int) -> tuple[int, int, int]:
    """Sort key of a round in playing order: round 1 first, the (grand) final last.

    Generation stores a bracket from its final back, so the rows' own order is the
    reverse of play."""
    rank = _SECTION_RANK.get(Match.Section(section), 9)
    if section in _DECIDERS:
        return (1, rank, round_)
    return (0, round_, rank)


def round_title(section: str, round_: int, last_round: int, *, double: bool = False) -> str:
    """What people call a round: "Semifinals", "Losers' round 2", "Grand final" …"""
    from_end = last_round - round_
    if section == "winners":
        if double:
            if from_end == 0:
                return _("Winners' final")
            return _("Winners' round %(round)d") % {"round": round_}
        if from_end == 0:
            return _("Final")
        if from_end == 1:
            return _("Semifinals")
        if from_end == 2:
            return _("Quarterfinals")
        return _("Round %(round)d") % {"round": round_}
    if section == "losers":
        if from_end == 0:
            return _("Losers' final")
        return _("Losers' round %(round)d") % {"round": round_}
    if section == "consolation":
        if from_end == 0:
            return _("Consolation final")
        return _("Consolation round %(round)d") % {"round": round_}
    if section == "final":
        return _("Grand final")
    if section == "reset":
        return _("Grand final · reset")
    if section == "third_place":
        return _("Third-place match")
    return _("Round %(round)d") % {"round": round_}


def _stage_of(match: Match) -> Stage | None:
    return match.stage if match.stage_id is not None else None


def stage_name(match: Match) -> str:
    """The match's stage's name; "" in a tournament of one bracket."""
    stage = _stage_of(match)
    return stage.name if stage is not None else ""


def in_order(matches: Iterable[Match]) -> list[Match]:
    """Stage by stage, each stage's rounds in playing order, each round's matches by
    number (the stages of the matches are loaded)."""

    def key(match: Match) -> tuple[int, tuple[int, int, int], int, int]:
        stage = _stage_of(match)
        number = stage.number if stage is not None else 0
        return (number, play_order(match.section, match.round), match.position, match.pk)

    return sorted(matches, key=key)


class RoundNames:
    """The names of the given matches' rounds and of the matches, each within its own
    stage. Give it every match of each stage it is to name (a stage's last round makes
    its "Final"), with their stages loaded; ``double``: a tournament of one bracket in
    double elimination. No queries."""

    def __init__(self, matches: Iterable[Match], *, double: bool = False) -> None:
        self._last: dict[tuple[int | None, str], int] = {}
        self._count: Counter[tuple[int | None, str, int]] = Counter()
        self._double = double
        for match in matches:
            self.add(match.stage_id, match.section, match.round)

    def add(self, stage_id: int | None, section: str, round_: int) -> None:
        key = (stage_id, section)
        self._last[key] = max(self._last.get(key, 0), round_)
        self._count[(stage_id, section, round_)] += 1

    def _is_double(self, match: Match) -> bool:
        stage = _stage_of(match)
        if stage is None:
            return self._double
        return bool(stage.kind == Stage.Kind.DOUBLE_ELIMINATION)

    def round(self, match: Match) -> str:
        """The round within its stage: "Quarterfinals", "Round 2"."""
        last = self._last.get((match.stage_id, match.section), match.round)
        return round_title(match.section, match.round, last, double=self._is_double(match))

    def stage_round(self, match: Match) -> str:
        """The round with its stage first: "Knockout · Quarterfinals"."""
        return " · ".join(part for part in (stage_name(match), self.round(match)) if part)

    def number(self, match: Match) -> str:
        """ "Match 1"; "" for the one match of its round (a final)."""
        if self._count[(match.stage_id, match.section, match.round)] <= 1:
            return ""
        return _("Match %(number)d") % {"number": match.position}

    def match(self, match: Match) -> str:
        """The match within its stage: "Quarterfinals · Match 1", "Final"."""
        return " · ".join(part for part in (self.round(match), self.number(match)) if part)

    def parts(self, match: Match) -> list[str]:
        """Its stage, round and number: ["Knockout", "Quarterfinals", "Match 1"]."""
        found = (stage_name(match), self.round(match), self.number(match))
        return [part for part in found if part]

    def full(self, match: Match) -> str:
        """The match with its stage first: "Knockout · Quarterfinals · Match 1"."""
        return " · ".join(self.parts(match))

    def name_all(self, matches: Iterable[Match]) -> None:
        """Give each match its full name as its :attr:`~Match.label`."""
        for match in matches:
            match.named = self.full(match)


def names_for(tournament: Tournament, matches: Iterable[Match]) -> RoundNames:
    """The names of a tournament's matches (all of them, their stages loaded)."""
    return RoundNames(matches, double=tournament.bracket_kind == "double_elimination")


def parts_of(match: Match) -> list[str]:
    """One match's stage, round and number (one query: the rounds of its section in its
    stage)."""
    rounds = Match.objects.filter(
        tournament_id=match.tournament_id, stage_id=match.stage_id, section=match.section
    ).values_list("round", flat=True)
    names = RoundNames((), double=match.tournament.bracket_kind == "double_elimination")
    for round_ in rounds:
        names.add(match.stage_id, match.section, round_)
    return names.parts(match)


def name_of(match: Match) -> str:
    """One match's full name, "Knockout · Quarterfinals · Match 1" (one query)."""
    return " · ".join(parts_of(match))


DECIDED = ("played", "on time", "walkover", "withdrawal")


def decided(match: Match, withdrawals: set[int]) -> str:
    """How a finished match was decided: "played" (out, from its hands), "on time" (time
    called, or the director's ruling on a match level on time), "walkover" or "withdrawal"
    (a walkover because the loser withdrew); "" for a bye or a match not finished.
    ``withdrawals``: the ids of the matches given as walkovers for a withdrawal."""
    if match.status != Status.COMPLETE or match.is_bye or not match.winner_side:
        return ""
    if match.decided_on_time:
        return "on time"
    if match.forfeit:
        return "withdrawal" if match.pk in withdrawals else "walkover"
    return "played"


def decided_label(code: str) -> str:
    """:func:`decided`'s code in the reader's language."""
    return {
        "played": _("played"),
        "on time": _("on time"),
        "walkover": _("walkover"),
        "withdrawal": _("withdrawal"),
    }.get(code, "")


def withdrawals(tournament_id: int) -> set[int]:
    """The matches given as walkovers because their loser withdrew (one query)."""
    return set(
        Decision.objects.filter(
            tournament_id=tournament_id, kind=Decision.Kind.WALKOVER, entry__isnull=False
        ).values_list("match_id", flat=True)
    )
