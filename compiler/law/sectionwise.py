"""What a finder finds in a document, section by section: after an edit of one section of a large document,
only that section is searched again (issue 32). For finders that read nothing but the law text of each
section and provision (its own words and the text runs directly under it), its id and the article it
stands in: the defined terms (law/definitions.py) and the cross-references (law/references.py).

A section's finds are kept under a digest of exactly what the finder reads there — every section and
provision id in it, each of their text runs (where it starts from the section's start, and its words), the
articles it names and the article it stands in — so a section whose digest is the one it had last time gives
what it gave then, its offsets moved to where the section now starts. The memo is of one process (``navlaw
serve`` rebuilding after each save) and of the last search of each document only: it does not grow edit after
edit, and a one-off build keeps none (a document's memo is kept from its second search in the process on).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

from navlaw.cache import digest
from navlaw.model.nodes import Article, Document, Node, Section, Text

T = TypeVar("T")

# (finder, document) -> digest of a section's inputs -> (the section's start then, what was found there)
_MEMO: dict[tuple[str, str], dict[str, tuple[int, list[Any]]]] = {}
_AGAIN: set[tuple[str, str]] = set()  # (finder, document) searched once already in this process
# document's file -> (the document last searched, its sections' digests in document order): the finders search
# the same document one after the other (the law stage's references, the site's definitions); the digests are
# of the document's frozen nodes and text, so the next search takes them when given the very same document,
# and lets the document go (it is not held past its build)
_KEYS: dict[str, tuple[Document, list[str]]] = {}

Find = Callable[[Iterable[Node], str, str, str], list[T]]  # nodes, the document's text, its file, the article


def own_spans(n: Node) -> list[tuple[int, int]]:
    """Where a section's or provision's own law text is: its span and those of the text runs directly under it."""
    return [(n.start, n.end)] + [(c.start, c.end) for c in n.children if isinstance(c, Text)]


def read(n: Node) -> bool:
    """Whether a finder reads the node's text: a section or provision with an id."""
    return n.kind in ("section", "provision") and bool(n.id)


def by_section(doc: Document, finder: str, find: Find[T], moved: Callable[[T, int], T] | None = None) -> list[T]:
    """``find(doc.walk(), text, file, "")``, the same list in the same order, made section by section: a
    section whose inputs are unchanged since this document's last search gives its last finds (``moved`` by the
    distance its start moved, for finds that hold offsets). ``find`` takes the nodes in document order, the
    document's normal text, its file and the label of the article they follow (it keeps track of the
    articles it passes)."""
    text = doc.normal.text if doc.normal is not None else ""
    name = (finder, doc.file)
    last = _MEMO.get(name, {})
    keep = name in _AGAIN
    _AGAIN.add(name)
    now: dict[str, tuple[int, list[Any]]] = {}
    known = _KEYS.get(doc.file)
    keys = known[1] if known is not None and known[0] is doc else None
    made: list[str] = []
    out: list[T] = []
    article = ""
    stack: list[Node] = [doc]
    while stack:
        n = stack.pop()
        if not isinstance(n, Section):
            if isinstance(n, Article):
                article = n.label
            out.extend(find((n,), text, doc.file, article))
            stack.extend(reversed(n.children))
            continue
        nodes = list(n.walk())
        key = keys[len(made)] if keys is not None else _inputs(nodes, text, article, n.start)
        made.append(key)
        got = last.get(key)
        if got is None:
            found = find(nodes, text, doc.file, article)
        else:
            then, kept = got
            found = list(kept) if moved is None or then == n.start else [moved(x, n.start - then) for x in kept]
        if keep:
            now[key] = (n.start, list(found))
        out.extend(found)
        article = next((m.label for m in reversed(nodes) if isinstance(m, Article)), article)
    if keep:
        _MEMO[name] = now
    if keys is None:
        _KEYS[doc.file] = (doc, made)
    else:
        del _KEYS[doc.file]
    return out


def _inputs(nodes: list[Node], text: str, article: str, base: int) -> str:
    """Digest of what a finder reads in a section (its nodes ``nodes``, starting at ``base``)."""
    parts: list[str] = [article]
    for m in nodes:
        if isinstance(m, Article):
            parts += ["article", m.label]
        elif read(m):
            parts += [m.kind, m.id]
            for a, b in own_spans(m):
                parts += [f"{a - base},{b - base}", text[a:b]]
    return digest(*parts)
