"""Actions of Piatnik's New York and their notation (spec §8): one frozen model, canonical text, parser."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from engine.core.contract import Frozen
from engine.core.errors import NotationError
from engine.core.notation import guarded_parse
from engine.ny_piatnik.cards import (
    ALL_CARDS,
    AVENUES,
    BUILDING_INDEX,
    COLOURS,
    LINE_CELLS,
    SINGLE_EVENTS,
    STAT_B,
    STAT_R,
    STOP,
    STREETS,
    sort_hand,
)
from engine.ny_piatnik.cards import RED_BACK as _RED_BACK

ActionKind = Literal["colour", "place", "play", "event", "reset", "give", "fill", "exchange", "return"]


class Action(Frozen):
    """One action. Unused fields stay ``None`` / empty; ``kind`` says which fields matter (§8).

    ``colour`` is the chosen colour for ``colour`` actions and the placing house (V3) otherwise;
    ``cards`` lists the cards of an exchange or return, in canonical order.
    """

    kind: ActionKind
    red: str | None = None
    blue: str | None = None
    card: str | None = None
    at: str | None = None
    line: str | None = None
    victim: str | None = None
    colour: str | None = None
    target: str | None = None
    pay: int | None = None
    cards: tuple[str, ...] = ()


@lru_cache(maxsize=1 << 16)
def act(
    kind: ActionKind,
    red: str | None = None,
    blue: str | None = None,
    card: str | None = None,
    at: str | None = None,
    line: str | None = None,
    victim: str | None = None,
    colour: str | None = None,
    target: str | None = None,
    pay: int | None = None,
    cards: tuple[str, ...] = (),
) -> Action:
    """A (shared, immutable) action; cached because legal-action lists rebuild the same ones constantly."""
    return Action(
        kind=kind,
        red=red,
        blue=blue,
        card=card,
        at=at,
        line=line,
        victim=victim,
        colour=colour,
        target=target,
        pay=pay,
        cards=cards,
    )


@lru_cache(maxsize=1 << 16)
def notation(action: Action) -> str:
    """The canonical text of ``action`` (§8)."""
    kind = action.kind
    if kind == "colour":
        return f"colour {action.colour}"
    if kind == "reset":
        return "reset"
    if kind in ("exchange", "return"):
        return f"{kind} give={','.join(action.cards)}"
    parts: list[str] = [kind]
    if kind == "play":
        parts += [f"red={action.red}", f"blue={action.blue}"]
    elif kind == "event":
        parts.append(str(action.card))
    for key in ("at", "line", "victim", "target", "colour"):
        value = getattr(action, key)
        if value is not None:
            parts.append(f"{key}={value}")
    if action.pay is not None:
        parts.append(f"pay={action.pay}")
    return " ".join(parts)


SYNTAX = (
    "colour COL",
    "place at=BLD",
    "play red=RC blue=BC [at=BLD] [line=LINE] [victim=COL] [colour=COL] [pay=N]",
    "event SE [target=COL] [colour=COL]",
    "reset",
    "give at=BLD",
    "fill at=BLD [colour=COL]",
    "exchange give=C1,C2,…",
    "return give=C1,…",
)
_KEYS = {
    "colour": (),
    "place": ("at",),
    "play": ("red", "blue", "at", "line", "victim", "colour", "pay"),
    "event": ("card", "target", "colour"),
    "reset": (),
    "give": ("at",),
    "fill": ("at", "colour"),
    "exchange": ("give",),
    "return": ("give",),
}
_KEY_ALIASES = {"color": "colour", "col": "colour", "cards": "give", "building": "at"}
_KIND_ALIASES = {"color": "colour"}


def _syntax(kind: str) -> list[str]:
    return [s for s in SYNTAX if s.split()[0] == kind] or list(SYNTAX)


def _card(text: str, kind: str) -> str:
    code = text.upper()
    if code == STOP or code not in ALL_CARDS:
        raise NotationError(f"unknown card: {text}", _syntax(kind))
    return code


def _building(text: str, kind: str) -> str:
    code = text.upper()
    if code not in BUILDING_INDEX:
        raise NotationError(f"unknown building: {text} (write AVENUE-STREET, e.g. PARK-49)", _syntax(kind))
    return code


def _colour(text: str, kind: str) -> str:
    colour = text.lower()
    if colour not in COLOURS:
        raise NotationError(f"unknown colour: {text}", list(COLOURS))
    return colour


def _line(text: str, kind: str) -> str:
    code = text.upper()
    if code not in LINE_CELLS:
        raise NotationError(f"unknown line: {text}", [*AVENUES, *STREETS])
    return code


def _cards(values: list[str], kind: str) -> tuple[str, ...]:
    out = [_card(v, kind) for chunk in values for v in chunk.split(",") if v]
    if not out:
        raise NotationError(f"{kind} needs at least one card", _syntax(kind))
    return sort_hand(out)


@lru_cache(maxsize=1 << 16)
@guarded_parse
def parse(text: str) -> Action:
    """The action written as ``text`` (case-insensitive); raises ``NotationError`` with the expected form.

    Accepts the canonical form plus common human variants: positional values (``play PARK 49``,
    ``place PARK-49``), ``color=``, and a redundant ``at=``/``line=`` that matches the cards.
    """
    body = text.split("#", 1)[0].strip()
    tokens = body.split()
    if not tokens:
        raise NotationError("empty action", list(SYNTAX))
    kind = tokens[0].lower()
    kind = _KIND_ALIASES.get(kind, kind)
    if kind not in _KEYS:
        raise NotationError(f"unknown action: {tokens[0]}", list(SYNTAX))
    named: dict[str, str] = {}
    positional: list[str] = []
    for token in tokens[1:]:
        if "=" in token:
            key, _, value = token.partition("=")
            key = _KEY_ALIASES.get(key.lower(), key.lower())
            if key not in _KEYS[kind] or not value:
                raise NotationError(f"unexpected {token} in {kind}", _syntax(kind))
            if key in named:
                raise NotationError(f"{key}= given twice", _syntax(kind))
            named[key] = value
        else:
            positional.append(token)
    builder = _BUILDERS[kind]
    return builder(named, positional)


def _no_positional(kind: str, positional: list[str]) -> None:
    if positional:
        raise NotationError(f"unexpected {positional[0]} in {kind}", _syntax(kind))


def _parse_colour(named: dict[str, str], positional: list[str]) -> Action:
    if len(positional) != 1:
        raise NotationError("colour needs exactly one colour", list(COLOURS))
    return act("colour", colour=_colour(positional[0], "colour"))


def _at(kind: str, named: dict[str, str], positional: list[str]) -> str:
    if "at" not in named:
        if len(positional) != 1:
            raise NotationError(f"{kind} needs at=BLD", _syntax(kind))
        return _building(positional.pop(), kind)
    return _building(named["at"], kind)


def _parse_place(named: dict[str, str], positional: list[str]) -> Action:
    at = _at("place", named, positional)
    _no_positional("place", positional)
    return act("place", at=at)


def _parse_give(named: dict[str, str], positional: list[str]) -> Action:
    at = _at("give", named, positional)
    _no_positional("give", positional)
    return act("give", at=at)


def _parse_fill(named: dict[str, str], positional: list[str]) -> Action:
    at = _at("fill", named, positional)
    _no_positional("fill", positional)
    colour = _colour(named["colour"], "fill") if "colour" in named else None
    return act("fill", at=at, colour=colour)


def _parse_reset(named: dict[str, str], positional: list[str]) -> Action:
    _no_positional("reset", positional)
    return act("reset")


def _parse_exchange(named: dict[str, str], positional: list[str]) -> Action:
    values = ([named["give"]] if "give" in named else []) + positional
    return act("exchange", cards=_cards(values, "exchange"))


def _parse_return(named: dict[str, str], positional: list[str]) -> Action:
    values = ([named["give"]] if "give" in named else []) + positional
    return act("return", cards=_cards(values, "return"))


def _pay(value: str) -> int:
    if not value.isdigit():
        raise NotationError(f"pay= needs a whole number, not {value}", _syntax("play"))
    return int(value)


def _parse_play(named: dict[str, str], positional: list[str]) -> Action:
    red = _card(named["red"], "play") if "red" in named else None
    blue = _card(named["blue"], "play") if "blue" in named else None
    for token in positional:
        code = _card(token, "play")
        # A human may list the two cards without keys; the back colour says which is which.
        if red is None and (code in _RED_BACK or blue is not None):
            red = code
        elif blue is None:
            blue = code
        else:
            raise NotationError(f"unexpected {token} in play", _syntax("play"))
    if red is None or blue is None:
        raise NotationError("a pair play needs red= and blue=", _syntax("play"))
    at = _building(named["at"], "play") if "at" in named else None
    line = _line(named["line"], "play") if "line" in named else None
    # A redundant at=/line= that the cards already fix is dropped (canonical form, §8).
    if at is not None and red in AVENUES and blue in STREETS and at == f"{red}-{blue}":
        at = None
    if line is not None and ((red == STAT_R and blue == line) or (blue == STAT_B and red == line)):
        line = None
    return act(
        "play",
        red=red,
        blue=blue,
        at=at,
        line=line,
        victim=_colour(named["victim"], "play") if "victim" in named else None,
        colour=_colour(named["colour"], "play") if "colour" in named else None,
        pay=_pay(named["pay"]) if "pay" in named else None,
    )


def _parse_event(named: dict[str, str], positional: list[str]) -> Action:
    values = ([named["card"]] if "card" in named else []) + positional
    if len(values) != 1:
        raise NotationError("event needs exactly one single event card", _syntax("event"))
    card = _card(values[0], "event")
    if card not in SINGLE_EVENTS:
        raise NotationError(
            f"{card} is not a single event card; single events are {' '.join(SINGLE_EVENTS)}",
            _syntax("event"),
        )
    return act(
        "event",
        card=card,
        target=_colour(named["target"], "event") if "target" in named else None,
        colour=_colour(named["colour"], "event") if "colour" in named else None,
    )


_BUILDERS = {
    "colour": _parse_colour,
    "place": _parse_place,
    "play": _parse_play,
    "event": _parse_event,
    "reset": _parse_reset,
    "give": _parse_give,
    "fill": _parse_fill,
    "exchange": _parse_exchange,
    "return": _parse_return,
}
