"""The lock a build holds beside each output (compiler/publish.py's ``locked``): on POSIX, ``flock`` of the lock
file, taken without waiting, as filelock's ``UnixFileLock`` takes it (the same file, the same kind of lock: a
build holding it with filelock and one holding it here exclude each other); anywhere else, or on a file system
without ``flock``, filelock itself (its soft lock where there is no ``flock``).

Why not filelock everywhere: importing it costs ~10 ms of CPU (its platform probes, its soft-lock and lease
machinery), ~1.5% of a fresh `navlaw build` after a one-word edit (issue 32), for the one call a POSIX build
makes of it."""

from __future__ import annotations

import errno
import os
import sys
from typing import Protocol

_BUSY = frozenset({errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK})  # held by another process (some file systems: EACCES)
_NO_FLOCK = frozenset({errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOLCK})  # the file system has no flock


class Busy(Exception):
    """The lock is held by another process."""


class Held(Protocol):
    def release(self) -> None: ...


class _Flock:
    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def release(self) -> None:
        import fcntl

        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)  # the lock file stays (removing it would race)


def take(path: str) -> Held:
    """Hold the lock at ``path`` (its file made, mode 0644 less the umask, if there is none), or raise Busy
    (another process holds it) or OSError (it cannot be made or opened: a link planted in its place)."""
    if sys.platform != "win32":
        try:
            import fcntl
        except ImportError:
            pass
        else:
            for _ in range(10):  # the file removed between its open and its lock: open the new one
                fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as exc:
                    os.close(fd)
                    if exc.errno in _BUSY:
                        raise Busy(path) from None
                    if exc.errno in _NO_FLOCK:
                        break  # filelock's soft lock, below
                    raise
                if os.fstat(fd).st_nlink > 0:
                    return _Flock(fd)
                _Flock(fd).release()
    return _filelock(path)


def _filelock(path: str) -> Held:
    import filelock

    taker = filelock.FileLock(path, timeout=0)
    try:
        taker.acquire()
    except filelock.Timeout:
        raise Busy(path) from None
    return taker
