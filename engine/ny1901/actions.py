"""Actions of New York 1901 and their notation (spec §8): one frozen model, canonical text, parser."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from engine.core.contract import Frozen
from engine.core.errors import NotationError
from engine.core.notation import guarded_parse
from engine.ny1901.cards import LOT_INDEX, ROTATIONS, TILE_BY_ID, canonical_rot

ActionKind = Literal["shift", "take", "grab", "build", "boom", "rebuild", "giveback", "end", "pass"]
_PLACING = ("build", "boom", "rebuild")
_ACQUIRING = ("take", "grab")
_SIMPLE = ("shift", "end", "pass")

FORMS = (
    "shift",
    "take slot=<1-4> lot=<LotId>",
    "grab slot=<1-4> lot=<LotId>",
    "build tile=<TileId> [rot=<0|90|180|270>] at=<x>,<y>",
    "boom tile=<TileId> [rot=<r>] at=<x>,<y>",
    "rebuild tile=<TileId> [rot=<r>] at=<x>,<y>",
    "giveback lot=<LotId>",
    "end",
    "pass",
)


class Action(Frozen):
    """One action; ``kind`` says which fields matter (§8). ``rot`` is always canonical (§2.11)."""

    kind: ActionKind
    slot: int | None = None  # 1..4
    lot: str | None = None
    tile: str | None = None
    rot: int = 0
    x: int | None = None
    y: int | None = None


@lru_cache(maxsize=1 << 16)
def act(
    kind: ActionKind,
    slot: int | None = None,
    lot: str | None = None,
    tile: str | None = None,
    rot: int = 0,
    x: int | None = None,
    y: int | None = None,
) -> Action:
    """A shared immutable action (cached: legal lists rebuild the same ones constantly)."""
    return Action(kind=kind, slot=slot, lot=lot, tile=tile, rot=rot, x=x, y=y)


@lru_cache(maxsize=1 << 16)
def notation(action: Action) -> str:
    """The canonical text of ``action`` (§8); ``rot=0`` is omitted."""
    k = action.kind
    if k in _ACQUIRING:
        return f"{k} slot={action.slot} lot={action.lot}"
    if k in _PLACING:
        rot = f" rot={action.rot}" if action.rot else ""
        return f"{k} tile={action.tile}{rot} at={action.x},{action.y}"
    if k == "giveback":
        return f"giveback lot={action.lot}"
    return k


_KV = re.compile(r"^([a-z]+)=(\S+)$")


def _fail(text: str, why: str) -> NotationError:
    return NotationError(f"cannot read {text!r}: {why}", FORMS)


@lru_cache(maxsize=1 << 16)
@guarded_parse
def parse(text: str) -> Action:
    """The action written as ``text`` (case-insensitive); raises ``NotationError`` with the forms."""
    words = text.strip().lower().split()
    if not words:
        raise _fail(text, "empty command")
    kind = words[0]
    fields: dict[str, str] = {}
    for word in words[1:]:
        m = _KV.match(word)
        if not m or m.group(1) in fields:
            raise _fail(text, f"bad or repeated field {word!r}")
        fields[m.group(1)] = m.group(2)
    if kind in _SIMPLE:
        if fields:
            raise _fail(text, f"{kind} takes no fields")
        return act(kind)  # type: ignore[arg-type]
    if kind in _ACQUIRING:
        if set(fields) != {"slot", "lot"}:
            raise _fail(text, f"{kind} needs slot= and lot=")
        if fields["slot"] not in ("1", "2", "3", "4"):
            raise _fail(text, "slot must be 1 to 4")
        return act(kind, slot=int(fields["slot"]), lot=_lot(text, fields["lot"]))  # type: ignore[arg-type]
    if kind == "giveback":
        if set(fields) != {"lot"}:
            raise _fail(text, "giveback needs lot=")
        return act("giveback", lot=_lot(text, fields["lot"]))
    if kind in _PLACING:
        if not {"tile", "at"} <= set(fields) <= {"tile", "at", "rot"}:
            raise _fail(text, f"{kind} needs tile= and at= (rot= optional)")
        tile = fields["tile"].upper()
        if tile not in TILE_BY_ID:
            raise _fail(text, f"unknown tile {tile} (BR1-BR6, SI1-SI6, GO1-GO6, LPR LSI LML LWO)")
        rot_text = fields.get("rot", "0")
        if not rot_text.isdigit() or int(rot_text) not in ROTATIONS:
            raise _fail(text, "rot must be 0, 90, 180 or 270")
        m = re.match(r"^(\d{1,2}),(\d{1,2})$", fields["at"])
        if not m:
            raise _fail(text, "at= must be x,y")
        rot = canonical_rot(TILE_BY_ID[tile].shape, int(rot_text))
        return act(kind, tile=tile, rot=rot, x=int(m.group(1)), y=int(m.group(2)))  # type: ignore[arg-type]
    raise _fail(text, f"unknown command {kind!r}")


def _lot(text: str, raw: str) -> str:
    lot = raw.upper()
    if lot not in LOT_INDEX:
        raise _fail(text, f"unknown lot {lot} (G01…P13)")
    return lot
