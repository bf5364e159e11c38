"""The tree builder by section: after an edit (in one process: ``navlaw serve`` rebuilding after each save)
a section whose lines are unchanged is taken whole from the document's last tree, moved to where it now
starts, and only the changed sections are built again (as frontend/chunks.py does for the parser's lines).

A *segment* is a section heading line the builder reads as a section (``Builder._section``) and the lines up
to the next heading line (of a section, article, part or LBDC record). What the builder makes of a segment
depends on:

- its lines and text, and the next heading line (the builder looks one line ahead at most: a table, a
  formula or a contents block ends at a heading line; ``_section`` reads the line after the heading);
- the roles (formats.read_lines) and inline label marks (layout.inline_labels) of those lines;
- the open article and part (a rule's sections are numbered within it; an NYCRR section reads its part's
  number) and how many sections had the same id before it (a repeat gets "*2");
- the document: its file, code, the manifest's section, whether it is hard-wrapped, names its sections or
  holds Westlaw's lines;
- the findings said so far, only in whether a kind has reached its cap (building.Findings): each question
  of the cap the segment asked is noted with its answer, and a segment is reused only where the same
  questions get the same answers.

All of that is the segment's key. A segment is kept only when reading it left the builder as a new section
leaves it: no record or contents being read, no web page ended, the same article and part open, nothing
added outside the section, and the next heading line read as a new section, article or part (so nothing
after the segment adds to it). Then the next build that meets the same key appends the frozen section,
its positions moved (the raw line and column of every node looked up again), and says its findings again at
their new places: what building it would give. A section holding a table is always built again (its rows
carry positions of their own). The memo keeps only the document's last text; it lives and goes as
chunks.py's memo does (``chunks.settle``, ``chunks.forget``).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Callable, Iterator, NamedTuple

from navlaw.diagnostics import Severity
from navlaw.frontend import chunks
from navlaw.frontend.building import MAX_FINDINGS_PER_KIND, BuilderBase, Findings, _B
from navlaw.frontend.parse import Line, section_head
from navlaw.model.nodes import Node, Provision, Section, Table

_HEADS = frozenset(("section_head", "article_head", "part_head", "record_head"))

# a finding said (False, severity, offset from the segment's start, message, code, hint, False), or a
# question of the cap (True, severity, 0, "", code, "", the answer)
Event = tuple[bool, Severity, int, str, str, str, bool]


class _Seg(NamedTuple):
    node: Node  # the frozen section
    start: int  # where the segment started in the text it was built from
    ats: tuple[int, ...]  # each node's reported offset (pre-order), from the segment's start
    events: tuple[Event, ...]


_MEMO: dict[str, dict[bytes, _Seg]] = {}  # document -> segment key -> the section built from it
chunks.kept_alike(_MEMO)
STATS: Counter[str] = Counter()  # "sections built", "sections reused", "sections unfit": what the tests count


class _Recording(Findings):
    """The builder's findings, each finding said and each question of the cap noted."""

    def __init__(self, real: Findings, s0: int) -> None:  # not Findings.__init__: the real one holds the counts
        self.real, self.s0 = real, s0
        self.events: list[Event] = []

    def add(self, severity: Severity, offset: int, message: str, code: str, hint: str = "") -> None:
        self.events.append((False, severity, offset - self.s0, message, code, hint, False))
        self.real.add(severity, offset, message, code, hint)

    def full(self, code: str, severity: Severity) -> bool:
        got = self.real.full(code, severity)
        self.events.append((True, severity, 0, "", code, "", got))
        return got

    def count(self, code: str, severity: Severity) -> int:
        return self.real.count(code, severity)


