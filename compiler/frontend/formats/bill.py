"""A bill as printed (a plain print, LBDC's HTML print, a Markdown export), reduced to its text: line numbers, page headers ("S. 4417  2", "A. 3007--A   12"),
the EXPLANATION footer, LBD codes and a Markdown export's header (a `## Full Text` section) are not the
act. What is left is a list of (raw line number, column offset, text) — the offset map every diagnostic
uses to point at the file as received. Justified spacing is folded where an instruction is read.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from navlaw.model.lazy_re import lazy
from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role

name = "bill"


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

# the same furniture inside a flattened print (one line): the footer, LBD code, page header
_FLAT_FURNITURE = lazy(r"EXPLANATION--Matter in .{0,60}? is new; matter in brackets \[ ?\] is old law to be "
                       r"omitted\.?|\bLBD\d{5}-\d{2}-\d\b|\b[AS]\.\s?\d{1,5}(?:--[A-Z])?\s+\d{1,3}(?=\s)")
_FLAT_START = lazy(r"(?<=\s)(?=(?:Section|§|S)\s*\d+\.\s)"  # an act's section
                   r"|(?<=[.:;])\s+(?=\((?:[ivxlcIVXLC]+|[a-zA-Z]{1,2}|\d{1,3})(?:-[a-zA-Z0-9]+)?\)\s)"  # a label
                   r"|(?<=[\d)])\s+(?=\((?:[ivxlcIVXLC]+|[a-zA-Z]{1,2}|\d{1,3})\)\s+[A-Z])"  # … after a table
                   r"|(?<=[.:;])\s+(?=\d{1,3}(?:-[a-zA-Z]+)?\.\s+[A-Z])"  # a subdivision "2. The"
                   r"|\s+(?=\d[\d,.]*\s+(?:to\s+[\d,.]+|and\s+(?:up|over))\s+\$)"  # a row of a rate table
                   r"|(?<=\s)(?=THE\s+PEOPLE\s+OF\s+THE\s+STATE)|(?<=\s)(?=AN\s+ACT\b)")


def clean(raw: str) -> tuple[list[PrintLine], list[str]]:
    """The act's lines without the print's furniture, and what was taken out (for a note)."""
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = 0
    removed: list[str] = []
    m = _FULL_TEXT.search(raw.replace("\r\n", "\n"))
    if m is not None:  # a Markdown export: a header of metadata, then the printed bill
        start = raw.replace("\r\n", "\n")[: m.end()].count("\n") + 1
        removed.append("the Markdown header before `## Full Text`")
    if _PRE.search(raw):  # LBDC's HTML print (bill text XML): its <PRE> lines, tags read, one raw line each
        lines = _html_lines(lines)
        removed.append("the HTML of the print (new matter <B><U> read as CAPITALS, <B><S> as [brackets])")
    body = [l for l in lines[start:] if l.strip()]
    if body and len(body) <= 3 and sum(map(len, body)) > 600:  # a print flattened to a line or a few
        return _unflatten(lines, start, removed)
    numbered = _numbered(lines[start:])
    if numbered:
        removed.append("line numbers")
    out: list[PrintLine] = []
    skip_next_explanation = False
    for k in range(start, len(lines)):
        text = lines[k]
        if numbered:  # a numbered line may be furniture too ("  12  LBD14151-02-4")
            n = _LINE_NUMBER.match(text)
            rest = text[n.end():] if n is not None else text
            if _LBD.match(rest) or _PAGE_HEADER.match(rest) or _EXPLANATION.match(rest) or _EXPLANATION_2.match(rest):
                text = rest
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


def _unflatten(lines: list[str], start: int, removed: list[str]) -> tuple[list[PrintLine], list[str]]:
    """A print whose line breaks were lost (a JSON field, a copy from a web page): its furniture and line
    numbers taken out, then broken again where a new paragraph must begin (an act's section, a label after
    a sentence, a row of a rate table), each paragraph written as the print writes one (its first line
    indented more than the rest), so that the act is read as from the print. Every piece keeps its raw
    line and column."""
    out: list[PrintLine] = []
    for k in range(start, len(lines)):
        raw = lines[k]
        if not raw.strip():
            continue
        drop = [(m.start(), m.end()) for m in _FLAT_FURNITURE.finditer(raw)]
        if drop and "the print's furniture (flattened)" not in removed:
            removed.append("the print's furniture (flattened)")
        numbers = _flat_line_numbers(raw, drop)
        if numbers and "line numbers" not in removed:
            removed.append("line numbers")
        cut = sorted(drop + numbers)
        keep: list[tuple[int, str]] = []  # (raw column, text) of what is left, in order
        last = 0
        for a, b in cut:
            if a >= last:
                keep.append((last, raw[last:a]))
                last = b
        keep.append((last, raw[last:]))
        text = "".join(" " * len(t) if not t.strip() else t for _, t in keep)
        columns = [c + i for c, t in keep for i in range(len(t))]
        starts = [0] + [m.end() for m in _FLAT_START.finditer(text)]
        for a, b in zip(starts, starts[1:] + [len(text)]):
            piece = " ".join(text[a:b].split())
            if not piece:
                continue
            col = columns[a + len(text[a:b]) - len(text[a:b].lstrip())] if a < len(columns) else 0
            words, line, first = piece.split(" "), "", True
            for w in words:  # written as the print does: first line indented 2, the rest 1
                if line and len(line) + 1 + len(w) > 72:
                    out.append(PrintLine(k + 1, col, ("  " if first else " ") + line))
                    line, first = w, False
                else:
                    line = f"{line} {w}" if line else w
            out.append(PrintLine(k + 1, col, ("  " if first else " ") + line))
    return out, removed


def _flat_line_numbers(raw: str, furniture: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of a flattened print's line numbers: runs of 1, 2, 3 … standing alone, each one a
    printed line (4 to 130 characters) after the one before; a run starts again at 1 after a page."""
    cands = [(m.start(), m.end(), int(m.group(0))) for m in re.finditer(r"(?<!\S)\d{1,2}(?!\S)", raw)]
    runs: list[list[tuple[int, int, int]]] = []  # every run begun at a "1"; a number of the text ends none
    for a, b, v in cands:
        for run in runs:
            last = run[-1]
            if last[2] + 1 == v and 4 <= a - last[0] - _inside(furniture, last[0], a) <= 130:
                run.append((a, b, v))
                break
        else:
            if v == 1:
                runs.append([(a, b, v)])
    return sorted({(x, y) for run in runs if len(run) >= 5 for x, y, _ in run})


