"""The one error vocabulary: every refusal says what is wrong and what is allowed instead.

Engine rules, the game host and the store raise these; the Discord layer and the CLI turn them into
messages without knowing which layer raised them.
"""

from __future__ import annotations

from collections.abc import Iterable


class EngineError(Exception):
    """A refusal a player or admin can read.

    ``message`` says what is wrong; ``allowed`` lists what would have been accepted (legal notations,
    valid option ids, ...), possibly empty when nothing is allowed right now.
    """

    code = "error"

    def __init__(self, message: str, allowed: Iterable[str] = ()) -> None:
        self.message = message
        self.allowed: tuple[str, ...] = tuple(allowed)
        super().__init__(message)

    def __str__(self) -> str:
        return self.describe()

    def describe(self, max_allowed: int = 12) -> str:
        """The message, followed by up to ``max_allowed`` of the allowed alternatives."""
        if not self.allowed:
            return self.message
        shown = ", ".join(self.allowed[:max_allowed])
        more = len(self.allowed) - max_allowed
        suffix = f" (and {more} more)" if more > 0 else ""
        return f"{self.message}. Allowed: {shown}{suffix}"


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


class LobbyError(EngineError):
    """Join, leave or start refused (full, already seated, not the creator, ...)."""

    code = "lobby"


class CorruptRecord(EngineError):
    """A stored row that cannot be read back; nothing was changed."""

    code = "corrupt"
