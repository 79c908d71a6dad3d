"""The one error a user can cause: a hand or a rule the engine refuses.

Messages are English templates marked with ``_`` so ``makemessages`` extracts them; the
engine never translates (it imports no Django). The web layer renders them with its own
``gettext`` through :meth:`ScoringError.render`; the command line uses ``str()``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


def _(message: str) -> str:
    """Mark a message for translation without translating it here."""
    return message


HAND_PREFIX = _("hand %(number)d: %(problem)s")
DEAL_PREFIX = _("deal %(deal)d: %(problem)s")
BOARD_PREFIX = _("deal %(deal)d, board %(board)d: %(problem)s")


class ScoringError(ValueError):
    """Bad input: a rule value or a hand that the rules do not allow.

    ``template`` is the untranslated message with ``%(name)s`` placeholders filled from
    ``params``; ``hand`` is the 1-based hand number at fault (if any) and ``field`` the
    input field to show the message next to. In a partnership match ``deal`` (and, when one
    board is at fault, ``board``) name the place instead, both 1-based.
    """

    def __init__(
        self,
        template: str,
        params: Mapping[str, object] | None = None,
        *,
        hand: int | None = None,
        field: str | None = None,
        deal: int | None = None,
        board: int | None = None,
    ) -> None:
        self.template = template
        self.params = dict(params or {})
        self.hand = hand
        self.field = field
        self.deal = deal
        self.board = board
        super().__init__(self.render())

    def at_hand(self, number: int) -> ScoringError:
        """The same problem, attributed to hand ``number``."""
        return ScoringError(self.template, self.params, hand=number, field=self.field)

    def at_deal(self, deal: int, board: int | None = None) -> ScoringError:
        """The same problem, attributed to ``deal`` (and one of its boards)."""
        return ScoringError(self.template, self.params, field=self.field, deal=deal, board=board)

    def problem(self, translate: Callable[[str], str] = str) -> str:
        """The message without the hand number."""
        return translate(self.template) % self.params

    def render(self, translate: Callable[[str], str] = str) -> str:
        """The whole one-line message, translated with ``translate``."""
        problem = self.problem(translate)
        if self.deal is not None:
            if self.board is None:
                return translate(DEAL_PREFIX) % {"deal": self.deal, "problem": problem}
            where = {"deal": self.deal, "board": self.board}
            return translate(BOARD_PREFIX) % {**where, "problem": problem}
        if self.hand is None:
            return problem
        return translate(HAND_PREFIX) % {"number": self.hand, "problem": problem}