def _inside(spans: list[tuple[int, int]], a: int, b: int) -> int:
    """How many characters of [a, b) the spans cover (furniture between two numbered lines)."""
    return sum(max(0, min(b, y) - max(a, x)) for x, y in spans)


_PRE = re.compile(r"(?i)<pre\b[^>]*>")
_NEW = lazy(r"(?is)<b>\s*<u>(.*?)</u>\s*</b>")
_OLD = lazy(r"(?is)<b>\s*<s>(.*?)</s>\s*</b>")


def _html_lines(lines: list[str]) -> list[str]:
    """The lines of an HTML print as the plain print has them: what is outside <PRE> blocks is blank; new
    matter (<B><U>, underscored) in CAPITALS as the plain print prints it, deleted matter (<B><S>) in
    [brackets], other tags dropped, entities read ("&#167;" is §). Each raw line stays one line."""
    import html

    out: list[str] = []
    inside = False
    for line in lines:
        text = ""
        rest = line
        while rest:
            if not inside:
                m = _PRE.search(rest)
                if m is None:
                    break
                inside, rest = True, rest[m.end():]
                continue
            end = re.search(r"(?i)</pre\s*>", rest)
            part, rest = (rest[:end.start()], rest[end.end():]) if end else (rest, "")
            part = _OLD.sub(lambda k: "[" + k.group(1) + "]", part)
            part = _NEW.sub(lambda k: html.unescape(re.sub(r"<[^>]*>", "", k.group(1))).upper(), part)
            text += html.unescape(re.sub(r"<[^>]*>", "", part))
            if end:
                inside = False
        out.append(text)
    return out


def furniture(line: str) -> bool:
    """Whether a line is a bill print's furniture (its page header, the EXPLANATION footer, its LBD code),
    for the tree builder, which keeps such a line flagged, out of the law."""
    return bool(_PAGE_HEADER.match(line) or _EXPLANATION.match(line) or _EXPLANATION_2.match(line) or _LBD.match(line))


def line_role(body: str) -> str | None:
    """"furniture" for a line of the print that is not the act (its content after indentation)."""
    if ("EXPLANATION" in body or "LBD" in body or "old law" in body or body[:2] in ("S.", "A.")) and furniture(body):
        return "furniture"
    return None


# How a bill names itself at its head, and its footer: a bill given as law text is said to be one.
_BILL = re.compile(r"(?im)^\s*(?:\*\*Bill\s+ID:\*\*|##\s+Full\s+Text\b|AN\s+ACT\s+to\s+(?:amend|add|repeal)\b|"
                   r"The\s+People\s+of\s+the\s+State\s+of\s+New\s+York,\s+represented|EXPLANATION--Matter\s+in\b)")
_BILL_HEAD = 8192


def named(text: str) -> re.Match[str] | None:
    """Where the text says it is a bill: at its head ("AN ACT to amend …", "**Bill ID:**"), or the
    print's footer ("EXPLANATION--Matter in …") with what follows it."""
    bill = _BILL.search(text[:_BILL_HEAD])
    if bill is None and "EXPLANATION--Matter" in text:
        bill = _BILL.search(text, text.index("EXPLANATION--Matter") - 1)
    return bill


def first_named_line(text: str) -> int:
    m = _BILL.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def detect(data: bytes) -> float:
    head = data[:_BILL_HEAD].decode("utf-8", "replace")
    if _PRE.search(head) and "EXPLANATION--Matter" in head:
        return 0.8  # LBDC's HTML print: the act is in its <PRE> block
    return 0.8 if _BILL.search(head) is not None or b"EXPLANATION--Matter" in data else 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    return None


def lines(text: str) -> list[SourceLine]:
    """A print read as law text: the print's furniture is kept out of the law, line by line (an act
    read as an act goes through ``clean``, which also takes out the line numbers)."""
    return lines_by_role(text, line_role)
