"""What one person may see and do in a match now: the one answer a front end asks the host for before it
draws a menu, a hand or a reply, so that no front end works out a turn of its own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.presentation import MultiSelect
from engine.core.say import Say, items, who
from engine.host.menus import MenuEntry
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.text import HOST
from lang.says import Namer

# Refusals of a control that no longer fits the board; the text names what to press instead.
MOVED_ON = HOST.say("this board has moved on; use the buttons of the latest post in the thread")
OUT_OF_DATE = HOST.say("this control is out of date; use the latest post")
STALE_CHOICE = HOST.say(
    "that choice is no longer on offer; press Play under the latest post for the current menu"
)
CHOICE_CLOSED = HOST.say("that choice is no longer open; press Play again")
NOT_YOUR_TURN = HOST.say(
    "it is not your turn; you will be told when it is, the way you chose with /settings notify"
)


def no_hand(match_id: int) -> Say:
    """The refusal of a private view to someone who does not play in match ``match_id``."""
    return HOST.say("you are not playing in match #{number}, so you have no hand there", number=match_id)


@dataclass(frozen=True, slots=True)
class Table:
    """``match`` as one person finds it: their seat (None when they do not play there), the seats that
    must act now (none unless the match is under way), whether they may take back their latest move (when
    asked for), and, when asked for on their turn, the menu of their moves in their language and the
    choices of several items at once. ``name`` names the seats the way every text of the match does."""

    match: MatchRecord
    seat: int | None
    to_act: tuple[int, ...]
    may_undo: bool
    name: Namer
    menu: tuple[MenuEntry, ...] = ()
    choices: tuple[MultiSelect, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    @property
    def waiting(self) -> Say:
        """Who must act next, or that the match is over (or not begun), as one sentence."""
        if self.match.status is MatchStatus.LOBBY:
            return HOST.say("Match #{number} has not started yet.", number=self.match.id)
        if not self.to_act:
            return HOST.say("Match #{number} is over.", number=self.match.id)
        return HOST.say("Waiting for {players}.", players=items(who(seat) for seat in self.to_act))

    @property
    def board_caption(self) -> Say:
        """The line under a board shown on request: the match and who must act, or that it is over."""
        if not self.to_act:
            return self.waiting
        return HOST.say(
            "Match #{number}: waiting for {players}.",
            number=self.match.id,
            players=items(who(seat) for seat in self.to_act),
        )

    @property
    def refusal(self) -> Say | None:
        """Why the person cannot move now (None: they can)."""
        if self.my_turn:
            return None
        if not self.to_act:
            return self.waiting
        if self.seat is None:
            return HOST.say("you are not playing in match #{number}", number=self.match.id)
        return HOST.say(
            "Not your turn: waiting for {players}", players=items(who(seat) for seat in self.to_act)
        )
