"""The contract every game implements, in the spirit of boardgame.io: setup, moves, turn order,
per-player views and an end condition. Transport and storage know nothing of the rules, and the rules
know nothing of chat: how a game reads in menus is its presentation (``engine.core.presentation``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.model import Frozen
from engine.core.options import check_setup
from engine.core.rng import Rng
from engine.core.say import Say

__all__ = ["Frozen", "Say"]

# What a move revealed, which makes it final (it cannot be taken back): a card or a tile came off a
# face-down pile, a random outcome was drawn, or someone was shown something hidden in secret (or, at
# the end of a match, everyone was shown everything).
Reveal = Literal["card", "tile", "chance", "secret"]


class Event(Frozen):
    """One line of the match log and who may read it.

    ``audience`` is ``None`` for everyone, otherwise the seats that may see the line. Secrets reach a
    player only through events addressed to their seat and through ``view(state, seat)``.
    """

    text: str  # the storage form, in notation: what the engine's own tests and logs read
    audience: frozenset[int] | None = None
    say: Say | None = None  # what a person reads, translated at the edge

    @property
    def is_public(self) -> bool:
        return self.audience is None


def public(text: str, say: Say | None = None) -> Event:
    return Event(text=text, say=say)


def private(text: str, *seats: int, say: Say | None = None) -> Event:
    return Event(text=text, audience=frozenset(seats), say=say)


@dataclass(frozen=True, slots=True)
class HiddenPile:
    """A face-down pile of the state: its top end, and what it holds (how a draw from it is told)."""

    top: Literal["first", "last"] = "first"
    holds: Literal["card", "tile"] = "card"

    def drawn(self, before: Sequence[Any], after: Sequence[Any]) -> bool:
        """Whether something left the pile's top or the pile was reordered between ``before`` and
        ``after``; adding at the bottom reveals nothing (a card put back under the deck)."""
        if len(after) < len(before):
            return True
        if self.top == "first":
            return tuple(after[: len(before)]) != tuple(before)
        return tuple(after[len(after) - len(before) :]) != tuple(before)


class Outcome(Frozen):
    """The result of a finished match, indexed by seat."""

    scores: tuple[int, ...]
    places: tuple[int, ...]  # 1 = first; tied seats share a place
    reason: str
    details: tuple[str, ...] = ()  # score breakdown lines in notation (logs, the CLI)
    # What a person reads: why the match ended, and the breakdown, one sentence per line.
    reason_say: Say | None = None
    breakdown: tuple[Say, ...] = ()
    # What a score counts, as the game calls it: Skyline's are prestige points.
    unit: Literal["points", "prestige"] = "points"
    # Seats that play as one side (Piatnik's team game): they read as a team, with its combined score.
    teams: tuple[tuple[int, ...], ...] = ()


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """What ``apply`` returns: the new state and the events it produced, in order."""

    state: S
    events: tuple[Event, ...] = ()


class GameRules(Protocol[S, A]):
    """Pure rules of one game. No I/O, no clock, no global random: randomness comes from the
    generator stored in the state, so ``replay(seed, options, log)`` reproduces a match exactly.
    How the game reads in chat menus is its ``GamePresentation``.
    """

    name: ClassVar[str]  # slug, e.g. "ny_piatnik"
    title: ClassVar[str]  # shown to players
    summary: ClassVar[str]  # a few sentences for /rules
    seat_counts: ClassVar[range]
    options: ClassVar[Mapping[str, str]]  # option id -> one-line description
    state_model: ClassVar[type[BaseModel]]

    def validate_setup(self, seats: int, options: frozenset[str]) -> None:
        """Raises ``SetupError`` naming the valid choices when the seat count or options do not fit."""
        ...

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> S:
        """The opening state. Raises ``SetupError`` on a bad seat count or option combination."""
        ...

    def setup_events(self, seats: int, seed: int, options: frozenset[str]) -> Sequence[Event]:
        """The log of setting up (public deals, the first player, ...): the same arguments give the same
        events as ``setup`` made."""
        ...

    def to_act(self, state: S) -> frozenset[int]:
        """Seats that must decide now; several when simultaneous, empty when the match is over."""
        ...

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every legal action of ``seat`` in a stable order (empty when the seat need not act)."""
        ...

    def apply(self, state: S, seat: int, action: A) -> Step[S]:
        """The state after ``seat`` plays ``action``, with the events it caused.

        Raises ``NotYourTurn`` or ``IllegalAction`` (saying what is allowed) and changes nothing.
        """
        ...

    def automatic(self, state: S, seat: int) -> A | None:
        """A move the host makes for ``seat`` without asking: the rules allow it because it is the
        seat's only choice (e.g. ending a phase with nothing else to do). ``None``: the seat decides."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Scores and places once the match is over, else ``None``."""
        ...

    def view(self, state: S, seat: int | None) -> BaseModel:
        """What ``seat`` may know (``None``: the public); other seats' secrets are stripped."""
        ...

    def notation(self, action: A) -> str:
        """Canonical text of an action; ``parse(notation(a)) == a``."""
        ...

    def parse(self, text: str) -> A:
        """The action written as ``text``; raises ``NotationError`` explaining the expected form."""
        ...

    def is_public_action(self, state: S, seat: int, action: A) -> bool:
        """Whether everyone may read ``action``'s notation, played by ``seat`` from ``state``: false
        when it names something hidden (cards passed face down, hidden investments)."""
        ...

    def observers(self, state: S, seat: int) -> frozenset[int]:
        """Seats allowed to see ``seat``'s secrets (the seat itself, and e.g. a team partner)."""
        ...

    def resample_secrets(self, state: S, seat: int, rng: Rng) -> S:
        """A state that everyone outside ``observers(state, seat)`` cannot tell apart from ``state``,
        with ``seat``'s secrets redrawn. Used by tests to prove views leak nothing.
        """
        ...

    def scored(self, before: S, after: S) -> bool:
        """Whether the move from ``before`` to ``after`` was a scoring (a scoring round, a district
        scored): a moment a replay lets people jump to. The final scoring is known from ``outcome``."""
        ...

    def revealed(self, before: S, seat: int, action: A, after: S, events: Sequence[Event]) -> Reveal | None:
        """What ``seat`` playing ``action`` from ``before`` (giving ``after`` and ``events``) revealed
        that nobody at the table could take back: a card drawn, a random outcome, something hidden
        shown to someone. ``None``: nothing, so the move may be undone while nobody else has acted
        (Board Game Arena's policy). Pure, like ``apply``.
        """
        ...


