"""The timeline of the law: which text of each provision is in force on a given day.

Every document provides *text versions*: a consolidated text provides every section it holds; a
section text provides what the manifest says it covers (the whole section, or subdivisions, or the
fragments of file 004); an amending act provides the provisions it amends, adds or repeals. A version
starts on its document's effective date (a hard start) or, failing that, on the date from which the
manifest says the text is *known* to be in force (``known_from``).

A version ends where a later version of the same provision (or of an enclosing one) starts. When its
document is only known up to a date (``known_until``, file 000) and the next version starts later,
the days in between are a **gap**: the corpus has no text known to be in force there, and navlaw says
so rather than stretch either text over it. A provision no later text replaces stays in force from
the latest text the corpus has (and the output says where it comes from).
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field, replace

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend.corpus import Compiled, Corpus
from navlaw.model.nodes import Node, Section, Text, lineage, section_of


@dataclass(frozen=True)
class TextVersion:
    target: str  # provision id this version gives the text of ("89-b", "89-a/4", "88/4/b/1/ii/1/A/v")
    node: Node | None  # None: repealed
    file: str
    start: dt.date | None
    hard_start: bool  # True: the text's effective date; False: only known in force from then
    known_until: dt.date | None
    note: str  # where the start comes from, for people
    order: int  # manifest order: later texts win a tie
    compiled: Compiled | None = field(default=None, compare=False, repr=False)
    confirms: bool = False  # an act checked against the text before it: that text was in force until then
    # an act's text: the words of the old law it quotes (lower case; its CAPITALS, the new matter, left
    # out; () when it adds the provision): what is not among them is new matter (site/history.py)
    quoted: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    # a start known only between bounds (an act whose became_law the manifest bounds): ``start`` is the day
    # from which the text is certainly in force, ``possible_from`` the first day it may be; ``uncertain``
    # says on what that rests, for people
    possible_from: dt.date | None = None
    uncertain: str = ""

    def start_words(self) -> str:
        """"2024-06-01", or "between 2024-02-08 and 2024-12-31" for a start known between bounds."""
        if self.possible_from is None:
            return str(self.start)
        return f"between {self.possible_from - dt.timedelta(days=1)} and {self.start}"


@dataclass(frozen=True)
class Span:
    """When a version is in force: [start, end); ``gap_until``: after ``end`` nothing is known until then."""

    version: TextVersion
    start: dt.date | None
    end: dt.date | None
    gap_until: dt.date | None
    end_note: str
    end_possible: dt.date | None = None  # the next text may start from this day (its start known between bounds)


@dataclass
class Composed:
    """A section as in force on a day: the tree, where each part comes from, and what is not known."""

    section: Section | None
    sources: list[tuple[str, TextVersion]]  # (provision id, version), base first
    gaps: list[str]  # sentences for people
    message: str = ""  # set when no text of the section is known on that day

    @property
    def from_rule(self) -> bool:
        """Whether a part of it comes from a rule (in bracket notation: its markup is its history)."""
        return any(v.compiled is not None and v.compiled.entry is not None
                   and v.compiled.entry.kind in ("rule", "proposed-rule") for _, v in self.sources)


class Timeline:
    def __init__(self, versions: list[TextVersion]):
        self.versions: dict[str, list[TextVersion]] = {}
        for v in versions:
            self.versions.setdefault(v.target, []).append(v)
        for vs in self.versions.values():
            vs.sort(key=lambda v: (v.start or dt.date.min, v.order))

    def _partials(self) -> dict[str, list[str]]:
        """Section id -> the ids below it that have versions of their own, shallow first."""
        if not hasattr(self, "_partial_index"):
            index: dict[str, list[str]] = {}
            for t in self.versions:
                sec = section_of(t)
                if t != sec:
                    index.setdefault(sec, []).append(t)
            self._partial_index = {k: sorted(v, key=lambda t: (t.count("/"), t)) for k, v in index.items()}
        return self._partial_index

    # ---- spans --------------------------------------------------------------------------------------

    def _next_start(self, v: TextVersion) -> tuple[dt.date | None, TextVersion | None]:
        """The first later version of the same provision or of one that encloses it."""
        best: tuple[dt.date | None, TextVersion | None] = (None, None)
        for t in lineage(v.target):
            for w in self.versions.get(t, ()):
                if w is v or w.start is None or v.start is None:
                    continue
                later = w.start > v.start or (w.start == v.start and w.order > v.order and t == v.target)
                if later and (best[0] is None or w.start < best[0]):
                    best = (w.start, w)
        return best

    def span(self, v: TextVersion) -> Span:
        """When ``v`` is in force (found once per version: the boundaries, each day's composition, the notes
        of a law page and the tariffs' dates all ask; a timeline's versions do not change once made)."""
        memo: dict[int, tuple[TextVersion, Span]] = self.__dict__.setdefault("_spans", {})
        got = memo.get(id(v))
        if got is None or got[0] is not v:  # (the version itself is kept with its span: an id is never reused)
            got = memo[id(v)] = (v, self._span(v))
        return got[1]

    def _span(self, v: TextVersion) -> Span:
        nxt, w = self._next_start(v)
        if nxt is None:
            return Span(v, v.start, None, None, "latest text in the corpus")
        if v.known_until is not None and v.known_until < nxt and not (w is not None and w.confirms):
            return Span(v, v.start, v.known_until, nxt,
                        f"known in force until {v.known_until}; the corpus has no text of it from then until {nxt} "
                        f"({short_name(w.file) if w else ''})")
        if w is not None and w.possible_from is not None:
            return Span(v, v.start, nxt, None, f"replaced {w.start_words()} by {short_name(w.file)}",
                        max(w.possible_from, v.start) if v.start else w.possible_from)
        return Span(v, v.start, nxt, None, f"replaced on {nxt} by {short_name(w.file) if w else ''}")

    def active(self, target: str, day: dt.date) -> tuple[TextVersion | None, str]:
        """The version of ``target`` in force on ``day``, or (None, why)."""
        vs = [v for v in self.versions.get(target, ()) if v.start is not None]
        before = [v for v in vs if v.start is not None and v.start <= day]
        if not before:
            if vs:
                return None, (f"the corpus has no text of {target} known to be in force before {vs[0].start} "
                              f"({short_name(vs[0].file)})")
            return None, f"the corpus has no dated text of {target}"
        v = before[-1]
        s = self.span(v)
        if s.end is not None and day >= s.end:
            if s.gap_until is not None and day < s.gap_until:
                return None, (f"no text of {target} in this corpus is known to be in force on {day}: "
                              f"{short_name(v.file)} is known until {s.end}, and the next text "
                              f"starts on {s.gap_until}")
            return None, f"{target}: no version found for {day}"
        return v, ""

    # ---- composition ----------------------------------------------------------------------------------

    def section_on(self, section: str, day: dt.date) -> Composed:
        """The section as in force on ``day`` (composed once per section and day: the site's pages, its
        histories and both change reports ask for the same ones; the result is shared, not to be changed)."""
        memo: dict[tuple[str, dt.date], Composed] = self.__dict__.setdefault("_composed", {})
        got = memo.get((section, day))
        if got is None:
            got = memo[(section, day)] = self._compose(section, day)
        return got

    def _compose(self, section: str, day: dt.date) -> Composed:
        base, why = self.active(section, day)
        if base is None:
            return Composed(None, [], [], why)
        if base.node is None:
            when = f"on a day {base.start_words()}" if base.possible_from else f"on {base.start}"
            return Composed(None, [(section, base)], [], f"§ {section} was repealed {when} "
                                                        f"({short_name(base.file)})")
        tree: Node = base.node
        sources: list[tuple[str, TextVersion]] = [(section, base)]
        gaps: list[str] = []
        partial = self._partials().get(section, [])
        for t in partial:
            v, why = self.active(t, day)
            if v is None:
                first = next((w for w in self.versions[t] if w.start is not None), None)
                if first is not None and first.start is not None and day < first.start:
                    if base.known_until is not None and day >= base.known_until:
                        gaps.append(f"{t}: no text in this corpus is known to be in force on {day} "
                                    f"({short_name(base.file)} is known until {base.known_until}, "
                                    f"{short_name(first.file)} from {first.start})")
                        tree = _put(tree, t, _gap_node(t, gaps[-1]))
                    continue  # the base text's own provision stands
                if why:
                    gaps.append(why)
                    tree = _put(tree, t, _gap_node(t, why))
                continue
            if v.order < base.order and (v.start or dt.date.min) <= (base.start or dt.date.min):
                continue  # an older partial text under a newer whole text: the whole text wins
            tree = _put(tree, t, v.node)
            sources.append((t, v))
        assert isinstance(tree, Section)
        return Composed(tree, sources, gaps)

    def pending(self, section: str, day: dt.date) -> list[str]:
        """Texts of the section that may already be in force on ``day`` (their start is known only between
        bounds, and ``day`` falls between them), said for people: the composed text is the one before them."""
        out = []
        for t in (section, *self._partials().get(section, ())):
            for w in self.versions.get(t, ()):
                if w.possible_from is not None and w.start is not None and w.possible_from <= day < w.start:
                    out.append(f"{t}: {short_name(w.file.split('#')[0])} may already be in force on {day} (from a day "
                               f"{w.start_words()}, certainly from {w.start}); the text above is the one before it. "
                               f"{w.uncertain}")
        return out

    def latest(self, section: str) -> Composed:
        # the section's own versions and those of the provisions below it (indexed: a scan of every
        # version for every section grew with the square of the corpus)
        dated = [v.start for t in (section, *self._partials().get(section, ())) for v in self.versions.get(t, ())
                 if v.start is not None]
        if not dated:
            return Composed(None, [], [], f"no dated text of § {section}")
        return self.section_on(section, max(dated))

    def boundaries(self, section: str | None = None) -> list[dt.date]:
        """Dates on which a text of ``section`` (or of any section) starts or stops being known."""
        if not hasattr(self, "_bounds"):
            bounds: dict[str, set[dt.date]] = {}
            for t, vs in self.versions.items():
                here = bounds.setdefault(section_of(t), set())
                for v in vs:
                    if v.start:
                        here.add(v.start)
                    s = self.span(v)
                    if s.end:
                        here.add(s.end)
            self._bounds = {k: sorted(v) for k, v in bounds.items()}
        if section is not None:
            return self._bounds.get(section, [])
        return sorted({d for ds in self._bounds.values() for d in ds})

    def sections(self) -> list[str]:
        if not hasattr(self, "_sections"):
            self._sections = sorted({section_of(t) for t in self.versions})
        return list(self._sections)

    def changing(self, start: dt.date, end: dt.date) -> list[str]:
        """The sections with a version boundary in (start, end], in sections() order (indexed by date: a
        change report per date scanned every section's boundaries)."""
        if not hasattr(self, "_by_date"):
            by: dict[dt.date, list[str]] = {}
            for sec in self.sections():
                for d in self.boundaries(sec):
                    by.setdefault(d, []).append(sec)
            self._by_date = by
            self._dates = sorted(by)
        dates = self._dates[bisect.bisect_right(self._dates, start):bisect.bisect_right(self._dates, end)]
        if len(dates) <= 1:
            return [sec for d in dates for sec in self._by_date[d]]
        found = {sec for d in dates for sec in self._by_date[d]}
        return [sec for sec in self.sections() if sec in found]


def short_name(file: str) -> str:
    return file.rsplit("/", 1)[-1]


def _gap_node(target: str, why: str) -> Node:
    return Text(id=target, text=f"[{why}]", flags=("gap",))


def _put(tree: Node, target: str, new: Node | None) -> Node:
    """``tree`` with the node ``target`` replaced by ``new`` (None removes it); a new id is added under
    its nearest existing ancestor, after the last child whose id sorts before it."""
    if tree.id == target:
        return new if new is not None else replace(tree, children=())

    def walk(n: Node) -> tuple[Node, bool]:
        kids = list(n.children)
        for i, c in enumerate(kids):
            if c.id == target:
                if new is None:
                    del kids[i]
                else:
                    kids[i] = new
                return replace(n, children=tuple(kids)), True
            if target.startswith(c.id + "/") and c.id:
                got, done = walk(c)
                if done:
                    kids[i] = got
                    return replace(n, children=tuple(kids)), True
        return n, False

    out, done = walk(tree)
    if done or new is None:
        return out
    return _insert(out, target.rsplit("/", 1)[0], new)


def _insert(n: Node, parent: str, new: Node) -> Node:
    """Add ``new`` under ``parent``, or under its nearest existing ancestor."""
    if n.id != parent:
        for i, c in enumerate(n.children):
            if c.id and (parent == c.id or parent.startswith(c.id + "/")):
                kids = list(n.children)
                kids[i] = _insert(c, parent, new)
                return replace(n, children=tuple(kids))
    return replace(n, children=n.children + (new,))


# ---- building the timeline from the corpus -----------------------------------------------------------------

def document_versions(corpus: Corpus) -> list[TextVersion]:
    out: list[TextVersion] = []
    for order, c in enumerate(corpus.documents):
        e = c.entry
        if e is None:
            continue
        start = e.effective or e.known_from
        hard = e.effective is not None
        note = (f"effective {e.effective} ({e.confidence}; {e.source})" if e.effective else
                f"known in force from {e.known_from} ({e.confidence})" if e.known_from else "date not established")
        doc = c.document
        if e.kind == "consolidated":
            for s in doc.sections():
                # a duplicate section number (New York has two §§ 45-aaaa) is a section of its own: "45-aaaa*2"
                out.append(TextVersion(s.id, s, c.source.path, start, hard, e.known_until, note, order, c))
            continue
        targets = list(e.covers) + [f.covers for f in e.fragments]
        for t in targets:
            node = doc.find(t)
            if node is None:
                continue
            out.append(TextVersion(t, node, c.source.path, start, hard, e.known_until, note, order, c))
    # what a partial text covers, an earlier whole text also gave: that earlier text of the provision
    # is a version too, so it ends (or leaves a gap) where the partial text starts
    wholes: dict[str, list[TextVersion]] = {}
    for v in out:
        if v.target == section_of(v.target):
            wholes.setdefault(v.target, []).append(v)
    for v in list(out):
        if v.target in wholes:
            continue
        for w in wholes.get(section_of(v.target), ()):
            if w.order < v.order and w.node is not None:
                old = w.node.find(v.target)
                if old is not None:
                    out.append(replace(w, target=v.target, node=old))
    return out


def check_conflicts(timeline: Timeline, diags: Diagnostics, manifest_path: str) -> None:
    """Two texts of one provision starting the same day from different documents: an error naming both."""
    for t, vs in timeline.versions.items():
        for a, b in zip(vs, vs[1:]):
            if a.start is not None and a.start == b.start and a.file != b.file and a.hard_start and b.hard_start:
                diags.add(Diagnostic(Severity.ERROR, f"two texts of {t} take effect on {a.start}: {short_name(a.file)} "
                                     f"and {short_name(b.file)}", manifest_path, code="timeline-conflict",
                                     hint="the manifest must say which text applies (dates or covers)"))
