"""Actions of Skyline of the World and their notation (spec §8): one frozen model, canonical text, parser."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from engine.core.contract import Frozen
from engine.core.errors import NotationError
from engine.core.notation import guarded_parse
from engine.skyline.cards import BONUS_CARDS, PIECES, SITE_BY_NAME

ActionKind = Literal["build", "endbuild", "buy", "sell", "endturn", "claim", "exchange"]


class Action(Frozen):
    """One action; ``kind`` says which fields matter.

    ``build``: ``piece`` + ``site``; ``buy``/``sell``: ``pieces`` (left to right, as written);
    ``claim``: ``card`` and optionally ``at`` (sites in canonical order); ``exchange``: ``cards`` (sorted);
    ``endbuild``/``endturn``: nothing.
    """

    kind: ActionKind
    piece: str | None = None
    site: str | None = None
    pieces: tuple[str, ...] = ()
    card: str | None = None
    at: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


def _site_key(name: str) -> int:
    return SITE_BY_NAME[name]


def build(piece: str, site: str) -> Action:
    """``build <piece> <site>``."""
    return Action(kind="build", piece=piece, site=site)


def buy(pieces: tuple[str, ...] | list[str]) -> Action:
    """``buy p[,p…]`` (order kept: the list runs left to right, §8)."""
    return Action(kind="buy", pieces=tuple(pieces))


def sell(pieces: tuple[str, ...] | list[str]) -> Action:
    """``sell p[,p…]``."""
    return Action(kind="sell", pieces=tuple(pieces))


def claim(card: str, at: tuple[str, ...] | list[str] = ()) -> Action:
    """``claim <card> [at=…]`` with the sites in canonical order (A1 < A2 < … < F6)."""
    return Action(kind="claim", card=card, at=tuple(sorted(at, key=_site_key)))


def exchange(cards: tuple[str, ...] | list[str]) -> Action:
    """``exchange c,c,c`` with the cards sorted."""
    return Action(kind="exchange", cards=tuple(sorted(cards)))


ENDBUILD = Action(kind="endbuild")
ENDTURN = Action(kind="endturn")


@lru_cache(maxsize=1 << 14)
def notation(action: Action) -> str:
    """The canonical text of ``action`` (§8)."""
    kind = action.kind
    if kind == "build":
        return f"build {action.piece} {action.site}"
    if kind in ("buy", "sell"):
        return f"{kind} {','.join(action.pieces)}"
    if kind == "claim":
        return f"claim {action.card}" + (f" at={','.join(action.at)}" if action.at else "")
    if kind == "exchange":
        return "exchange " + ",".join(action.cards)
    return kind


SYNTAX = (
    "build 2 C4",
    "endbuild",
    "buy 1,1,2",
    "sell 6,1",
    "endturn",
    "claim B01",
    "claim B01 at=A1,B1,C1",
    "exchange B07,B20,B33",
)


def _syntax(word: str) -> list[str]:
    return [s for s in SYNTAX if s.split()[0] == word] or list(SYNTAX)


def _piece(text: str, word: str) -> str:
    p = text.strip().upper()
    if p not in PIECES:
        raise NotationError(f"unknown piece: {text} (pieces are 1 2 4 6 PH N S)", _syntax(word))
    return p


def _site(text: str, word: str) -> str:
    s = text.strip().upper()
    if s not in SITE_BY_NAME:
        raise NotationError(f"unknown site: {text} (sites are A1-F6)", _syntax(word))
    return s


def _card(text: str, word: str) -> str:
    c = text.strip().upper()
    if c not in BONUS_CARDS:
        raise NotationError(f"unknown bonus card: {text} (cards are B01-B42)", _syntax(word))
    return c


def _list(text: str) -> list[str]:
    return [p for p in text.split(",") if p.strip()]


@lru_cache(maxsize=1 << 14)
@guarded_parse
def parse(text: str) -> Action:
    """The action written as ``text`` (case-insensitive); raises ``NotationError`` with the expected form."""
    tokens = text.split()
    if not tokens:
        raise NotationError("empty action", list(SYNTAX))
    word = tokens[0].lower()
    rest = tokens[1:]
    if word in ("endbuild", "endturn"):
        if rest:
            raise NotationError(f"unexpected {rest[0]} after {word}", [word])
        return ENDBUILD if word == "endbuild" else ENDTURN
    if word == "build":
        if len(rest) != 2:
            raise NotationError("build needs a piece and a site, e.g. build 2 C4", _syntax(word))
        return build(_piece(rest[0], word), _site(rest[1], word))
    if word in ("buy", "sell"):
        if len(rest) != 1 or not _list(rest[0]):
            raise NotationError(f"{word} lists pieces without spaces, e.g. {_syntax(word)[0]}", _syntax(word))
        pieces = [_piece(p, word) for p in _list(rest[0])]
        return buy(pieces) if word == "buy" else sell(pieces)
    if word == "claim":
        if not 1 <= len(rest) <= 2:
            raise NotationError("claim needs a card, optionally at=<sites>", _syntax(word))
        card = _card(rest[0], word)
        if len(rest) == 1:
            return claim(card)
        key, _, value = rest[1].partition("=")
        sites = [_site(s, word) for s in _list(value)]
        if key.lower() != "at" or not sites:
            raise NotationError(f"unexpected {rest[1]} in claim (write at=A1,B1,C1)", _syntax(word))
        if len(set(sites)) != len(sites):
            raise NotationError("a site is listed twice in at=", _syntax(word))
        return claim(card, sites)
    if word == "exchange":
        if len(rest) != 1:
            raise NotationError("exchange lists three cards without spaces", _syntax(word))
        cards = [_card(c, word) for c in _list(rest[0])]
        if len(cards) != 3 or len(set(cards)) != 3:
            raise NotationError("exchange needs exactly three different cards", _syntax(word))
        return exchange(cards)
    raise NotationError(f"unknown action: {tokens[0]}", list(SYNTAX))
