"""Work made beside the build: a stage's part that nothing needs for a while, made in a forked process
while this one goes on with the rest, its result sent back when it is asked for.

The machine's cores are shared out by ``NAVLAW_JOBS`` (default: all of them); ``NAVLAW_JOBS=1`` keeps a
build in one process, and then ``later(fn)`` is ``fn()``, made at once, as before. A forked process
inherits everything the build holds (nothing is pickled to it); its result comes back pickled through a
pipe that only the two processes hold. If the process cannot be started, or fails in any way (an
exception, killed), the work is made again here, in order, so that an error is the one a one-process
build reports, at the same point.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
from typing import TYPE_CHECKING, Callable, Generic, Iterator, TypeVar

if TYPE_CHECKING:  # imported where a process is started: a command that starts none needs neither
    import multiprocessing.connection
    import multiprocessing.process

    from navlaw.cache import BuildCache

T = TypeVar("T")

# Files to make (or sections, pages) from which a piece of work pays for the process it is made in. A fork
# costs more than its start (~5 ms at 10x the corpus): the copy-on-write faults of both processes (every page
# either one writes afterwards is copied, or at least faulted, once; the collector's walk is kept off them,
# see ``forking``), the result pickled back and read. At 10x, after an edit of one section, the two pieces of
# work a build gave another process cost ~0.37 s of CPU more than the same work here (~0.42 s), more than
# half of it those faults: a piece of work is worth a process by what it will make (files whose key changed,
# files written anew), never by the size of the corpus it goes over.
WORTH_AT = 400

# Where each piece of work given to ``later`` was made, by its name: "here" or "forked" (for the tests
# and the benchmarks, which count that the work is shared out, never time it).
MADE: list[tuple[str, str]] = []


def jobs() -> int:
    """Processes a build may use: ``NAVLAW_JOBS``, else the machine's cores."""
    return int(os.environ.get("NAVLAW_JOBS", "0") or 0) or (os.cpu_count() or 1)


def can_fork() -> bool:
    import multiprocessing

    return jobs() >= 2 and "fork" in multiprocessing.get_all_start_methods()


def worth(work: int, each: float = 1.0) -> bool:
    """Whether ``work`` pieces (files to make, sections to go over when each is made anew) pay for a process
    (``each``: a piece's share of a section's data files, e.g. a file written: a quarter)."""
    return work * each >= WORTH_AT


def workers(items: int, worth_at: int) -> int:
    """Processes to share ``items`` pieces of work among: ``jobs()`` when there are at least ``worth_at``
    pieces and processes can be forked, else 1 (this process, in order)."""
    return jobs() if items >= worth_at and can_fork() else 1


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Around starting forked processes: what this process holds is frozen out of the garbage collector's
    sight (``gc.freeze``), so that a forked process's collections do not walk everything it inherited,
    writing to (and so copying) every page of it; after the fork, this process's collections see it again."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class Later(Generic[T]):
    """``fn()``, being made in a forked process (or made already, here); ``result()`` waits for it."""

    def __init__(self, name: str, fn: Callable[[], T], worth: bool = True, cache: BuildCache | None = None) -> None:
        self.name, self._fn, self._cache = name, fn, cache
        self._process: multiprocessing.process.BaseProcess | None = None
        self._done = False
        self._value: T | None = None
        if worth and can_fork():
            try:
                self._start()
                return
            except OSError:  # no process to be had: made here
                self._process = None
        self._made_here()

    def _start(self) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        read, write = ctx.Pipe(duplex=False)
        self._read = read
        self._process = ctx.Process(target=_child, args=(self._fn, write, self._cache), daemon=True)
        try:
            with forking():
                self._process.start()
        finally:
            write.close()  # the child's end: the parent sees the end of the pipe when the child is gone

    def _made_here(self) -> None:
        self._value = self._fn()
        self._done = True
        MADE.append((self.name, "here"))

    def result(self) -> T:
        if not self._done:
            assert self._process is not None
            try:
                data = self._read.recv_bytes()
            except (EOFError, OSError):
                data = b""
            finally:
                self._read.close()
                self._process.join()
            if data[:1] == b"+" and self._process.exitcode == 0:
                # from the child this process forked, through its own pipe
                self._value, news = pickle.loads(data[1:])
                if self._cache is not None and news is not None:
                    self._cache.take(news)
                self._done = True
                MADE.append((self.name, "forked"))
            else:  # it failed there: made here, where its error (if it has one) is raised as one process raises it
                self._made_here()
        return self._value  # type: ignore[return-value]


def _child(fn: Callable[[], object], write: multiprocessing.connection.Connection, cache: BuildCache | None) -> None:
    try:
        before = cache.mark() if cache is not None else None
        value = fn()
        news = cache.news_since(before) if cache is not None and before is not None else None
        data = b"+" + pickle.dumps((value, news), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:  # told to the parent, which makes the work again and reports its error
        data = b"-"
    write.send_bytes(data)
    write.close()


def later(name: str, fn: Callable[[], T], worth: bool = True, cache: BuildCache | None = None) -> Later[T]:
    """``fn()`` made in a forked process while the caller goes on (``worth``: whether the work ``fn`` will do
    is large enough to pay for a process, see ``WORTH_AT``; ``NAVLAW_JOBS=1``: made here, now). What ``fn``
    does to ``cache`` (the entries it uses or stores, its counts and warnings) is brought back with its result."""
    return Later(name, fn, worth, cache)
