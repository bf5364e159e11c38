"""Loads source documents: bytes from disk, decoded in their format (formats/), with their provenance
(file, sha256, encoding, format)."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from navlaw.diagnostics import Diagnostic, NavlawError, Severity
from navlaw.frontend import formats
from navlaw.model.text import NormalText


@dataclass(frozen=True)
class SourceDocument:
    """A document as received: its raw text (decoded, otherwise untouched) and where it came from.
    Once compiled, a corpus keeps it ``released``: the text is rebuilt from the normalised text when asked,
    not held beside it."""

    path: str  # as shown in diagnostics (relative to the corpus when loaded from one)
    held: str  # the text, while held ("" once released: ``normal`` rebuilds it)
    sha256: str
    size: int
    encoding: str = "utf-8"  # "cp850": an LBDC file as LBDC sends it (byte 0xF5 is §)
    format: str = ""  # the input format it was read in (formats/); "" = not said: detected from the text
    normal: NormalText | None = field(default=None, compare=False, repr=False)  # set when released

    @property
    def text(self) -> str:
        """The raw text (decoded, otherwise untouched)."""
        return self.held if self.normal is None else self.normal.raw

    def contains(self, needle: str) -> bool:
        """Whether the raw text has ``needle`` (once released, searched a piece at a time, not made whole)."""
        return needle in self.held if self.normal is None else self.normal.raw_contains(needle)

    def starts(self, prefix: str) -> bool:
        """Whether the raw text begins with ``prefix`` (made no longer than it)."""
        return self.held.startswith(prefix) if self.normal is None else self.normal.raw_slice(0, len(prefix)) == prefix

    def released(self, normal: NormalText) -> SourceDocument:
        """This source without its text, when ``normal`` (made from it) has let its raw text go and
        rebuilds it; else this source as it is."""
        if normal.raw_held or normal.raw_length != len(self.held):
            return self
        return replace(self, held="", normal=normal)


def _fail(path: str, message: str, hint: str = "") -> NavlawError:
    return NavlawError([Diagnostic(Severity.ERROR, message, path, 0, 0, "", "input", hint)])


def decode(data: bytes, path: str) -> str:
    """Decode a law text in the format its bytes are in (formats/): UTF-8, or CP850 where the bytes are
    LBDC's; anything else is an error that says what it looks like."""
    return formats.detect(data).decode(data, path).text


MAX_BYTES = 64 << 20  # a law text, a manifest: the consolidated laws of the state are far smaller
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def read_regular(path: str | Path, shown: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them. A FIFO, a device, a socket
    or a directory is refused without waiting on it (one NavlawError line), as is a file over the
    limit (also one that grows past it while read); never OSError or MemoryError."""
    limit = MAX_BYTES if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opened without a writer does not block
    except FileNotFoundError:
        raise _fail(shown, "no such file") from None
    except IsADirectoryError:
        raise _fail(shown, "this is a directory, not a file") from None
    except OSError as exc:
        raise _fail(shown, f"cannot read the file: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # before os.fdopen, which raises IsADirectoryError for a directory
        os.close(fd)
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise _fail(shown, f"this is {kind}, not a file: navlaw reads law texts from regular files",
                    "give the path of the text file itself")
    with os.fdopen(fd, "rb", buffering=0) as f:
        too_big = _fail(shown, f"the file is larger than {f'{limit >> 20} MB' if limit >= 1 << 20 else f'{limit:,} bytes'}, "
                        "the most navlaw reads from one file",
                        "a law text is a few megabytes at most; check that this is the file you meant")
        if st.st_size > limit:
            raise too_big
        chunks, total = [], 0
        try:
            while chunk := f.read(min(1 << 20, limit + 1 - total)):
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:
                    raise too_big
        except OSError as exc:
            raise _fail(shown, f"cannot read the file: {exc.strerror or exc}") from None
    return b"".join(chunks)


def load(path: str | Path, display: str | None = None, format: str = "") -> SourceDocument:
    """Read and decode one file, in the ``format`` named (the manifest's) or the one its bytes are most
    surely in. Raises NavlawError (never OSError) when it cannot be read."""
    shown = display or str(path)
    data = read_regular(path, shown)
    fmt = formats.named(format) if format else formats.detect(data)
    text, encoding = fmt.decode(data, shown)
    return SourceDocument(shown, text, hashlib.sha256(data).hexdigest(), len(data), encoding, fmt.name)
