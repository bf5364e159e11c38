"""Defined terms: "Overall length" is the distance …; "racing shell" is defined to mean …

A definition holds where the law says ("as used in this subdivision", "for the purpose of this
section", "as used in this article"); otherwise in the provision that encloses the definitions (a
"(c) Definitions." paragraph defines for its subdivision). The site shows a term's definition on hover
only inside that scope, and matches whole words only, the longest term first, so a term is never
found inside a longer defined phrase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from navlaw import escape as esc
from navlaw.frontend.corpus import Corpus, per_document
from navlaw.law.sectionwise import by_section, own_spans, read
from navlaw.model.nodes import other_code, Article, Document, Node, lineage, section_of

_QUOTE = "\"“”"
_DEF = re.compile(r"[\"“](?P<term>[A-Za-z][A-Za-z -]{1,60}?)[\"”]\s+(?:is defined to mean|shall mean|means|is|shall "
                  r"include|includes)\b(?P<rest>[^.]*(?:\.(?=\d)[^.]*)*\.?)")
_DEF_AS_USED = re.compile(r"[\"“]?(?P<term>[A-Z][A-Za-z]+(?: [A-Za-z]+){0,2}?)[\"”]?,?\s+as used in this "
                          r"(?P<what>subdivision|paragraph|section|article|chapter),?\s+shall\s+(?:be determined|mean)"
                          r"(?P<rest>[^.]*\.?)")
_SCOPE = re.compile(r"(?i)\b(?:as used in|for the purposes? of) this (?P<what>subdivision|paragraph|subparagraph|"
                    r"section|article|chapter)\b")


@dataclass(frozen=True)
class Definition:
    term: str
    text: str  # the defining sentence
    source: str  # provision id of the definition
    scope: str  # provision or section id; "article:<label>"; or "chapter"
    file: str


def _levels(node_id: str) -> dict[str, str]:
    """Which enclosing id is the "subdivision", "paragraph", … of a provision id."""
    names = ["section", "subdivision", "paragraph", "subparagraph"]
    parts = lineage(node_id)[::-1]  # section first
    return {names[i]: parts[i] for i in range(min(len(parts), len(names)))}


def find(corpus: Corpus) -> list[Definition]:
    """Every definition of the corpus, document by document."""
    return per_document(corpus, "definitions", _find_in)


def _find_in(doc: Document) -> list[Definition]:
    """The document's definitions, section by section (a section unchanged since the last search: its last)."""
    return by_section(doc, "definitions", _find_nodes)


def _find_nodes(nodes: Iterable[Node], text: str, file: str, article: str) -> list[Definition]:
    """The definitions in ``nodes`` (in document order, after the article ``article``) of the text ``text``."""
    out: list[Definition] = []
    for n in nodes:
        if isinstance(n, Article):
            article = n.label
        if not read(n):
            continue
        section_scope = None
        for start, end in own_spans(n):
            chunk = text[start:end]
            sm = _SCOPE.search(chunk)
            if sm:
                section_scope = sm["what"].lower()
            for m in _DEF_AS_USED.finditer(chunk):
                scope = _levels(n.id).get(m["what"].lower(), section_of(n.id))
                if m["what"].lower() == "article":
                    scope = f"article:{article}"
                elif m["what"].lower() == "chapter":
                    scope = "chapter"
                out.append(Definition(m["term"].strip(), " ".join(m.group(0).split()), n.id, scope, file))
            for m in _DEF.finditer(chunk):
                scope_word = section_scope
                sentence = " ".join((m.group(0)).split())
                if scope_word == "article":
                    scope = f"article:{article}"
                elif scope_word == "chapter":
                    scope = "chapter"
                elif scope_word in ("section", "subdivision", "paragraph", "subparagraph"):
                    scope = _levels(n.id).get(scope_word, section_of(n.id))
                else:
                    parts = lineage(n.id)
                    scope = parts[1] if len(parts) > 1 else parts[0]  # the provision enclosing the definitions
                out.append(Definition(m["term"].strip(), sentence, n.id, scope, file))
    return out


def in_scope(d: Definition, node_id: str, article: str) -> bool:
    if d.scope == "chapter":
        return not other_code(node_id)
    if d.scope.startswith("article:"):
        return d.scope == f"article:{article}"
    return d.scope in lineage(node_id)


def mark(escaped: str, defs: list[Definition]) -> str:
    """Wrap each whole-word occurrence of a defined term (longest first, never inside a longer term or
    inside the quotes that define it) in <dfn title="definition">; ``escaped`` is HTML-escaped text
    that may already hold tags, which are left alone."""
    if not defs:
        return escaped
    terms = sorted({d.term.lower(): d for d in defs}.values(), key=lambda d: -len(d.term))
    pattern = re.compile(r"(?<![\w&;-])(" + "|".join(re.escape(d.term) for d in terms) + r")(?![\w-])", re.I)
    by_term = {d.term.lower(): d for d in terms}
    parts = re.split(r"(<[^>]+>)", escaped)
    out = []
    inside_tag = 0
    for p in parts:
        if p.startswith("<"):
            inside_tag += -1 if p.startswith("</") else (0 if p.endswith("/>") else 1)
            out.append(p)
            continue
        if inside_tag > 0:
            out.append(p)  # already inside a link or span: leave it
            continue

        def wrap(m: re.Match[str]) -> str:
            before = p[max(0, m.start() - 6):m.start()]
            if before.endswith(("&quot;", "“")):
                return m.group(0)  # the defining occurrence itself
            d = by_term[m.group(0).lower()]
            title = esc.text(d.text)
            return f'<dfn class="term" title="{title}">{m.group(0)}</dfn>'

        out.append(pattern.sub(wrap, p))
    return "".join(out)

