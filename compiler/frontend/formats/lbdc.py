"""An LBDC law dump, as the Legislative Bill Drafting Commission sends New York's laws: one record per
chapter, article and section, each opened by a record line ("..SO DOC NAV89-B   LAWS(CONSOLIDATED)")
whose id says what it holds; "* NB …" notes on provisions that expire; in CP850, where byte 0xF5 is §.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, is_lbdc_cp850, lines_by_role

name = "lbdc"

_RECORD_LINE = re.compile(r"(?m)^\.\.SO DOC ")
_RECORD_LINE_BYTES = re.compile(rb"(?m)^\.\.SO DOC ")


def holds_records(text: str) -> bool:
    """Whether a text holds LBDC record lines (a str search: this runs on every document)."""
    return text.startswith("..SO DOC ") or "\n..SO DOC " in text


def records(text: str) -> int:
    return len(_RECORD_LINE.findall(text))


def first_record_line(text: str) -> int:
    """The 1-based line of the first record line (1 if none)."""
    m = _RECORD_LINE.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


_RECORD_LAW = re.compile(r"(?m)^\.\.SO DOC[ \t]+(?P<law>[A-Z]{3})")


def record_law(text: str) -> tuple[str, int] | None:
    """The LBDC code of the law the first record names ("NAV" of "..SO DOC NAV89-B"), in the text's first
    4096 characters, and its offset; None if there is no record there."""
    m = _RECORD_LAW.search(text, 0, 4096)
    return (m["law"], m.start("law")) if m is not None else None


def detect(data: bytes) -> float:
    if _RECORD_LINE_BYTES.search(data) is not None:
        return 0.9
    if b"\xf5" in data and is_lbdc_cp850(data):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return 1.0  # LBDC's CP850, read by no other format
    return 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    return None


def line_role(body: str) -> str | None:
    """A record line is the record's ("record"); "* NB Expires June 16, 2015" is LBDC's note on a
    provision marked "*" ("editorial-note")."""
    if body.startswith("..SO DOC"):
        return "record"
    return "editorial-note" if body.startswith("* NB ") else None


def lines(text: str) -> list[SourceLine]:
    return lines_by_role(text, line_role)


# ---- LBDC records ----------------------------------------------------------------------------------
_RECORD_ID_RE = re.compile(r"\.\.SO DOC[ \t]+(?P<id>\S+)")
_RECORD_RE = re.compile(r"(?P<law>[A-Z]{3})(?:(?P<chapter>-CH[0-9A-Z-]*)|A(?P<article>[0-9]+(?:-[A-Z0-9]+)*)"
                        r"|(?P<section>[0-9]+(?:\.[0-9]+)?(?:-[A-Z0-9]+)*))")


class Record(NamedTuple):
    id: str  # as written: "NAV89-B"
    kind: str  # chapter | article | section | other
    number: str  # the article or section number, as the law writes it: "89-b", "6"; "" otherwise


def record(line: str) -> Record:
    """Read an LBDC record line: "..SO DOC NAV89-B   LAWS(CONSOLIDATED)" is § 89-b of NAV, "NAVA6" its
    article 6, "NAV-CH37" the chapter; any other id (a title, the rules of a house) is "other"."""
    m = _RECORD_ID_RE.match(line.strip())
    rid = m.group("id") if m else ""
    r = _RECORD_RE.fullmatch(rid)
    if r is None:
        return Record(rid, "other", "")
    if r.group("chapter"):
        return Record(rid, "chapter", r.group("chapter")[3:].lower())
    if r.group("article"):
        return Record(rid, "article", r.group("article").lower())
    return Record(rid, "section", r.group("section").lower())