class Policy(Protocol[S, A]):
    """A computer player: picks one of the legal actions. Pure; randomness from the given ``rng``."""

    name: str

    def choose(self, rules: GameRules[S, A], state: S, seat: int, legal: Sequence[A], rng: Rng) -> A: ...


class RulesDefaults:
    """What most games share; a game's rules class inherits it and overrides what differs.

    Subclasses set ``name``, ``seat_counts`` and ``options`` (and ``seats_for_option`` to limit options
    to some seat counts).
    """

    name: ClassVar[str]
    seat_counts: ClassVar[range]
    options: ClassVar[Mapping[str, str]]
    seats_for_option: ClassVar[Mapping[str, Iterable[int]] | None] = None

    def validate_setup(self, seats: int, options: frozenset[str]) -> None:
        """Raises ``SetupError`` naming the valid seat counts or options."""
        check_setup(self.name, self.seat_counts, self.options, seats, options, self.seats_for_option)

    def setup_events(self, seats: int, seed: int, options: frozenset[str]) -> Sequence[Event]:
        """Nothing is logged at setup unless the game says otherwise."""
        return ()

    def automatic(self, state: Any, seat: int) -> Any:
        """The seat makes every decision itself, even a forced one (offered as a single button)."""
        return None

    def observers(self, state: Any, seat: int) -> frozenset[int]:
        """Only the seat itself sees its secrets."""
        return frozenset((seat,))

    def is_public_action(self, state: Any, seat: int, action: Any) -> bool:
        """Every move is played in the open unless the game says otherwise."""
        return True

    def scored(self, before: Any, after: Any) -> bool:
        """No scorings during the match, only the final one."""
        return False

    # The state's face-down piles, by field name (a field may hold one pile or a tuple of piles). None:
    # the game has not said where its hidden things are, so every private event counts as a reveal.
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = None
    # Whether an event shown only to some seats reveals something. A game sets it False when its private
    # events only tell a seat what it may know anyway (its own money, say) and every draw it makes comes
    # off one of ``hidden_piles``.
    private_events_reveal: ClassVar[bool] = True

    def revealed(
        self, before: Any, seat: int, action: Any, after: Any, events: Sequence[Event]
    ) -> Reveal | None:
        """Conservative by default: the seeded generator moved (a shuffle, a die); something left one
        of ``hidden_piles``; an event was shown in secret to a seat that does not share ``seat``'s
        secrets (to any seat, when the game names no hidden piles); or the match ended, which shows
        everything."""
        if getattr(before, "rng", None) != getattr(after, "rng", None):
            return "chance"
        for field, pile in (self.hidden_piles or {}).items():
            old, new = getattr(before, field), getattr(after, field)
            several = _is_piles(old) and len(old) == len(new)
            pairs = zip(old, new, strict=True) if several else [(old, new)]
            if any(pile.drawn(a, b) for a, b in pairs):
                return pile.holds
        if self.private_events_reveal:
            sharing = self.observers(before, seat) if self.hidden_piles is not None else frozenset()
            if any(e.audience is not None and not e.audience <= sharing for e in events):
                return "secret"
        if self.outcome(after) is not None:  # type: ignore[attr-defined]
            return "secret"
        return None


def _is_piles(value: Sequence[Any]) -> bool:
    """Whether a field holds several piles (a tuple of tuples) rather than one."""
    return bool(value) and isinstance(value[0], tuple)


def dump_state(state: BaseModel) -> str:
    return state.model_dump_json()


def load_state(rules: GameRules[Any, Any], data: str | bytes) -> BaseModel:
    """Parse a stored state; raises pydantic's ``ValidationError`` on a corrupt row."""
    return rules.state_model.model_validate_json(data)
