"""Setting what a long-running process built at start-up aside from the garbage collector, for any front
end's process that runs one bot (tests run many in one process, and leave it alone)."""

from __future__ import annotations

import gc

# New objects the collector lets pile up before it looks at them (in a process that runs one bot). A move
# makes thousands, most freed at once; at Python's default of 700 the collections took 0.5 ms of each move
# (a hundred in 288 moves), at this many 0.2 ms (six, each pausing the loop for about 9 ms).
YOUNG_OBJECTS = 10_000

Thresholds = tuple[int, int, int]


def set_heap_aside() -> Thresholds:
    """Set what start-up built (modules, schemas, catalogues), which lives as long as the process, aside
    from the collector, so that it is not scanned again by every full collection, which stalled the loop;
    and let more young objects pile up. The thresholds before, for ``restore_heap``."""
    gc.collect()
    gc.freeze()
    before: Thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, *before[1:])
    return before


def restore_heap(thresholds: Thresholds) -> None:
    """Let what ``set_heap_aside`` set aside be collected again (the process's bot is gone), with the
    collector's ``thresholds`` as they were."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)
