"""How published law text lays itself out, read from the text: where a section's heading ends and its
text begins, labels written inside a line, tables of contents, and LBDC record ids.

These are pure functions over strings; compiler/frontend/tree.py decides with them, line by line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from navlaw.frontend.labels import roman_value

# ---- headings ---------------------------------------------------------------------------------------
# A heading ends at a period after a word ("Short title.", "rates.", "(a).") followed by the section's
# text; not after an initial ("U.S. Coast Guard"): the letter before the period is lowercase, a digit
# or a closing bracket or quote, or two capitals ("LAW.").
_HEAD_END_RE = re.compile(r"(?:(?<=[a-z0-9)\]\"”’'])|(?<=[A-Z]{2}))\.(?=[ \t]+\S)")
# A heading names a subject; it does not command. "The Lieutenant Governor ... shall be President of the
# Senate" after "Section 1." is the section's text, not its heading ("When owner may sue." is a heading).
_COMMAND_RE = re.compile(r"\b(?:shall|hereby)\b", re.I)
MAX_HEADING = 200  # the longest heading of the Navigation Law is 185 characters


class Heading(NamedTuple):
    heading: str  # white space folded, without its final period
    body_at: int | None  # offset in the given string where the section's text begins, if it does
    complete: bool  # False: no period ends it on this line; it may wrap onto the next


def split_heading(rest: str) -> Heading:
    """Split what follows "§ 4." on its line into the heading and the start of the text.

    "Short title.  This chapter shall ..." -> ("Short title", 14, True); "Definitions." -> ("Definitions",
    None, True); "Application for adjustment of initial legal regulated" -> (…, None, False); "The
    Lieutenant Governor ... shall be President of" -> ("", 0, True): no heading, all text."""
    # most headings stand alone on their line ("Definitions."): no ". " in them, no pattern needed
    m = _HEAD_END_RE.search(rest) if ". " in rest or ".\t" in rest else None
    if m is not None:
        head = rest[: m.start()]
        if _commands(head) or len(head) > MAX_HEADING:
            return Heading("", 0, True)
        at = m.end()
        while at < len(rest) and rest[at] in " \t":
            at += 1
        return Heading(fold(head), at, True)
    stripped = rest.rstrip()
    if _commands(stripped):
        return Heading("", 0 if stripped else None, True)
    if stripped.endswith(".") or not stripped:
        return Heading(fold(stripped.rstrip(".")), None, True)
    return Heading(fold(stripped), None, False)


def _commands(s: str) -> bool:
    lower = s.lower() if not s.islower() else s
    return ("shall" in lower or "hereby" in lower) and _COMMAND_RE.search(s) is not None


def wrapped_heading(first: str, nxt: str) -> tuple[str, int | None] | None:
    """A heading that ran on from ``first`` onto the next line ``nxt`` ("Application for adjustment of
    initial legal regulated" / "rent."): the whole heading and where the text begins in ``nxt`` (None
    if the line holds nothing more). None when the two lines do not make a heading."""
    m = _HEAD_END_RE.search(nxt)
    stripped = nxt.rstrip()
    if m is not None:
        cut, at = m.start(), m.end()
        while at < len(nxt) and nxt[at] in " \t":
            at += 1
        body: int | None = at
    elif stripped.endswith("."):
        cut, body = len(stripped) - 1, None
    else:
        return None
    head = f"{first} {nxt[:cut]}"
    if _commands(head) or len(head) > MAX_HEADING or ":" in head or ";" in nxt[:cut] and len(nxt[:cut]) > 60:
        return None
    return fold(head), body


def fold(s: str) -> str:
    return " ".join(s.split())


# ---- labels inside a line --------------------------------------------------------------------------
# A label after the end of a sentence or a lead-in colon, in the same line: "... alcohol. (1) A
# violation ...", "... include: 1. "Office" shall mean ...", "The Speaker shall: a. take the chair".
# The label grammar is grammar/statute.lark's LABEL; whether it is a label is decided by the label
# sequence in tree.py. Runs on the whole text at once (one C-speed pass), not line by line.
_LABEL_AHEAD = (r"(?=(?:\[\([^()\n]{1,8}\)\][ \t]*)?(?:\((?:[0-9]{1,3}(?:-[a-z]{1,4})?|[a-z]{1,5}(?:-[0-9]{1,2})?"
                r"|[A-Z]{1,5}(?:-[0-9]{1,2})?)\)|[0-9]{1,3}(?:-[a-zA-Z]{1,4})?\.|[a-z]\.|[A-Z]\.(?=[ \t]+[A-Za-z]))[ \t]+\S)")