class Segments:
    """One build of a document's tree through the memo; ``keep`` makes this build's sections the memo."""

    def __init__(self, b: BuilderBase, lines: list[Line]) -> None:
        self.b = b
        self.old = _MEMO.get(b.memo, {})
        self.new: dict[bytes, _Seg] = {}
        self.heads = [k for k, line in enumerate(lines) if line.kind in _HEADS]
        self.roles = sorted(b.roles)
        self.salt = repr((b.file, repr(b.code), b.section_hint, b.wrapped, b.named_sections, b.westlaw,
                          MAX_FINDINGS_PER_KIND)).encode("utf-8", "surrogatepass")
        self.made: dict[int, tuple[bytes, _B, int, tuple[Event, ...]]] = {}  # id(section) -> key, it, start, events
        self.reused: dict[int, tuple[bytes, _Seg, int]] = {}  # id(stand-in) -> key, the memo's, start now

    def section(self, lines: list[Line], i: int) -> int:
        """``Builder._section(lines, i)`` and the lines of its segment: taken from the memo if unchanged, else
        read (and kept when the segment is one); the index of the next line to read."""
        b = self.b
        k = bisect_right(self.heads, i)
        j = self.heads[k] if k < len(self.heads) else len(lines)
        m = section_head(lines[i].body)
        if m is None or not self._clean(lines, j):
            return b._section(lines, i)
        base = b._section_base(m.group("num"))
        key = self._key(lines, i, j, base)
        got = self.old.get(key)
        if got is not None:
            if self._fits(got.events):
                return self._reuse(key, got, lines[i].start, j, base)
            STATS["sections unfit"] += 1  # unchanged, but a findings cap is reached at another place now
        return self._build(key, lines, i, j)

    def _clean(self, lines: list[Line], j: int) -> bool:
        """The builder is where a new section leaves it, and the heading at ``j`` (if any) starts a new section,
        article or part, which adds nothing to this one."""
        b, rec = self.b, self.b.rec
        if rec.record is not None or rec.start >= 0 or rec.mode or rec.opened is not None or b.page_ended:
            return False
        if j == len(lines):
            return True
        kind = lines[j].kind
        return (kind in ("section_head", "article_head", "part_head") and not b._toc_starts(lines, j)
                and not (kind == "section_head" and b._is_title(lines, j)))

    def _key(self, lines: list[Line], i: int, j: int, base: str) -> bytes:
        b = self.b
        s0 = lines[i].start
        e = lines[j].end if j < len(lines) else len(b.text)
        h = hashlib.blake2b(self.salt, digest_size=20)
        h.update(repr((b.article.id if b.article else None, b.part.id if b.part else None,
                       b.part.label if b.part else None, base, b.section_ids.get(base, 0))).encode("utf-8", "surrogatepass"))
        h.update(b.text[s0:e].encode("utf-8", "surrogatepass"))
        shape = [(x.kind, x.start - s0, x.end - s0, x.indent, x.body_start - s0,
                  [(y.text, y.start - s0, y.end - s0, y.old) for y in x.labels]) for x in lines[i : j + 1]]
        r0, r1 = bisect_left(self.roles, s0), bisect_left(self.roles, e)
        n0, n1 = bisect_left(b.inline, s0), bisect_left(b.inline, e)
        h.update(repr((shape, [(r - s0, b.roles[r]) for r in self.roles[r0:r1]],
                       [(x - s0, b.inline_marks[n]) for n, x in enumerate(b.inline[n0:n1], n0)])).encode(
            "utf-8", "surrogatepass"))
        return h.digest()

    def _fits(self, events: tuple[Event, ...]) -> bool:
        """Whether each question of the cap the segment asked gets the answer it got then."""
        findings = self.b.findings
        counts: dict[tuple[str, Severity], int] = {}
        for query, severity, _, _, code, _, answer in events:
            kind = (code, severity)
            n = counts[kind] if kind in counts else findings.count(code, severity)
            if query:
                if (n >= MAX_FINDINGS_PER_KIND) != answer:
                    return False
                if answer:
                    counts[kind] = n + 1
            else:
                counts[kind] = n + 1
        return True

    def _reuse(self, key: bytes, got: _Seg, s0: int, j: int, base: str) -> int:
        """What ``_build`` would do, from the memo: a stand-in for the section (frozen by ``freeze``), the
        section's id counted, its findings said again where they now are."""
        b = self.b
        old = got.node
        d = s0 - got.start
        node = _B(Section, old.start + d, old.end + d, id=old.id, label=old.label, heading=old.heading)
        b.page_ended = False
        b._unique(b.section_ids, base)
        b.section = b._add(b.part or b.article or b.doc, node)
        b.stack = []
        for query, severity, at, message, code, hint, _ in got.events:
            if query:
                b.findings.full(code, severity)
            else:
                b.findings.add(severity, s0 + at, message, code, hint)
        self.reused[id(node)] = (key, got, s0)
        STATS["sections reused"] += 1
        return j

    def _build(self, key: bytes, lines: list[Line], i: int, j: int) -> int:
        b = self.b
        s0 = lines[i].start
        article, part = b.article, b.part
        parent = part or article or b.doc
        holders = (b.doc, article, part)
        sizes = [len(c.children) if c is not None else -1 for c in holders]
        ids = len(b.container_ids)
        real = b.findings
        b.findings = rec = _Recording(real, s0)
        try:
            k = b._section(lines, i)
            while k < j:
                k = b._step(lines, k)
        finally:
            b.findings = real
        STATS["sections built"] += 1
        node = b.section
        grown = [len(c.children) if c is not None else -1 for c in holders]
        if (k == j and node is not None and node.start == s0 and b.article is article and b.part is part
                and parent.children and parent.children[-1] is node and len(b.container_ids) == ids
                and grown == [n + (1 if c is parent else 0) for n, c in zip(sizes, holders)]
                and self._clean(lines, j)):
            self.made[id(node)] = (key, node, s0, tuple(rec.events))
        return k

    def freeze(self, b: _B, make: Callable[[_B], Node]) -> Node:
        """The frozen section ``b``: the memo's, moved, for a stand-in; else ``make(b)``, kept if a segment."""
        hit = self.reused.get(id(b))
        if hit is not None:
            key, got, s0 = hit
            node = _moved(got.node, s0 - got.start, s0, got.ats, self.b.nt.raw_linecol)
            self.new[key] = _Seg(node, s0, got.ats, got.events)
            return node
        node = make(b)
        mine = self.made.get(id(b))
        if mine is not None and mine[1] is b and not any(isinstance(n, Table) for n in node.walk()):
            key, _, s0, events = mine
            ats = tuple((x.at if x.at >= 0 else x.start) - s0 for x in _walk(b))
            self.new[key] = _Seg(node, s0, ats, events)
        return node

    def keep(self) -> None:
        _MEMO[self.b.memo] = self.new


def _walk(b: _B) -> Iterator[_B]:
    stack = [b]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _moved(root: Node, d: int, s0: int, ats: tuple[int, ...], linecol: Callable[[int], tuple[int, int]]) -> Node:
    """``root`` moved by ``d`` characters, each node's raw line and column looked up again (a node that did not
    move is itself)."""
    at = iter(ats)

    def move(n: Node) -> Node:
        line, col = linecol(s0 + next(at))
        kids = tuple([move(c) for c in n.children]) if n.children else ()
        if d == 0 and line == n.line and col == n.column and all(x is y for x, y in zip(kids, n.children)):
            return n
        args = (n.id, n.label, n.heading, n.text, n.start + d, n.end + d, line, col, n.citation, n.flags, kids)
        if isinstance(n, Provision):
            return Provision(*args, n.level, n.old_label)
        return type(n)(*args)

    return move(root)
