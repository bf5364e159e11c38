"""What every tree must hold, checked on every document after it is built, each violation a warning at
its line (never at 1:1): ids are unique; in each list of provisions every label continues the one
before it, or the builder said at that line why not; no law text holds page chrome or print furniture;
no provision's text begins with a label (a provision the tree did not split off); no section's text
begins with another section's heading.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend import labels as L
from navlaw.model.nodes import Document, Node

# Words of a web page or a printed bill that are never law text: "Top of Page", "Last modified: …",
# "‹ Prev", a site's "Universal Citation:", a bill's "EXPLANATION--Matter in italics" and its LBD number.
_FURNITURE_RE = re.compile(r"Top of Page|Last (?:modified|updated):|‹ Prev|Next ›|Universal Citation:|Disclaimer:"
                           r"|EXPLANATION--Matter|\bLBD[0-9]{5}-[0-9]{2}-[0-9]\b")
_STARTS_WITH_LABEL_RE = re.compile(r"(?:\((?:[0-9]{1,3}(?:-[a-z]{1,4})?|[a-z]{1,5}|[A-Z]{1,5})\)|[0-9]{1,3}(?:-[a-z]{1,4})?\.)"
                                   r"[ \t]+[A-Z\"“]")
_SECTION_START_RE = re.compile(r"(?:§|S)[ \t]*[0-9]{1,5}(?:-[a-zA-Z]{1,5})*\.[ \t]+[A-Z]")
_EXPLAINED = {"label-sequence", "duplicate", "duplicate-section", "label-inline", "label-ambiguous", "parse"}


def check_tree(doc: Document, diags: Diagnostics, file: str | None = None) -> int:
    """Warn at each violation of the tree's invariants that no finding of the builder explains at its
    line; returns how many were reported."""
    path = file or doc.file
    said = {d.line for d in diags if d.file == path and d.code in _EXPLAINED}
    nt = doc.normal
    found: list[tuple[int, int, str]] = []
    # one pass over the whole text for furniture words; a node's text is searched only if one falls in it
    marks = _marks(nt.text) if nt is not None else []
    seen: dict[str, Node] = {}
    readings: dict[str, list[L.Reading]] = {}
    for n in doc.walk():
        nid, kind, text = n.id, n.kind, n.text
        if nid:
            if nid in seen and n.line not in said:
                found.append((n.line, n.column, f"the id {nid!r} is given twice (first at line {seen[nid].line})"))
            seen.setdefault(nid, n)
        if text and marks and kind != "table" and not _navigation(n):
            k = bisect_left(marks, n.start)
            m = _FURNITURE_RE.search(text) if k < len(marks) and marks[k] < n.end else None
            if m is not None:
                found.append((n.line, n.column, f"{_name(n)} holds page chrome or print furniture "
                              f"({m.group()!r}): it is not law text"))
        if kind == "text":
            continue
        if text and kind == "provision" and text[0] in "(0123456789" and _STARTS_WITH_LABEL_RE.match(text) \
                and n.line not in said:
            found.append((n.line, n.column, f"the text of {_name(n)} begins with a label "
                          f"({text.split()[0]!r}): a provision the tree did not split off"))
        if text and text[0] in "§S" and _SECTION_START_RE.match(text):
            found.append((n.line, n.column, f"the text of {_name(n)} begins with a section heading "
                          f"({' '.join(text.split()[:2])!r}): a section the tree did not read"))
        if n.children:
            _sequence(n, said, found, readings)
    for line, col, message in found:
        diags.add(Diagnostic(Severity.WARNING, message, path, line, col, nt.raw_line(line) if nt else "",
                             "invariant", "check the outline (`navlaw parse FILE`) at this line"))
    return len(found)


_WORDS = ("Top of Page", "Last modified:", "Last updated:", "‹ Prev", "Next ›", "Universal Citation:", "Disclaimer:",
          "EXPLANATION--Matter", "LBD")


def _marks(text: str) -> list[int]:
    """Where furniture words occur in ``text``, sorted (substring searches: faster than one pattern)."""
    out: list[int] = []
    for w in _WORDS:
        at = text.find(w)
        while at >= 0:
            out.append(at)
            at = text.find(w, at + 1)
    return sorted(out)


def _sequence(parent: Node, said: set[int], found: list[tuple[int, int, str]],
              readings: dict[str, list[L.Reading]]) -> None:
    """Each provision label of ``parent``'s list continues the one before it (or starts the list)."""
    kids = [c for c in parent.children if c.kind == "provision" and "deleted" not in c.flags]
    if not kids or "fragment" in parent.flags or any("fragment" in c.flags for c in kids):
        return  # the manifest's fragments: each says which provision it is, in no sequence of labels
    prev: list[L.Reading] = []
    prev_label = ""
    for c in kids:
        cands = readings.get(c.label)
        if cands is None:
            cands = readings[c.label] = L.readings(c.label)
        ok = (not prev and any(r.first for r in cands)) or any(r.continues(p) for r in cands for p in prev) or \
            any(r.style == "other" for r in cands)
        if not ok and c.line not in said and cands:
            before = f"after {prev_label}" if prev else "as the first of its list"
            found.append((c.line, c.column, f"label {c.label} {before} in {parent.citation or parent.id or 'the text'} "
                          "does not continue its list, and nothing said why"))
        prev, prev_label = cands, c.label


def _navigation(n: Node) -> bool:
    return bool({"chrome", "furniture", "toc", "chapter", "title", "record", "editorial-note"}.intersection(n.flags))


def _name(n: Node) -> str:
    return n.citation or (f"{n.kind} {n.label}".strip() if n.label else n.kind)

