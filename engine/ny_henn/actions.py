"""Actions of Dirk Henn's New York and their notation (spec §8): one frozen model, canonical text, parser."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from engine.core.contract import Frozen
from engine.core.errors import NotationError
from engine.core.notation import guarded_parse
from engine.ny_henn.cards import ALL_TILES, BANKS, CARD_RANK, sort_hand, sort_payment

ActionKind = Literal["take", "buy", "add", "remove", "swap", "place", "pass"]
Target = Literal["city", "reserve", "dirk"]


class Action(Frozen):
    """One action; ``kind`` says which fields matter.

    ``take``: ``cards``; ``buy``: ``slot`` + ``cards`` (the payment);
    ``add``/``swap``: ``tile`` + ``x``/``y``;
    ``remove``: ``x``/``y``; ``place``: ``tile`` + ``to`` (and ``x``/``y`` when ``to == "city"``); ``pass``.
    """

    kind: ActionKind
    cards: tuple[str, ...] = ()
    slot: str | None = None
    tile: str | None = None
    x: int | None = None
    y: int | None = None
    to: Target | None = None

    @property
    def cell(self) -> tuple[int, int]:
        """The city cell the action names (``x``, ``y``), for the actions that name one."""
        assert self.x is not None and self.y is not None
        return self.x, self.y


def take(cards: tuple[str, ...] | list[str]) -> Action:
    """``take`` in canonical card order."""
    return Action(kind="take", cards=sort_hand(list(cards)))


def buy(slot: str, cards: tuple[str, ...] | list[str]) -> Action:
    """``buy slot=X pay=…`` in canonical payment order."""
    return Action(kind="buy", slot=slot, cards=sort_payment(list(cards)))


def place(tile: str, to: Target, at: tuple[int, int] | None = None) -> Action:
    """``place tile=T at=x,y`` / ``reserve`` / ``dirk``."""
    if to == "city":
        assert at is not None
        return Action(kind="place", tile=tile, to="city", x=at[0], y=at[1])
    return Action(kind="place", tile=tile, to=to)


def redesign(kind: Literal["add", "remove", "swap"], at: tuple[int, int], tile: str | None = None) -> Action:
    """``redesign add|remove|swap``."""
    return Action(kind=kind, tile=tile, x=at[0], y=at[1])


PASS = Action(kind="pass")


@lru_cache(maxsize=1 << 16)
def notation(action: Action) -> str:
    """The canonical text of ``action`` (§8)."""
    kind = action.kind
    at = f"at={action.x},{action.y}"
    if kind == "take":
        return "take " + ",".join(action.cards)
    if kind == "buy":
        return f"buy slot={action.slot} pay={','.join(action.cards)}"
    if kind == "add" or kind == "swap":
        return f"redesign {kind} tile={action.tile} {at}"
    if kind == "remove":
        return f"redesign remove {at}"
    if kind == "place":
        where = at if action.to == "city" else str(action.to)
        return f"place tile={action.tile} {where}"
    return "pass"


SYNTAX = (
    "take B2,G3",
    "buy slot=Y pay=Y5,Y4",
    "redesign add tile=T12 at=-1,0",
    "redesign remove at=1,0",
    "redesign swap tile=T14 at=1,0",
    "place tile=T22 at=0,1",
    "place tile=T09 reserve",
    "place tile=T47 dirk",
    "pass",
)


def _syntax(word: str) -> list[str]:
    return [s for s in SYNTAX if s.split()[0] == word] or list(SYNTAX)


def _cards(text: str, word: str) -> tuple[str, ...]:
    out: list[str] = []
    for raw in text.split(","):
        code = raw.strip().upper()
        if not code:
            continue
        if code not in CARD_RANK:
            raise NotationError(f"unknown money card: {raw} (write bank and value, e.g. Y7)", _syntax(word))
        out.append(code)
    if not out:
        raise NotationError(f"{word} needs at least one card", _syntax(word))
    return tuple(out)


def _tile(text: str, word: str) -> str:
    code = text.upper()
    if code not in ALL_TILES:
        raise NotationError(f"unknown tile: {text} (tiles are T01-T54)", _syntax(word))
    return code


def _cell(text: str, word: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        x, y = (int(p) for p in parts)
    except ValueError:
        message = f"a cell is written at=x,y (e.g. at=-1,0), not at={text}"
        raise NotationError(message, _syntax(word)) from None
    return x, y


def _named(tokens: list[str], word: str, keys: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    named: dict[str, str] = {}
    flags: list[str] = []
    for token in tokens:
        if "=" in token:
            key, _, value = token.partition("=")
            key = key.lower()
            if key not in keys or not value:
                raise NotationError(f"unexpected {token} in {word}", _syntax(word))
            if key in named:
                raise NotationError(f"{key}= given twice", _syntax(word))
            named[key] = value
        else:
            flags.append(token.lower())
    return named, flags


@lru_cache(maxsize=1 << 16)
@guarded_parse
def parse(text: str) -> Action:
    """The action written as ``text`` (case-insensitive); raises ``NotationError`` with the expected form."""
    tokens = text.split()
    if not tokens:
        raise NotationError("empty action", list(SYNTAX))
    word = tokens[0].lower()
    rest = tokens[1:]
    if word == "pass":
        if rest:
            raise NotationError(f"unexpected {rest[0]} after pass", ["pass"])
        return PASS
    if word == "take":
        if len(rest) != 1:
            raise NotationError("take lists the cards without spaces, e.g. take B2,G3", _syntax("take"))
        return take(_cards(rest[0], "take"))
    if word == "buy":
        named, flags = _named(rest, "buy", ("slot", "pay"))
        if flags or "slot" not in named or "pay" not in named:
            raise NotationError("buy needs slot= and pay=", _syntax("buy"))
        slot = named["slot"].upper()
        if slot not in BANKS:
            raise NotationError(f"unknown slot: {named['slot']} (slots are B, G, Y, R)", _syntax("buy"))
        return buy(slot, _cards(named["pay"], "buy"))
    if word == "redesign":
        if not rest or rest[0].lower() not in ("add", "remove", "swap"):
            raise NotationError("redesign needs add, remove or swap", _syntax("redesign"))
        sub = rest[0].lower()
        named, flags = _named(rest[1:], "redesign", ("tile", "at"))
        if flags or "at" not in named:
            raise NotationError(f"redesign {sub} needs at=x,y", _syntax("redesign"))
        at = _cell(named["at"], "redesign")
        if sub == "remove":
            if "tile" in named:
                raise NotationError("redesign remove takes only at=x,y", _syntax("redesign"))
            return redesign("remove", at)
        if "tile" not in named:
            raise NotationError(f"redesign {sub} needs tile=", _syntax("redesign"))
        return redesign("add" if sub == "add" else "swap", at, _tile(named["tile"], "redesign"))
    if word == "place":
        named, flags = _named(rest, "place", ("tile", "at"))
        if "tile" not in named:
            raise NotationError("place needs tile=", _syntax("place"))
        tile = _tile(named["tile"], "place")
        if "at" in named and not flags:
            return place(tile, "city", _cell(named["at"], "place"))
        if "at" not in named and len(flags) == 1 and flags[0] in ("reserve", "dirk"):
            return place(tile, "reserve" if flags[0] == "reserve" else "dirk")
        raise NotationError("place needs exactly one of at=x,y, reserve or dirk", _syntax("place"))
    raise NotationError(f"unknown action: {tokens[0]}", list(SYNTAX))
