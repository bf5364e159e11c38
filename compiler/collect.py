"""How often Python's cyclic garbage collector looks for garbage while a navlaw command runs.

Python runs a collection of its youngest objects after every 700 net allocations of containers, and walks the
older generations after 10 of those. A navlaw command allocates millions of containers that live to its end
(the corpus's trees, the cache's entries as they are unpickled, the site's state) and makes next to no cyclic
garbage (a fresh `navlaw build` after a one-word edit at 1x: 178 collections walked its objects, ~40 ms of its
~0.65 s of CPU, and found ~3,800 objects; issue 32). While ``paced()`` is held, the youngest generation is
collected after ``YOUNG`` allocations instead (as mypy does); the older ones keep Python's ratios. Garbage
without a cycle is freed at once as always; cyclic garbage waits a little longer (a few MB at most)."""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

YOUNG = 200_000


@contextlib.contextmanager
def paced() -> Iterator[None]:
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
