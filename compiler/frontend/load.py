"""Loads source documents: bytes from disk, decoded, with their provenance (file, sha256)."""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from navlaw.diagnostics import Diagnostic, NavlawError, Severity


@dataclass(frozen=True)
class SourceDocument:
    """A document as received: its raw text (decoded, otherwise untouched) and where it came from."""

    path: str  # as shown in diagnostics (relative to the corpus when loaded from one)
    text: str
    sha256: str
    size: int
    encoding: str = "utf-8"  # "cp850": an LBDC file as LBDC sends it (byte 0xF5 is §)


# Bytes that do not occur in text files: NUL and the C0 controls other than tab, LF, FF and CR.
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def _fail(path: str, message: str, hint: str = "", line: int = 0, column: int = 0, source_line: str = "") -> NavlawError:
    return NavlawError([Diagnostic(Severity.ERROR, message, path, line, column, source_line, "input", hint)])


def decode(data: bytes, path: str) -> str:
    """Decode a law text: UTF-8, or CP850 where the bytes are LBDC's (see ``encoding_of``); anything
    else is an error that says what it looks like."""
    return _decode(data, path)[0]


def _is_lbdc_cp850(data: bytes) -> bool:
    """CP850 as LBDC sends it: § is byte 0xF5, written before a section number ("\xf5 4." "\xf5\xf5 1-3"),
    and at least half the non-ASCII bytes are such section signs."""
    signs = len(re.findall(rb"\xf5(?=\xf5|\s*\d)", data))
    high = sum(1 for b in data if b >= 0x80)
    return signs > 0 and 2 * signs >= high


def _decode(data: bytes, path: str) -> tuple[str, str]:
    if not data.strip():
        raise _fail(path, "the file is empty: there is no law text to parse" if not data else
                    "the file holds only white space: there is no law text to parse")
    sample = data[:65536]
    controls = len(sample) - len(sample.translate(None, _BINARY_BYTES))
    if b"\x00" in sample or (controls > 4 and controls > len(sample) // 100):
        raise _fail(path, "the file is binary, not text (it contains NUL or control bytes)",
                    "give navlaw the plain-text export of the law, encoded as UTF-8")
    try:
        text = data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError as exc:
        if _is_lbdc_cp850(data):
            return data.decode("cp850"), "cp850"
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        line_end = data.find(b"\n", exc.start)
        raw_line = data[line_start : line_end if line_end >= 0 else len(data)]
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        guess = _guess_legacy_encoding(data)
        raise _fail(
            path,
            f"the file is not UTF-8: byte 0x{data[exc.start]:02X} cannot start a character",
            f"it looks like {guess}; convert it first, e.g. `iconv -f {guess} -t UTF-8`" if guess else
            "convert the file to UTF-8 first",
            line, column, raw_line.decode("utf-8", "replace"),
        ) from None
    if not text.strip() or not text.replace("\u200b", "").replace("\ufeff", "").strip():
        # Unicode white space only (no-break, ideographic, zero-width spaces): no law text either
        raise _fail(path, "the file holds only white space: there is no law text to parse")
    return text, encoding


def _guess_legacy_encoding(data: bytes) -> str:
    """Name the likely single-byte encoding of a non-UTF-8 law text, from how § would be spelled."""
    # In CP850 (the LBDC files of New York law) § is 0xF5; in Latin-1 and cp1252 it is 0xA7.
    cp850 = data.count(b"\xf5 ")
    latin = data.count(b"\xa7 ")
    if cp850 > latin:
        return "CP850"
    if any(0x80 <= b <= 0x9F for b in data):
        return "cp1252"
    return "ISO-8859-1"


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


def load(path: str | Path, display: str | None = None) -> SourceDocument:
    """Read and decode one file. Raises NavlawError (never OSError) when it cannot be read."""
    shown = display or str(path)
    data = read_regular(path, shown)
    text, encoding = _decode(data, shown)
    return SourceDocument(shown, text, hashlib.sha256(data).hexdigest(), len(data), encoding)
