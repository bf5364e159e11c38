"""Giving memory back: what a large corpus's reading frees goes back to the operating system.

Reading a document makes and drops texts the size of the file (the decoded text, each normalisation
step's text, the lines, the builder's nodes). On Linux, glibc's allocator keeps what Python frees for
reuse, and after a large block is freed it raises the size from which it maps blocks of their own
(up to 32 MB), so the next file's texts land in the heap, where what is freed around long-lived objects
is seldom returned: at 100 copies of the consolidated text (two files), a fifth of the front end's
resident memory was freed memory the process still held (malloc_trim gave back 31 of 156 MiB), and the
front end's peak was 186 MiB; with the two calls below it is 146 MiB. Two calls of the C library:

- ``map_large_blocks``: blocks of 128 KiB and more are always mapped on their own (glibc's default before
  it adapts), so a text is returned to the system the moment it is freed;
- ``give_back``: what is free at the top and in whole pages of the heap is returned (``malloc_trim``).

Neither changes what a build computes. Where the C library has neither (macOS, musl), both do nothing.
"""

from __future__ import annotations

import ctypes
import sys
from functools import lru_cache
from typing import Any

_M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
LARGE = 128 * 1024  # glibc's default mmap threshold: a block this large or larger is mapped on its own


@lru_cache(maxsize=1)
def _libc() -> Any:
    """glibc, when this process runs on it; else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:  # glibc's name first: find_library runs ldconfig in a process of its own (~5 ms a command)
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        from ctypes.util import find_library  # here: it imports subprocess, ~5 ms of a command (issue 32)

        try:
            libc = ctypes.CDLL(find_library("c"))
        except OSError:
            return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


@lru_cache(maxsize=1)
def map_large_blocks() -> bool:
    """Blocks of ``LARGE`` bytes and more mapped on their own from now on, in this process (once); whether
    the C library took it."""
    libc = _libc()
    return bool(libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, LARGE) == 1)


def give_back() -> bool:
    """Return the heap's free memory (at its top, and its whole free pages) to the system; whether any was."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0) == 1)
