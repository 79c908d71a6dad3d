"""Models of the tournaments app, split by concept and re-exported here."""

from .audit import AuditEntry
from .decisions import Decision
from .matches import Match, is_token, new_token
from .players import Player
from .stages import Stage
from .teams import TeamMember
from .tournaments import Entry, Tournament, default_rules, unique_slug
from .versions import PublicVersion

__all__ = [
    "AuditEntry",
    "Decision",
    "Entry",
    "Match",
    "Player",
    "PublicVersion",
    "Stage",
    "TeamMember",
    "Tournament",
    "default_rules",
    "is_token",
    "new_token",
    "unique_slug",
]
