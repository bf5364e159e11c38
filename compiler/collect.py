"""How often Python's cyclic garbage collector looks for garbage while a navlaw command runs.

Python runs a collection of its youngest objects after every 700 net allocations of containers, and walks the
older generations after 10 of those. A navlaw command allocates millions of containers that live to its end
(the corpus's trees, the cache's entries as they are unpickled, the site's state) and makes next to no cyclic
garbage (a fresh `navlaw build` after a one-word edit at 1x: 178 collections walked its objects, ~40 ms of its
~0.65 s of CPU, and found ~3,800 objects; issue 32). While ``paced()`` is held, the youngest generation is
collected after ``YOUNG`` allocations instead (as mypy does); the older ones keep Python's ratios. Garbage
without a cycle is freed at once as always; cyclic garbage waits a little longer (a few MB at most).

When the process ends, Python collects every generation before and while it takes its modules apart, walking
everything the command left (a fresh edit build at 1x: ~0.12 s of CPU, a sixth of it, to find nothing worth
freeing in a process about to end). An exit handler freezes them (``gc.freeze``): those collections walk nothing,
and every object is still freed as its last reference goes, as before; only cyclic garbage left at the very
end is not collected (the process's memory is returned whole). No exit handler needs the collector (the
cache's held entries, registered later, are written before it; logging's flush after it)."""

from __future__ import annotations

import atexit
import contextlib
import gc
from typing import Iterator

YOUNG = 200_000
_ENDING: list[bool] = []


@contextlib.contextmanager
def paced() -> Iterator[None]:
    if not _ENDING:  # once a process: at its end, everything frozen
        _ENDING.append(True)
        atexit.register(gc.freeze)
    before = gc.get_threshold()
    gc.set_threshold(max(YOUNG, before[0]), *before[1:])
    try:
        yield
    finally:
        # Python's pace again, without the collection it would start at once over what the command left young
        # (a fresh process is about to end): those objects join the oldest generation, collected with it
        gc.freeze()
        gc.set_threshold(*before)
        gc.unfreeze()
