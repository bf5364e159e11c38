"""The priced part of a document, kept for its next extraction as tariffs/by_section.py keeps each unpriced
section: after an edit elsewhere the rate tables and the sections a route prices are not read again.

The priced part is read as a whole, not section by section: the priced forms keep what they learn in one
section for the next (``Ctx.memo``: the unit bounds), give facts for the whole route, and a continued rate
table takes the header of the table before it. So it is keyed as a whole: on its *members* (each section a
route prices or that holds a table, in document order: each one's by_section key, i.e. its text and nodes
relative to its start), the raw line of each table (a table's schedule id names it), the route table and the
document's file, status and manifest entry. Nothing else of the document is read by the priced forms or the
rate tables (they read the nodes of the section they are given, ``Ctx.memo``, the entry and the routes).

What a reading gave is kept in *phases* (the rate tables, then each priced section): the items in order
(tariffs, late tariffs, facts), each Source with the member it lies in and its span there, each finding with
its member and offset. A reading that made a Source or said a finding outside the members is not kept. A
replay makes every Source again where its characters now are and says every finding again there (as
by_section.py does), so the result is what reading the part again gives.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from typing import Any, Callable

from navlaw.model.nodes import Node, Table
from navlaw.model.tariffs import Source
from navlaw.tariffs.by_section import STATS, SectionMemo, _Group, _Phase, _with_sources
from navlaw.tariffs.reading import Ctx

Item = tuple[str, Any]


def _tables(nodes: list[Node]) -> list[Table]:
    return [c for node in nodes for c in node.children if isinstance(c, Table)]


class PricedPart:
    """One extraction's priced part through the memo: each phase replayed when the part is unchanged, else
    read and noted; ``keep`` puts the part in the memo's next state."""

    def __init__(self, kept: SectionMemo, sections: list[tuple[Node, list[Node]]], priced: list[list[str]],
                 routes_key: str) -> None:
        self.kept = kept
        members = [k for k, (_, nodes) in enumerate(sections) if any(priced[k]) or _tables(nodes)]
        self.starts = [sections[k][0].start for k in members]
        self.ends = [max(n.end for n in sections[k][0].walk()) for k in members]
        h = hashlib.blake2b(b"priced\0" + kept.salt + routes_key.encode("utf-8", "surrogatepass"), digest_size=20)
        for k in members:
            h.update(kept._key(sections[k][0]))
            h.update(repr([t.line for t in _tables(sections[k][1])]).encode())
        self.key = h.digest()
        got = kept.old.get(self.key)
        self.got = got if isinstance(got, _Group) else None
        self.phases: list[_Phase] = []
        self.whole = True  # every Source made and finding said lies in a member

    def phase(self, read: Callable[[], list[Item]]) -> list[Item]:
        """The next phase's items: from the memo if the part is unchanged, else ``read()``'s, noted."""
        ctx = self.kept.ctx
        if self.got is not None:
            got = self.got.phases[len(self.phases)]
            self.phases.append(got)
            return self._replay(got)
        ctx.sources.clear()
        ctx.said.clear()
        items = read()
        sources = tuple((s, k, a - self.starts[k], b - self.starts[k]) for s, a, b in ctx.sources
                        if (k := self._member(a, b)) >= 0)
        said = tuple((sev, k, at - self.starts[k], m, c, h) for sev, at, m, c, h in ctx.said
                     if (k := self._member(at, at)) >= 0)
        self.whole = self.whole and len(sources) == len(ctx.sources) and len(said) == len(ctx.said)
        self.phases.append(_Phase(tuple(items), sources, said))
        return items

    def _member(self, a: int, b: int) -> int:
        k = bisect_right(self.starts, a) - 1
        return k if k >= 0 and b <= self.ends[k] else -1

    def _replay(self, got: _Phase) -> list[Item]:
        ctx, starts = self.kept.ctx, self.starts
        for severity, k, at, message, code, hint in got.said:
            Ctx.diag(ctx, severity, starts[k] + at, message, code, hint)
        moved: dict[int, Source] = {id(s): Ctx.src(ctx, starts[k] + a, starts[k] + b) for s, k, a, b in got.sources}
        if all(moved[id(s)] == s for s, _, _, _ in got.sources):
            return list(got.items)
        return [(kind, _with_sources(item, moved)) for kind, item in got.items]

    def keep(self) -> None:
        if self.got is not None:
            STATS["groups reused"] += 1
            self.kept.new[self.key] = self.got
        elif self.whole:
            STATS["groups read"] += 1
            self.kept.new[self.key] = _Group(tuple(self.phases))
