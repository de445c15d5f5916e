"""Which states of a match the store keeps, and how it packs them.

The action log is the truth of a match; states are kept only to avoid replaying it from the start. A
match keeps its latest state (in its ``matches`` row) and checkpoints: the opening, every version that
is a multiple of ``CHECKPOINT_EVERY``, and every undo (an undo's state is not the replay of an action).
The state at any other version is the nearest checkpoint at or before it plus the actions after it,
which the host replays. Checkpoints are zlib-compressed JSON: a state's JSON shrinks about four times.
"""

from __future__ import annotations

import zlib

from engine.core.errors import CorruptRecord

# Migration 0014 spells this number out in SQL too: change both or neither.
CHECKPOINT_EVERY = 32
# zlib's default: level 9 saves under 1% more on these states for twice the time.
_LEVEL = 6


def is_checkpoint(version: int) -> bool:
    """Whether a committed action at ``version`` stores its state as a checkpoint."""
    return version % CHECKPOINT_EVERY == 0


# What a SQLite column can hold.
SqlValue = str | bytes | int | float | None


def pack_state(state_json: SqlValue) -> SqlValue:
    """The stored form of a state's JSON: compressed bytes. Anything but text is returned unchanged, so
    that a corrupt row stays corrupt (and is reported when read) instead of failing a migration."""
    if isinstance(state_json, str):
        return zlib.compress(state_json.encode("utf-8"), _LEVEL)
    return state_json


def unpack_state(stored: object, what: str) -> str:
    """The state JSON packed by ``pack_state``; ``CorruptRecord`` naming ``what`` when it cannot be."""
    if isinstance(stored, bytes):
        try:
            return zlib.decompress(stored).decode("utf-8")
        except (zlib.error, UnicodeDecodeError) as exc:
            problem = str(exc)
    else:
        problem = f"it is {type(stored).__name__}, not packed bytes"
    raise CorruptRecord(f"{what} cannot be read ({problem}); nothing was changed")
