"""What an input format is (the ``Format`` protocol), the lines with roles a format gives, and what New
York's text formats share: bytes decoded as UTF-8, or as CP850 where the bytes are LBDC's.

A format is a module (or any object) with

- ``name``: the manifest's ``format = "…"`` value;
- ``detect(data) -> float``: how sure it is that these bytes are in the format, 0 (not it) to 1;
- ``decode(data, path) -> Decoded``: the text and the encoding it was read in (NavlawError when the
  bytes cannot be read);
- ``refuse(text, path)``: raises NavlawError, saying what to do, when the text is one navlaw recognises
  as not law text (a JSON dump, an HTML page); returns otherwise;
- ``lines(text) -> list[SourceLine]``: every line of the (normalized) text with its role, tiling the
  text: law text, a heading, a blank line, or something kept out of the law (a web page's chrome, a bill
  print's furniture, an editorial note, a title line) — the roles are the flags the tree gives such
  lines. Within a line, what lies outside ``body_start:body_end`` is the layout's own marking (a
  markup prefix, a cell border): the front end takes it out of the text the grammar reads, recording
  the edit, so every offset still maps back to the file.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple, Protocol

from navlaw.diagnostics import Diagnostic, NavlawError, Severity

# The roles of the lines that are law (read by the grammar) …
LAW_ROLES = frozenset({"law", "heading", "blank"})
# … and of the lines kept in the tree but out of the law, as the tree flags them.
KEPT_ROLES = frozenset({"chrome", "furniture", "editorial-note", "title", "toc", "record"})


class Decoded(NamedTuple):
    text: str
    encoding: str  # "utf-8", "cp850" (an LBDC file as LBDC sends it, byte 0xF5 is §), …


class SourceLine(NamedTuple):
    """One line of a text as a format reads it. ``start``/``end`` cover the line with its line break;
    ``body_start``/``body_end`` the text in it that is the line's content (law, or what the role
    names); the rest of the line, before and after, is the layout's marking."""

    start: int
    end: int
    role: str
    body_start: int
    body_end: int


class Format(Protocol):
    name: str

    def detect(self, data: bytes) -> float: ...

    def decode(self, data: bytes, path: str) -> Decoded: ...

    def refuse(self, text: str, path: str) -> None: ...

    def lines(self, text: str) -> list[SourceLine]: ...


def fail(path: str, message: str, hint: str = "", line: int = 0, column: int = 0, source_line: str = "") -> NavlawError:
    return NavlawError([Diagnostic(Severity.ERROR, message, path, line, column, source_line, "input", hint)])


# ---- decoding ------------------------------------------------------------------------------------------
# Bytes that do not occur in text files: NUL and the C0 controls other than tab, LF, FF and CR.
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def is_lbdc_cp850(data: bytes) -> bool:
    """CP850 as LBDC sends it: § is byte 0xF5, written before a section number ("\xf5 4." "\xf5\xf5 1-3"),
    and at least half the non-ASCII bytes are such section signs."""
    signs = len(re.findall(rb"\xf5(?=\xf5|\s*\d)", data))
    high = sum(1 for b in data if b >= 0x80)
    return signs > 0 and 2 * signs >= high


def decode_text(data: bytes, path: str) -> Decoded:
    """Decode a law text: UTF-8, or CP850 where the bytes are LBDC's (``is_lbdc_cp850``); anything
    else is an error that says what it looks like."""
    if not data.strip():
        raise fail(path, "the file is empty: there is no law text to parse" if not data else
                   "the file holds only white space: there is no law text to parse")
    sample = data[:65536]
    controls = len(sample) - len(sample.translate(None, _BINARY_BYTES))
    if b"\x00" in sample or (controls > 4 and controls > len(sample) // 100):
        raise fail(path, "the file is binary, not text (it contains NUL or control bytes)",
                   "give navlaw the plain-text export of the law, encoded as UTF-8")
    try:
        text = data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
    except UnicodeDecodeError as exc:
        if is_lbdc_cp850(data):
            return Decoded(data.decode("cp850"), "cp850")
        raise _not_utf8(data, path, exc) from None
    if not text.strip() or not text.replace("\u200b", "").replace("\ufeff", "").strip():
        # Unicode white space only (no-break, ideographic, zero-width spaces): no law text either
        raise fail(path, "the file holds only white space: there is no law text to parse")
    return Decoded(text, "utf-8")


def _not_utf8(data: bytes, path: str, exc: UnicodeDecodeError) -> NavlawError:
    before = data[: exc.start]
    line = before.count(b"\n") + 1
    line_start = before.rfind(b"\n") + 1
    line_end = data.find(b"\n", exc.start)
    raw_line = data[line_start : line_end if line_end >= 0 else len(data)]
    column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
    guess = _guess_legacy_encoding(data)
    return fail(path, f"the file is not UTF-8: byte 0x{data[exc.start]:02X} cannot start a character",
                f"it looks like {guess}; convert it first, e.g. `iconv -f {guess} -t UTF-8`" if guess else
                "convert the file to UTF-8 first", line, column, raw_line.decode("utf-8", "replace"))


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


# ---- lines ---------------------------------------------------------------------------------------------
def lines_by_role(text: str, role: Callable[[str], str | None]) -> list[SourceLine]:
    """Every line of ``text``, whole, with the role ``role`` gives its content after its indentation
    (None: law), or "blank". The lines tile the text."""
    out: list[SourceLine] = []
    pos, n = 0, len(text)
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl + 1
        stop = n if nl < 0 else nl
        content = text[pos:stop]
        body = content.lstrip(" \t")
        if not body.strip(" \t"):
            out.append(SourceLine(pos, end, "blank", pos, stop))
        else:
            out.append(SourceLine(pos, end, role(body) or "law", pos, stop))
        pos = end
    return out
