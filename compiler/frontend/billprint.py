"""A bill as printed, reduced to its text: line numbers, page headers ("S. 4417  2", "A. 3007--A   12"),
the EXPLANATION footer, LBD codes and a Markdown export's header (a `## Full Text` section) are not the
act. What is left is a list of (raw line number, column offset, text) — the offset map every diagnostic
uses to point at the file as received. Justified spacing is folded where an instruction is read.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class PrintLine(NamedTuple):
    line: int  # 1-based line in the raw file
    column: int  # 0-based offset of ``text`` in that raw line (a stripped line number before it)
    text: str


_PAGE_HEADER = re.compile(r"^\s*(?:S|A)\.\s*\d{1,5}(?:--[A-Z])?(?:\s+\d{1,4})?\s*$")
_EXPLANATION = re.compile(r"^\s*EXPLANATION--Matter in\b")
_EXPLANATION_2 = re.compile(r"^\s*\[\s*\]\s*is old law to be omitted\.?\s*$")
_LBD = re.compile(r"^\s*LBD\d{5}-\d{2}-\d\s*$")
_LINE_NUMBER = re.compile(r"^(\s{0,8}\d{1,2})(?=\s{1,}\S|\s*$)")
_FULL_TEXT = re.compile(r"(?m)^##\s+Full\s+Text\s*$")


def clean(raw: str) -> tuple[list[PrintLine], list[str]]:
    """The act's lines without the print's furniture, and what was taken out (for a note)."""
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = 0
    removed: list[str] = []
    m = _FULL_TEXT.search(raw.replace("\r\n", "\n"))
    if m is not None:  # a Markdown export: a header of metadata, then the printed bill
        start = raw.replace("\r\n", "\n")[: m.end()].count("\n") + 1
        removed.append("the Markdown header before `## Full Text`")
    numbered = _numbered(lines[start:])
    if numbered:
        removed.append("line numbers")
    out: list[PrintLine] = []
    skip_next_explanation = False
    for k in range(start, len(lines)):
        text = lines[k]
        if skip_next_explanation and _EXPLANATION_2.match(text):
            skip_next_explanation = False
            continue
        if _EXPLANATION.match(text):
            skip_next_explanation = True
            removed.append("the EXPLANATION footer") if "the EXPLANATION footer" not in removed else None
            continue
        if _LBD.match(text) or _PAGE_HEADER.match(text):
            what = "LBD codes" if _LBD.match(text) else "page headers"
            if what not in removed:
                removed.append(what)
            continue
        col = 0
        if numbered:
            n = _LINE_NUMBER.match(text)
            if n is not None:
                col = n.end()
                text = text[col:]
        out.append(PrintLine(k + 1, col, text))
    # the footer's LBD code can be glued to the end of the last line ("... [ ] is old law to be omitted.\n  LBD06289-01-3## Full Text")
    return out, removed


def _numbered(lines: list[str]) -> bool:
    """A line-numbered print: most non-blank lines begin with a line number, 1 to 99 in order on a page."""
    numbers = [int(m.group(1)) for l in lines if l.strip() and (m := _LINE_NUMBER.match(l)) is not None]
    body = [l for l in lines if l.strip()]
    if len(numbers) < 10 or len(numbers) < 0.6 * len(body):
        return False
    rising = sum(1 for a, b in zip(numbers, numbers[1:]) if b == a + 1)
    return rising >= 0.6 * len(numbers)


def furniture(line: str) -> bool:
    """Whether a line is a bill print's furniture (its page header, the EXPLANATION footer, its LBD code),
    for the tree builder, which keeps such a line flagged, out of the law."""
    return bool(_PAGE_HEADER.match(line) or _EXPLANATION.match(line) or _EXPLANATION_2.match(line) or _LBD.match(line))
