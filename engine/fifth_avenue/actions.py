"""Actions of Fifth Avenue and their notation (spec §8): one frozen model, canonical text, parser."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from engine.core.contract import Frozen
from engine.core.errors import NotationError
from engine.core.notation import guarded_parse
from engine.fifth_avenue.cards import ALL_CARDS, COLOURS, DISTRICTS, PAWNS, POSITIONS, SLOTS, X, sort_cards

Kind = Literal["place", "A", "B", "C", "D", "draw", "move", "bid", "pass", "build", "close"]


class Action(Frozen):
    """One command; ``kind`` says which fields matter (§8). ``cards`` of a bid are in canonical order."""

    kind: Kind
    lot: str | None = None
    slot: str | None = None
    pawn: str | None = None
    dest: str | None = None
    district: str | None = None
    cols: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    k: int = 0


@lru_cache(maxsize=1 << 14)
def act(
    kind: Kind,
    lot: str | None = None,
    slot: str | None = None,
    pawn: str | None = None,
    dest: str | None = None,
    district: str | None = None,
    cols: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
    k: int = 0,
) -> Action:
    """A shared immutable action (cached: legal lists rebuild the same ones constantly)."""
    return Action(
        kind=kind, lot=lot, slot=slot, pawn=pawn, dest=dest, district=district, cols=cols, cards=cards, k=k
    )


def notation(a: Action) -> str:
    """Canonical text of ``a`` (§8)."""
    match a.kind:
        case "place":
            return f"place {a.lot}"
        case "A" | "pass" | "close":
            return a.kind
        case "B":
            return f"B {a.slot} {a.lot}"
        case "C":
            return f"C {a.pawn} {a.dest}"
        case "D":
            return f"D {a.district}"
        case "draw":
            return "draw " + (",".join(a.cols) if a.cols else "-")
        case "move":
            return f"move {a.pawn} {a.dest}"
        case "bid":
            return "bid " + ",".join(a.cards)
        case "build":
            return f"build {a.k}"
    raise AssertionError(a.kind)  # pragma: no cover


_FORMS = (
    "place <lot>, A, B <slot> <lot>, C <pawn> <dest>, D <district>, draw <col>,<col> | draw -, "
    "move <pawn> <dest>, bid <cards>, pass, build <k>, close"
)


def _lot(text: str) -> str:
    lot = text.upper()
    parts = lot.split(".")
    if len(parts) != 2 or parts[0] not in DISTRICTS or parts[1] not in (*COLOURS, X):
        raise NotationError(f"unknown lot {text!r}: write <district>.<colour>, e.g. TS.GY")
    return lot


def _pawn(text: str) -> str:
    if text.lower() not in PAWNS:
        raise NotationError(f"unknown pawn {text!r}: white or beige")
    return text.lower()


def _pos(text: str) -> str:
    if text.upper() not in POSITIONS:
        raise NotationError(f"unknown position {text!r}: one of {', '.join(POSITIONS)}")
    return text.upper()


@guarded_parse
def parse(text: str) -> Action:
    """The action written as ``text`` (case-insensitive); raises ``NotationError`` naming the forms."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty command", [_FORMS])
    head, rest = words[0].lower(), words[1:]
    try:
        if head == "place" and len(rest) == 1:
            return act("place", lot=_lot(rest[0]))
        if head == "a" and not rest:
            return act("A")
        if head == "b" and len(rest) == 2:
            slot = rest[0].upper()
            if slot not in SLOTS:
                raise NotationError(f"unknown slot {rest[0]!r}: S1 to S20")
            return act("B", slot=slot, lot=_lot(rest[1]))
        if head in ("c", "move") and len(rest) == 2:
            return act("C" if head == "c" else "move", pawn=_pawn(rest[0]), dest=_pos(rest[1]))
        if head == "d" and len(rest) == 1:
            district = rest[0].upper()
            if district not in DISTRICTS:
                raise NotationError(f"unknown district {rest[0]!r}: one of {', '.join(DISTRICTS)}")
            return act("D", district=district)
        if head == "draw" and len(rest) == 1:
            if rest[0] == "-":
                return act("draw")
            cols = tuple(c.upper() for c in rest[0].split(","))
            if not 1 <= len(cols) <= 2 or any(c not in COLOURS for c in cols) or len(set(cols)) < len(cols):
                raise NotationError(
                    f"bad draw {rest[0]!r}: one or two different colours of {', '.join(COLOURS)}"
                )
            return act("draw", cols=tuple(sorted(cols, key=COLOURS.index)))
        if head == "bid" and len(rest) == 1:
            cards = [c.upper() for c in rest[0].split(",")]
            if any(c not in ALL_CARDS for c in cards):
                raise NotationError(f"bad cards {rest[0]!r}: tokens like GY4, BK6 separated by commas")
            return act("bid", cards=sort_cards(cards))
        if head == "pass" and not rest:
            return act("pass")
        if head == "build" and len(rest) == 1 and rest[0].isdigit():
            return act("build", k=int(rest[0]))
        if head == "close" and not rest:
            return act("close")
    except NotationError:
        raise
    raise NotationError(f"cannot read {text!r}", [_FORMS])
