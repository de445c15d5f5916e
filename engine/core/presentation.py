"""How a game reads in chat, apart from its rules: moves in words, menus grouped into levels, choices of
several items at once, runs of moves offered as one choice, seat colours, and what ``/rules`` teaches.

Like the rules it is pure (no I/O, no clock, no global random) and speaks without a language: the edges
translate its sentences. It only reads states; what a move does is the rules' business (``GameRules``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.model import Frozen
from engine.core.say import Level, Say

__all__ = ["GamePresentation", "Level", "MultiSelect", "PresentationDefaults", "Say", "Shortcut"]


class MultiSelect(Frozen):
    """A choice of several items at once, played as one action (a multi-select in chat menus).

    The action's notation is ``template`` with ``{}`` replaced by the chosen items joined by commas,
    in the order of ``items``; ``items`` may repeat (two cards of the same kind).
    """

    label: str
    template: str
    items: tuple[str, ...]
    min_items: int = 1
    max_items: int
    # What a person reads: the question, and one label per item (same order as ``items``).
    title: Say | None = None
    item_labels: tuple[Say, ...] = ()

    def notation(self, chosen: Sequence[int]) -> str:
        """The notation for the items at the ``chosen`` positions; raises ``ValueError`` if out of range."""
        picked = sorted(set(chosen))
        if not self.min_items <= len(picked) <= self.max_items or any(
            not 0 <= i < len(self.items) for i in picked
        ):
            raise ValueError(f"choose {self.min_items} to {self.max_items} of the {len(self.items)} items")
        return self.template.replace("{}", ",".join(self.items[i] for i in picked))


class Shortcut(Frozen):
    """A menu entry that stands for a short run of moves of one turn, played one after another.

    ``moves`` are notations in the order the host plays them; each is checked and logged as a move of
    its own, so a shortcut changes nothing a replay sees. Only the moves the seat makes are listed: a
    move the rules make on their own between them (``GameRules.automatic``) is left out. ``path`` groups
    the entry in chat menus like ``GamePresentation.menu_path``.
    """

    moves: tuple[str, ...]
    label: Say
    path: tuple[Level, ...] = ()


S = TypeVar("S", bound=BaseModel, contravariant=True)
A = TypeVar("A", bound=BaseModel, contravariant=True)


class GamePresentation(Protocol[S, A]):
    """How one game's moves, menus and seats read in chat, and what ``/rules`` teaches of it."""

    # For /rules, in the reader's language: how to play, what the board and menus show, each option.
    how_to: ClassVar[Sequence[Say]]
    glossary: ClassVar[Sequence[Say]]
    option_says: ClassVar[Mapping[str, Say]]

    def describe(self, state: S, seat: int, action: A) -> Say:
        """``action`` as the acting ``seat`` reads it in a menu, e.g. "Buy Park Ave / 42nd St from Bob for
        $1, paying Joker + 42nd St". Two legal actions of one decision never read the same, and a label
        fits a select option (100 characters) in every language."""
        ...

    def menu_path(self, state: S, seat: int, action: A) -> Sequence[Level]:
        """The menu levels leading to ``action`` in chat menus, coarsest first, above the action itself:
        each level's key names it on its own (e.g. ``"build GO5"``, ``"build GO5 on lot B07"``) and its
        label is what the reader sees ("Build the GO5 tile", "on lot B07"). Empty: no grouping."""
        ...

    def multi_selects(self, state: S, seat: int) -> Sequence[MultiSelect]:
        """Choices of several items that ``GameRules.legal_actions`` does not spell out one subset at a
        time; each choice makes an action the rules accept."""
        ...

    def shortcuts(self, state: S, seat: int) -> Sequence[Shortcut]:
        """Runs of moves the menu offers as one choice (e.g. "stop building, buy a floor and end your
        turn"); each run starts with a legal action of ``seat`` and keeps ``seat`` to act until its last
        move. Empty: every choice is one move."""
        ...

    def seat_colour(self, state: S, seat: int) -> str | None:
        """The colour that marks ``seat`` on the board ("red", "blue", ... in English), if any yet."""
        ...

    def places_of(self, state: S, seat: int, action: A) -> tuple[str, ...]:
        """The places of the board that ``action`` touches (the lot it claims, the site it builds on,
        the lots under a tile), by the keys the board's renderer gives them; empty for a move that
        points at nothing on the board (passing, ending a turn, choosing cards)."""
        ...

    def place_name(self, state: S, place: str) -> Say:
        """A place of the board (a key ``places_of`` gives) as players read it: "green lot 7"."""
        ...


class PresentationDefaults:
    """What most games' presentations share; a game's presentation class inherits it and overrides what
    differs (``describe`` it always gives)."""

    how_to: ClassVar[Sequence[Say]] = ()
    glossary: ClassVar[Sequence[Say]] = ()
    option_says: ClassVar[Mapping[str, Say]] = {}

    def menu_path(self, state: Any, seat: int, action: Any) -> Sequence[Level]:
        """No grouping: the menu lists the actions and pages them."""
        return ()

    def multi_selects(self, state: Any, seat: int) -> Sequence[MultiSelect]:
        """None: every decision is a single action from ``legal_actions``."""
        return ()

    def shortcuts(self, state: Any, seat: int) -> Sequence[Shortcut]:
        """No shortcuts: each choice of the menu is one move."""
        return ()

    def seat_colour(self, state: Any, seat: int) -> str | None:
        """The game has no seat colours."""
        return None

    def places_of(self, state: Any, seat: int, action: Any) -> tuple[str, ...]:
        """No move points at a place: the board is a picture only."""
        return ()

    def place_name(self, state: Any, place: str) -> Say:
        """None to name: a game whose moves point at no place has none. Raises ``KeyError``."""
        raise KeyError(place)