_INLINE_RE = re.compile(r"[.:][ \t]+" + _LABEL_AHEAD)
# The same, one pattern per mark: a literal prefix (". ", ": ") lets the regex engine skip ahead with a
# substring search instead of testing a class at every character (4x faster on the corpus).
_AFTER_PERIOD_RE = re.compile(r"\. [ \t]*" + _LABEL_AHEAD)
_AFTER_COLON_RE = re.compile(r": [ \t]*" + _LABEL_AHEAD)
# "…; and    (ii) an efficient sound …": a run of items flattened onto one line; such a label must
# continue an open list (tree.py decides), since "; and (2) of this section" may be a citation.
_AFTER_SEMICOLON_RE = re.compile(r"; [ \t]*(?:(?:and|or)[ \t]+)?" + _LABEL_AHEAD)


def inline_labels(text: str) -> tuple[list[int], list[str]]:
    """Offsets in ``text`` where a label may begin inside a line, and the punctuation before each."""
    found = [(m.end(), ".") for m in _AFTER_PERIOD_RE.finditer(text)]
    if ": " in text:
        found.extend((m.end(), ":") for m in _AFTER_COLON_RE.finditer(text))
    if "; " in text:
        found.extend((m.end(), ";") for m in _AFTER_SEMICOLON_RE.finditer(text))
    if len(found) > 1:
        found.sort()
    return [o for o, _ in found], [k for _, k in found]


# A section that starts inside a line, after the sentence that ends the one before: "… shall be a
# misdemeanor. S 2251. Penalties. 1. …" (a section flattened into its neighbour). tree.py takes it only
# when its number comes after the open section's, so "as provided in § 12. The board …" stays text.
INLINE_SECTION_RE = re.compile(r"(?<=[.;:])[ \t]+(?=(?:§|S)[ \t]*(?P<num>[0-9]{1,5}(?:-[a-zA-Z]{1,5})*)\.[ \t]+[A-Z])")


def section_key(num: str) -> tuple[int, str] | None:
    """A section number's place in the law's order: "2251" -> (2251, ""), "33-a" -> (33, "a"); None if
    it does not start with a number."""
    m = re.match(r"([0-9]+)(?:-(.*))?$", num.lower())
    return (int(m.group(1)), m.group(2) or "") if m else None


# ---- tables of contents ------------------------------------------------------------------------------
# "Section 1. Short title." over "        2. Policy of state ...": an entry is a number and a heading;
# "Article  1.   Short title; ... (§§ 1-3.)" names the sections an article holds; "Sec." heads a list.
TOC_HEADER_RE = re.compile(r"[ \t]*(?:Sec\.|Section|Sections|SECTION)(?:[ \t]+(?:Description|Heading|Title))?[ \t]*$")
TOC_RANGE_RE = re.compile(r"\((?:§§?|Sections?)[ \t]*[0-9][^()\n]{0,40}\)\.?[ \t]*$")
_TOC_ENTRY_RE = re.compile(r"[ \t]*(?:(?:Section|Article|ARTICLE)[ \t]+)?(?P<num>[0-9]{1,4}(?:-[a-zA-Z]{1,4})?|[IVXLC]{1,6}(?:-[A-Z])?)"
                           r"(?:\.|(?=[ \t]+[A-Z]))[ \t]+(?P<head>\S[^\n]{0,200})$")


def toc_entry(line: str) -> bool:
    """Whether a line is a table-of-contents entry: a number and a short heading, nothing more."""
    m = _TOC_ENTRY_RE.match(line)
    if not m:
        return False
    head = TOC_RANGE_RE.sub("", m.group("head")).rstrip()
    return (not _COMMAND_RE.search(head) and not _INLINE_RE.search(head) and not _HEAD_END_RE.search(head)
            and len(head) <= MAX_HEADING)


def toc_number(line: str) -> int:
    """The number of a contents entry ("        12-a. Rent registration." -> 12), -1 if none."""
    m = _TOC_ENTRY_RE.match(line)
    if m is None:
        return -1
    base = m.group("num").split("-")[0]
    return int(base) if base.isdigit() else (roman_value(base.lower()) or -1)
