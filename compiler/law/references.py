"""Cross-references: every place the law text cites a section, with its position.

Forms read (the words lawyers use): "§ 89-a", "section 89-b of this chapter", "section eighty-eight
of this article", "sections thirty-five and thirty-five-a of this chapter", "article four of this
chapter". References outside the chapter ("section 15-0505 of the environmental conservation law",
"section 2101 (34) of title 46 of the United States Code", "21 NYCRR") are external citations.
A chapter reference whose section is not in the corpus is a lint finding with file:line:col.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from navlaw.model import numbers as W
from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend.corpus import Corpus, per_document
from navlaw.law.sectionwise import by_section, own_spans, read
from navlaw.model.nodes import other_code, Document, Node, section_of

_NUM = r"(?:\d+(?:-[a-z]{1,5})?)"
_WORDS = r"(?:[a-z]+(?:[- ][a-z]+){0,3}?)"
DIGIT_REF = re.compile(rf"§+\s?(?P<d1>{_NUM})(?![\w.-]{{0,40}}\s+of\s+the\s+[a-z ]{{1,80}}?\s+law)"
                        rf"|\bsections?\s+(?P<d2>{_NUM})(?=\s+of\s+this\s+(?:article|chapter)\b)")
_WORD_REF = re.compile(rf"\bsections?\s+(?P<w1>{_WORDS}?)(?:-(?P<s1>[a-z]{{1,2}}))?"
                       rf"(?:\s+and\s+(?P<w2>{_WORDS}?)(?:-(?P<s2>[a-z]{{1,2}}))?)?"
                       rf"\s+of\s+this\s+(?P<scope>article|chapter)\b")
EXTERNAL = re.compile(r"\bsection\s+[\w().-]+(?:\s*\(\d+\))?\s+of\s+(?:title\s+\d+\s+of\s+)?the\s+"
                       r"(?:[a-z]+\s+){0,4}(?:law|Code)\b|\b\d+\s+NYCRR\b", re.I)


@dataclass(frozen=True)
class Reference:
    file: str
    source: str  # provision id where the reference is
    target: str  # section id ("88", "35-a") or "" for an external citation
    text: str
    start: int  # offsets in the document's normalized text
    end: int
    external: bool = False


def section_number(words: str, suffix: str | None = None) -> str | None:
    """"ninety-five" -> "95"; ("seventy-three", "b") -> "73-b"; None if not a number in words."""
    try:
        kind, n = W.parse(words)
    except ValueError:
        return None
    if kind != "cardinal":
        return None
    return f"{n}" + (f"-{suffix}" if suffix else "")


def find(corpus: Corpus) -> list[Reference]:
    """Every cross-reference of the corpus, document by document."""
    return per_document(corpus, "references", _find_in)


def _find_in(doc: Document) -> list[Reference]:
    """The document's references, section by section (a section unchanged since the last search: its last,
    moved to where the section now starts)."""
    return by_section(doc, "references", _find_nodes, _moved)


def _find_nodes(nodes: Iterable[Node], text: str, file: str, article: str) -> list[Reference]:
    """The references in ``nodes`` of the text ``text`` (the article does not matter)."""
    out: list[Reference] = []
    for n in nodes:
        if not read(n):
            continue
        for start, end in own_spans(n):
            for a, b, target, external in in_text(text[start:end], section_of(n.id)):
                out.append(Reference(file, n.id, target, text[start + a:start + b], start + a, start + b, external))
    return out


def _moved(r: Reference, by: int) -> Reference:
    return replace(r, start=r.start + by, end=r.end + by)


def in_text(chunk: str, own_section: str = "") -> list[tuple[int, int, str, bool]]:
    """The references in one run of law text, in the order found: (start, end, target section,
    external); an external citation has target "". A digit reference to ``own_section`` is left out."""
    out: list[tuple[int, int, str, bool]] = []
    if "ection" not in chunk and "§" not in chunk and "NYCRR" not in chunk:
        return out
    taken: list[tuple[int, int]] = []
    for m in EXTERNAL.finditer(chunk):
        taken.append((m.start(), m.end()))
        out.append((m.start(), m.end(), "", True))
    for m in _WORD_REF.finditer(chunk):
        if any(a <= m.start() < b for a, b in taken):
            continue
        for w, sfx in ((m["w1"], m["s1"]), (m["w2"], m["s2"])):
            sec = section_number(w, sfx) if w else None
            if sec:
                out.append((m.start(), m.end(), sec, False))
        taken.append((m.start(), m.end()))
    for m in DIGIT_REF.finditer(chunk):
        if any(a <= m.start() < b for a, b in taken):
            continue
        sec = m["d1"] or m["d2"]
        if sec and own_section != sec:
            out.append((m.start(), m.end(), sec, False))
    return out


def lint(corpus: Corpus, refs: list[Reference], known: set[str]) -> Diagnostics:
    """A chapter reference to a section the corpus does not have: a warning at the reference."""
    diags = Diagnostics()
    by_file = {c.document.file: c.document.normal for c in corpus.documents}
    for r in refs:
        if r.external or r.target in known:
            continue
        if other_code(r.source):
            continue  # a rule's "section 54.2 of this Title" is in 21 NYCRR, not the chapter
        nt = by_file.get(r.file)
        if nt is None:
            continue
        line, col = nt.raw_linecol(r.start)
        diags.add(Diagnostic(Severity.WARNING, f"reference to § {r.target} (\"{r.text}\"), which is not in the corpus",
                             r.file, line, col, nt.raw_line(line), "reference-unresolved",
                             "the section may be repealed, renumbered or cut from this text"))
    return diags
