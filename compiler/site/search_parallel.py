"""The split of the search index (compiler/site/search_index.py) on the machine's cores (issue 32, item 1).

After MkDocs' build, the split reads every search document back, tokenises it as Material's worker does,
weighs every term's postings and writes thousands of small files: at 100 times the corpus, seconds of one
core while the others wait. ``run`` gives one of its steps to forked workers, each a contiguous range of
the step's items (documents, terms in lunr's order, files), and returns the ranges' results in order; the
split merges them so that its files are byte for byte the ones one process writes. The split gives its
counting and weighing to workers, not the writing of its files (compiler/site/search_index.py's
``_write_dirs``: two processes creating files side by side cost more CPU and no less time).

Workers inherit the step's data (nothing is pickled to them but the range); only their results come back.
With ``NAVLAW_JOBS=1``, fewer than ``PARALLEL_AT`` documents, or no ``fork``, each step is made in this
process, in order, over one range of all its items.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from navlaw.parallel import forking, workers as _workers

R = TypeVar("R")

# Documents from which the split pays for its workers: a round of workers costs ~0.05 s to start, the
# split ~0.15 ms a document in one process.
PARALLEL_AT = 2000
SLICES = 4  # ranges per worker: they finish about together

# Each step as it was made: (step, "forked" or "here", ranges) — for the tests and benchmarks, which
# count that the work was shared out, never time it.
MADE: list[tuple[str, str, int]] = []

_DATA: list[Any] = []  # the step's data, inherited by its workers


def workers(documents: int) -> int:
    """Processes the split of an index of ``documents`` documents uses (1: this one)."""
    return _workers(documents, PARALLEL_AT)


def run(step: str, fn: Callable[[Any, tuple[int, int]], R], data: Any, size: int, n: int) -> list[R]:
    """``fn(data, (start, end))`` over ranges of ``range(size)``, in ``n`` forked workers (``n`` < 2:
    here, over one range); the results in the ranges' order. A worker's exception is raised here."""
    if n >= 2 and size >= 2:
        k = min(size, n * SLICES)
        ranges = [(size * i // k, size * (i + 1) // k) for i in range(k)]
        _DATA[:] = [data]
        try:
            import multiprocessing  # here: nothing is forked at 1x, which need not load it (issue 32)

            with forking():
                pool = multiprocessing.get_context("fork").Pool(min(n, k))
            with pool:
                out = pool.map(_call, [(fn, r) for r in ranges], chunksize=1)
            MADE.append((step, "forked", k))
            return out
        except OSError:  # no processes to be had: made here
            pass
        finally:
            _DATA.clear()
    MADE.append((step, "here", 1))
    return [fn(data, (0, size))]


def _call(job: tuple[Callable[[Any, tuple[int, int]], R], tuple[int, int]]) -> R:
    fn, bounds = job
    return fn(_DATA[0], bounds)
