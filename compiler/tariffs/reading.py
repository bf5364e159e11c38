"""What every tariff form reads with: the document's context (positions back to the raw file, the
manifest entry, the route table), the words of a provision, and the dates its words or the manifest
give ("Effective January first, two thousand twenty-two"; "twelve months after the effective date of
this clause" through a manifest anchor; a fragment's date; else unresolved)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model import numbers as W
from navlaw.frontend.corpus import Compiled
from navlaw.frontend.manifest import Bounds, Entry, Fragment
from navlaw.model.nodes import Document, Node, Table, Text, lineage
from navlaw.model.tariffs import Amount, Effective, Source
from navlaw.tariffs.routes import RouteTable


def rx(pattern: str) -> re.Pattern[str]:
    """Compile with every literal space matching any run of white space (law text wraps anywhere), and
    every lazy run of a character class bounded (``[a-z ]+?`` -> ``{1,200}?``, ``*?`` -> ``{0,400}?``):
    the words between two key phrases ("shall pay … dollars") are a few dozen characters, and an
    unbounded lazy scan from every start makes text that repeats the first phrase quadratic."""
    out, in_class, prev = [], False, ""
    for ch in pattern:
        if ch == "[" and prev != "\\":
            in_class = True
        elif ch == "]" and prev != "\\":
            in_class = False
        out.append(("\\s" if in_class else "\\s+") if ch == " " else ch)
        prev = ch
    text = "".join(out)
    text = re.sub(r"(?<!\\)\]\+\?", "]{1,200}?", text)
    text = re.sub(r"(?<!\\)\]\*\?", "]{0,400}?", text)
    return re.compile(text)




def number_in_words(words: str) -> Decimal:
    """A number written in words ("twenty-five", "two") as a Decimal; ValueError when it is not one."""
    value = W.parse(words)[1]
    if isinstance(value, (int, Decimal)):
        return Decimal(value)
    raise ValueError(f"not a number: {words!r}")


def fraction_in_words(words: str) -> Fraction:
    """A fraction written in words ("two-thirds"); ValueError when it is not one."""
    value = W.parse(words)[1]
    if isinstance(value, Fraction):
        return value
    raise ValueError(f"not a fraction: {words!r}")


def day_of(p: W.Phrase) -> dt.date:
    """The day a date phrase of :func:`numbers.scan` names."""
    assert isinstance(p.value, dt.date), p
    return p.value


# ---- context ----------------------------------------------------------------------------------------

@dataclass
class Ctx:
    """What an extractor needs about the document it reads."""

    compiled: Compiled
    diags: Diagnostics
    routes: RouteTable = RouteTable()
    section: Node | None = None  # the section the driver is in
    memo: dict[str, Any] = field(default_factory=dict)  # what a form computes once per document

    @property
    def doc(self) -> Document:
        return self.compiled.document

    @property
    def entry(self) -> Entry | None:
        return self.compiled.entry

    @property
    def text(self) -> str:
        assert self.doc.normal is not None
        return self.doc.normal.text

    @property
    def status(self) -> str:
        s = self.entry.status if self.entry else "in-force"
        return s if s in ("superseded", "adopted", "proposed") else "in-force"

    def src(self, start: int, end: int) -> Source:
        nt = self.doc.normal
        assert nt is not None
        rs, re_ = nt.raw_offset(start), nt.raw_offset(end)
        line, col = nt.raw_linecol(start)
        return Source(self.doc.file, rs, re_, line, col, nt.raw_slice(rs, re_))

    def amount(self, value: Decimal, start: int, end: int) -> Amount:
        return Amount(value, self.src(start, end))

    def diag(self, severity: Severity, start: int, message: str, code: str, hint: str = "") -> None:
        nt = self.doc.normal
        assert nt is not None
        line, col = nt.raw_linecol(start)
        self.diags.add(Diagnostic(severity, message, self.doc.file, line, col, nt.raw_line(line), code, hint))

    def fragment(self, node_id: str) -> Fragment | None:
        if not self.entry:
            return None
        return next((f for f in self.entry.fragments if f.covers == node_id), None)


def prose(node: Node) -> Iterator[tuple[int, int]]:
    """Spans of the node's own words: its label line and continuation, and its Text children (and
    dot-leader rows, which are sentences with a leader: "Up to 50 pilotage units ..... $1090.26").
    Consecutive spans are merged: a sentence may run from the label line into a leader row."""
    start, end = node.start, node.end
    for c in node.children:
        if isinstance(c, Text) or (isinstance(c, Table) and c.style == "leader"):
            if c.start == end:
                end = c.end
                continue
            yield start, end
            start, end = c.start, c.end
    yield start, end


def provisions(doc: Document) -> Iterator[tuple[Node, Node]]:
    """(section, node) for every section and provision, in document order."""
    section: Node | None = None
    for n in doc.walk():
        if n.kind == "section":
            section = n
        if n.kind in ("section", "provision") and section is not None:
            yield section, n


# ---- dates ------------------------------------------------------------------------------------------

def add_months(d: dt.date, months: int) -> dt.date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    last = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30,
            31, 30, 31][month - 1]
    return dt.date(year, month, min(d.day, last))


_RELATIVE_RE = rx(
    r"(?i)(?P<n>[a-z]+(?:-[a-z]+)?)\s+(?P<unit>months?|days?)\s+(?:after|following)\s+the\s+"
    r"(?P<anchor>effective\s+date\s+of\s+(?:this|the)\s+[a-z ]+?)(?=[,.:;]|\s+the\s+following|\s+and\b)")
_UPON_RE = rx(r"(?i)\b(?:upon|on)\s+the\s+(?P<anchor>effective\s+date\s+of\s+this\s+[a-z]+)")
_EFFECTIVE_RE = rx(r"(?i)\b(?:effective|on\s+and\s+after|beginning(?:\s+on)?|from)\s+$")
_IMMEDIATELY_RE = rx(r"(?i)\beffective\s+immediately\b")
_EVENT_RE = rx(r"(?i)\bon\s+and\s+after\s+the\s+date\s+of\s+receipt\b")


def anchor_date(ctx: Ctx, phrase: str) -> tuple[dt.date, str, str] | None:
    """The manifest's date for a relative phrase; for one known only between bounds, its last possible day
    (``anchor_bounds`` gives the bounds)."""
    want = " ".join(phrase.lower().split())
    for a in ctx.entry.anchors if ctx.entry else ():
        if " ".join(a.phrase.lower().split()) == want:
            return a.date, a.source, a.confidence
    return None


def anchor_bounds(ctx: Ctx, phrase: str) -> Bounds | None:
    """The manifest's bounds of a relative phrase's date (``Bounds``), when it knows the date only between them."""
    want = " ".join(phrase.lower().split())
    return next((a.bounds for a in (ctx.entry.anchors if ctx.entry else ())
                 if " ".join(a.phrase.lower().split()) == want), None)


def bounded(e: Effective, ctx: Ctx, anchor: str, move: Callable[[dt.date], dt.date]) -> Effective:
    """``e`` (dated from ``anchor`` at its last possible day) with the first day it may start, when the manifest
    knows the anchor only between bounds; ``move`` counts from an anchor day as the text does."""
    b = anchor_bounds(ctx, anchor)
    if b is None or e.start is None:
        return e
    first = move(b.earliest)
    if first >= e.start:
        return e
    return replace(e, start_from=first, uncertain=f"\"{anchor}\" is known only {b.rests_on()}")


def start_date(ctx: Ctx, node: Node, text: str, offset: int) -> Effective:
    """The start date a provision's words give (``text`` begins at normalized ``offset``); the phrase
    that comes first wins ("Upon the effective date of this paragraph …; from January first, 2023 …")."""
    head = text[:400]
    found: list[tuple[int, Effective]] = []
    for p in W.scan(head):
        if p.kind == "date" and _EFFECTIVE_RE.search(head[max(0, p.start - 30):p.start]):
            assert isinstance(p.value, dt.date)
            found.append((p.start, Effective(p.value, None, "text", p.text,
                                             source=ctx.src(offset + p.start, offset + p.end))))
            break
    m = _RELATIVE_RE.search(head)
    if m:
        try:
            kind, n = W.parse(m["n"])
        except ValueError:
            kind, n = "", 0
        phrase = " ".join(m.group(0).split())
        where = ctx.src(offset + m.start(), offset + m.end())
        anchor = " ".join(m["anchor"].split())
        if kind in ("cardinal", "ordinal") and isinstance(n, int):
            hit = anchor_date(ctx, anchor)
            if hit:
                day, source, conf = hit
                def move(x: dt.date, n: int = n, months: bool = m["unit"].lower().startswith("month")) -> dt.date:
                    return add_months(x, n) if months else x + dt.timedelta(days=n)
                try:
                    d = move(day)
                except (OverflowError, ValueError):  # past 9999-12-31: no date to give it
                    found.append((m.start(), Effective(None, None, "unresolved",
                                                       f"{phrase}: from {anchor} = {day} it falls after 9999-12-31, "
                                                       "the last date navlaw can represent", source=where)))
                else:
                    found.append((m.start(), bounded(Effective(d, None, "anchor", f"{phrase} ({anchor} = {day}: {source})",
                                                               confidence=conf, source=where), ctx, anchor, move)))
            else:
                found.append((m.start(), Effective(None, None, "unresolved",
                                                   f"{phrase}: the manifest gives no date for \"{anchor}\"",
                                                   source=where)))
    m2 = _UPON_RE.search(head)
    if m2:
        where = ctx.src(offset + m2.start(), offset + m2.end())
        anchor = " ".join(m2["anchor"].split())
        hit = anchor_date(ctx, anchor)
        if hit:
            day, source, conf = hit
            found.append((m2.start(), bounded(Effective(day, None, "anchor", f"{' '.join(m2.group(0).split())} ({day}: "
                                                        f"{source})", confidence=conf, source=where), ctx, anchor,
                                              lambda x: x)))
        else:
            found.append((m2.start(), Effective(None, None, "unresolved",
                                                f"the manifest gives no date for \"{anchor}\"", source=where)))
    m3 = _IMMEDIATELY_RE.search(head)
    if m3:
        found.append((m3.start(), Effective(
            None, None, "unresolved", "\"Effective immediately\": the date the amending act took effect is not in "
            "the corpus", source=ctx.src(offset + m3.start(), offset + m3.end()))))
    m4 = _EVENT_RE.search(head)
    if m4:
        found.append((m4.start(), Effective(
            None, None, "unresolved", "from an event (the board's receipt of a joint request) whose date is not in "
            "the corpus", source=ctx.src(offset + m4.start(), offset + m4.end()))))
    if found:
        return min(found, key=lambda f: f[0])[1]
    return default_start(ctx, node)


def default_start(ctx: Ctx, node: Node) -> Effective:
    """No date in the words: a manifest fragment's date, else the document's, else unresolved."""
    for n_id in lineage(node.id):
        frag = ctx.fragment(n_id)
        if frag is not None:
            if frag.effective:
                return Effective(frag.effective, None, "manifest", f"corpus/manifest.toml fragment {n_id}",
                                 confidence=frag.confidence)
            return Effective(None, None, "unresolved", f"no date in the text; manifest fragment {n_id} gives none"
                             + (f" ({frag.note})" if frag.note else ""))
    e = ctx.entry
    if e and e.effective:
        return Effective(e.effective, None, "manifest", f"corpus/manifest.toml: {e.file} effective", confidence=e.confidence)
    return Effective(None, None, "unresolved",
                     f"no date in the text, and the manifest gives none for {Path(ctx.doc.file).name}")


def slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
