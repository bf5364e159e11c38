"""The tariffs of a section that no route prices, kept for the next extraction of the same document (in one
process: ``navlaw serve`` rebuilding after each save), so that an edit reads again only the sections it
changed.

What the unpriced forms (forms.UNPRICED: fees in prose, penalties) find in a section depends on the section
alone: its normalised text, its nodes (kinds, ids, citations, spans within it, table styles), and of the
document only its file, its status and its manifest entry (dates, fragments). The memo is keyed on exactly
that (the section's place in the file is not in the key). A section some route prices is always read again:
the priced forms keep what they learn in one section for the next (``Ctx.memo``) and give facts for the
whole route.

Every position a reused tariff carries (a :class:`Source`: raw offsets, line:column, the raw characters) is
made again from where its normalised characters now are, with the document's own ``Ctx.src``, and every
finding is said again with ``Ctx.diag`` at its new place: nothing is shifted by arithmetic, so the result is
what reading the section again gives.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Iterator, NamedTuple

from navlaw.diagnostics import Severity
from navlaw.model.formula import Bin, Neg, Num, Units
from navlaw.model.nodes import Node, Table
from navlaw.model.tariffs import AnyTariff, Source
from navlaw.tariffs.reading import Ctx


@dataclass
class RecordingCtx(Ctx):
    """A Ctx that notes the normalised span of every Source it makes and every finding it says."""

    sources: list[tuple[Source, int, int]] = field(default_factory=list)
    said: list[tuple[Severity, int, str, str, str]] = field(default_factory=list)

    def src(self, start: int, end: int) -> Source:
        s = super().src(start, end)
        self.sources.append((s, start, end))
        return s

    def diag(self, severity: Severity, start: int, message: str, code: str, hint: str = "") -> None:
        self.said.append((severity, start, message, code, hint))
        super().diag(severity, start, message, code, hint)


class _Read(NamedTuple):
    start: int  # where the section started (normalised offset) when it was read
    tariffs: tuple[AnyTariff, ...]
    sources: tuple[tuple[Source, int, int], ...]  # each Source of the tariffs, and its normalised span
    said: tuple[tuple[Severity, int, str, str, str], ...]


class _Phase(NamedTuple):
    """What one reading of the priced part of a document gave: the rate tables, or one priced section."""

    items: tuple[tuple[str, Any], ...]  # ("out" | "late", tariff) or ("fact", (route, name, value)), in order
    sources: tuple[tuple[Source, int, int, int], ...]  # each Source, the group section it is in, its span there
    said: tuple[tuple[Severity, int, int, str, str, str], ...]  # severity, group section, offset there, ...


class _Group(NamedTuple):
    """The priced part of a document as last read: its rate tables, then each section a route prices."""

    phases: tuple[_Phase, ...]


_MEMO: dict[str, dict[bytes, _Read | _Group]] = {}  # document -> section (or group) key -> what was read there
STATS: Counter[str] = Counter()  # "sections read", "sections reused", "groups read", "groups reused": for the tests


class SectionMemo:
    """One extraction of a document through the memo; ``keep`` makes this extraction's sections the memo
    (the memo keeps the document's last text only: it does not grow edit after edit)."""

    def __init__(self, ctx: RecordingCtx) -> None:
        self.ctx = ctx
        self.document = ctx.doc.file
        entry = ctx.entry
        self.salt = repr((ctx.doc.file, ctx.status, entry)).encode("utf-8", "surrogatepass")
        self.old = _MEMO.get(self.document, {})
        self.new: dict[bytes, _Read | _Group] = {}

    def read(self, section: Node, nodes: list[Node], forms: tuple[Callable[..., Iterator[Any]], ...]) -> list[AnyTariff]:
        """The tariffs ``forms`` read in ``nodes`` (the section and its provisions), from the memo when the
        section is unchanged."""
        key = self._key(section)
        got = self.old.get(key) or self.new.get(key)
        if isinstance(got, _Read):
            STATS["sections reused"] += 1
            self.new[key] = got
            return self._replay(got, section.start)
        STATS["sections read"] += 1
        ctx = self.ctx
        ctx.sources.clear()
        ctx.said.clear()
        out: list[AnyTariff] = []
        for node in nodes:
            for form in forms:
                for t in form(ctx, "", node):
                    assert not isinstance(t, tuple), "an unpriced form gives tariffs only"
                    out.append(t)
        s0 = section.start
        self.new[key] = _Read(s0, tuple(out), tuple((s, a - s0, b - s0) for s, a, b in ctx.sources),
                              tuple((sev, at - s0, m, c, h) for sev, at, m, c, h in ctx.said))
        return out

    def _replay(self, got: _Read, s0: int) -> list[AnyTariff]:
        ctx = self.ctx
        for sev, at, message, code, hint in got.said:
            Ctx.diag(ctx, sev, s0 + at, message, code, hint)
        moved = {id(s): Ctx.src(ctx, s0 + a, s0 + b) for s, a, b in got.sources}
        if all(moved[id(s)] == s for s, _, _ in got.sources):  # not moved (a section above the edit)
            return list(got.tariffs)
        return [_with_sources(t, moved) for t in got.tariffs]

    def _key(self, section: Node) -> bytes:
        s0 = section.start
        nodes = list(section.walk())
        h = hashlib.blake2b(self.salt, digest_size=20)
        # the text of the whole section, its provisions' too (a section node's own span is its heading line: a
        # word of a provision changed for one of the same length changed no span, and its tariffs were kept)
        h.update(self.ctx.text[s0 : max(n.end for n in nodes)].encode("utf-8", "surrogatepass"))
        h.update(repr([(type(n).__name__, n.id, n.label, n.citation, n.start - s0, n.end - s0, n.flags,
                        n.style if isinstance(n, Table) else "") for n in nodes]).encode("utf-8", "surrogatepass"))
        return h.digest()

    def keep(self) -> None:
        _MEMO[self.document] = self.new


_LEAVES = (str, int, float, Decimal, dt.date, type(None))  # values that hold no Source
# the same, by their exact types, and a formula's nodes (numbers with their offsets in the cell, units and
# operations: model/formula.py), which hold none either: looked up first, not walked into (most of a tariff)
_NO_SOURCE = frozenset((str, int, bool, float, Decimal, dt.date, type(None), Num, Units, Bin, Neg))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _with_sources(obj: Any, moved: dict[int, Source]) -> Any:
    """``obj`` (a tariff, or any value in one) with each Source replaced by ``moved[id(source)]``."""
    cls = type(obj)
    if cls in _NO_SOURCE:
        return obj
    if cls is Source or isinstance(obj, Source):
        return moved[id(obj)]
    if isinstance(obj, _LEAVES):
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        names = _FIELDS.get(type(obj))
        if names is None:
            names = _FIELDS[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
        changes = {}
        for name in names:
            value = getattr(obj, name)
            new = _with_sources(value, moved)
            if new is not value:
                changes[name] = new
        return dataclasses.replace(obj, **changes) if changes else obj
    if isinstance(obj, (tuple, list)):
        items = [_with_sources(x, moved) for x in obj]
        if all(a is b for a, b in zip(items, obj)):
            return obj
        if isinstance(obj, list):
            return items
        return type(obj)(*items) if hasattr(obj, "_fields") else tuple(items)
    if isinstance(obj, dict):
        pairs = {k: _with_sources(v, moved) for k, v in obj.items()}
        return pairs if any(pairs[k] is not v for k, v in obj.items()) else obj
    return obj


def memo_of(document: str) -> dict[bytes, _Read | _Group] | None:
    """What the memo holds for ``document`` (to keep on disk for the next process: tariffs/extract.py)."""
    return _MEMO.get(document)


def recall(document: str, memo: Any) -> None:
    """Give the memo what a former process kept of ``document`` (BuildCache: sealed, ours), unless it has
    its own. Only a section's key decides whether it is reused, so an old memo is never wrong, only missed."""
    if document not in _MEMO and isinstance(memo, dict):
        _MEMO[document] = memo


_AGAIN: set[str] = set()  # the documents this process extracted before


def settle(document: str) -> None:
    """After a document's extraction in a build: the first time this process reads it, its memo is let go (a
    one-off ``navlaw build`` holds no more than the tariffs; the build cache keeps the memo for the next
    process); from the second time on (``navlaw serve`` rebuilding after a save) it is kept for the next
    (as frontend/chunks.py's memo)."""
    if document not in _AGAIN:
        _AGAIN.add(document)
        _MEMO.pop(document, None)


def forget() -> None:
    """Drop the memo (tests)."""
    _MEMO.clear()
    _AGAIN.clear()
