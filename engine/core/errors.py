"""The one error vocabulary: every refusal says what is wrong and what is allowed instead.

Engine rules, the game host and the store raise these; the Discord layer and the CLI turn them into
messages without knowing which layer raised them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.say import Say

# The longest refusal text; Discord's message limit is 2,000 characters, and the responder adds a little.
DESCRIBE_BUDGET = 1_800


class EngineError(Exception):
    """A refusal a player or admin can read.

    ``message`` says what is wrong (in English; ``say`` is the same as a sentence the edge translates);
    ``allowed`` lists what would have been accepted (legal notations, valid option ids, ...), possibly
    empty when nothing is allowed right now, for programs and logs; ``hint`` says to a person, in
    words, what they can do instead (people never read ``allowed``, which may be notation).
    """

    code = "error"

    def __init__(
        self,
        message: str | Say,
        allowed: Iterable[str] = (),
        say: Say | None = None,
        hint: Say | None = None,
    ) -> None:
        if isinstance(message, Say):
            say, message = message, message.plain()
        self.message = message
        self.allowed: tuple[str, ...] = tuple(allowed)
        self.say = say  # ``message`` as a sentence to translate at the edge, when the raiser gives one
        self.hint = hint
        super().__init__(message)

    def __str__(self) -> str:
        return self.describe()

    def describe(
        self,
        max_allowed: int = 12,
        budget: int = DESCRIBE_BUDGET,
        message: str | None = None,
        allowed_word: str = "Allowed",
        more: str = "(and {count} more)",
    ) -> str:
        """The message (or ``message``, the same in another language), followed by up to ``max_allowed``
        of the allowed alternatives, all within ``budget`` characters (a chat message holds 2,000):
        alternatives that do not fit are counted."""
        message = self.message if message is None else message
        message = message if len(message) <= budget // 2 else message[: budget // 2] + "…"
        if not self.allowed:
            return message
        head = f"{message.rstrip('.')}. {allowed_word}: "
        shown: list[str] = []
        used = len(head)
        for option in self.allowed[:max_allowed]:
            # Room for this option, its separator and the longest "(and N more)" that could follow.
            if used + len(option) + 2 + 20 > budget:
                break
            shown.append(option)
            used += len(option) + 2
        left = len(self.allowed) - len(shown)
        suffix = " " + more.format(count=left) if left > 0 else ""
        return f"{head}{', '.join(shown)}{suffix}"


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this position."""

    code = "illegal"


class NotationError(EngineError):
    """Text that is not a valid action notation for this game."""

    code = "notation"


class NotYourTurn(EngineError):
    """A seat tried to act while others must decide."""

    code = "not_your_turn"


class SetupError(EngineError):
    """Unknown game, wrong seat count, or an unknown or incompatible option."""

    code = "setup"


class MatchNotFound(EngineError):
    code = "not_found"


class NotSeated(EngineError):
    code = "not_seated"


class MatchClosed(EngineError):
    """The match is finished, abandoned, or not started yet."""

    code = "closed"


class StaleVersion(EngineError):
    """The board moved on since the button or command was made."""

    code = "stale"


class AbsencesChanged(StaleVersion):
    """A person whose turn a commit begins went away (or came back) while its clocks were worked out:
    nothing was stored, and the clocks are worked out again."""


class AlreadyPlayed(StaleVersion):
    """A second press of the very move its player just made: the first was played, this one is not, and
    there is nothing to tell them."""


class CannotUndo(EngineError):
    """A move that may not be taken back: someone else acted since, or it revealed something."""

    code = "cannot_undo"


class LobbyError(EngineError):
    """Join, leave or start refused (full, already seated, not the creator, ...)."""

    code = "lobby"


class CorruptRecord(EngineError):
    """A stored row that cannot be read back; nothing was changed."""

    code = "corrupt"
