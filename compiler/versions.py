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

import datetime as dt
from dataclasses import dataclass, field, replace

from .diagnostics import Diagnostic, Diagnostics, Severity
from .frontend import Compiled, Corpus
from .tree import Node, Section, Text, lineage, section_of


@dataclass(frozen=True)
class TextVersion:
    target: str  # provision id this version gives the text of ("89-b", "89-a/4", "88/4/b/1/ii/A/v")
    node: Node | None  # None: repealed
    file: str
    start: dt.date | None
    hard_start: bool  # True: the text's effective date; False: only known in force from then
    known_until: dt.date | None
    note: str  # where the start comes from, for people
    order: int  # manifest order: later texts win a tie
    compiled: Compiled | None = field(default=None, compare=False, repr=False)
    confirms: bool = False  # an act checked against the text before it: that text was in force until then


@dataclass(frozen=True)
class Span:
    """When a version is in force: [start, end); ``gap_until``: after ``end`` nothing is known until then."""

    version: TextVersion
    start: dt.date | None
    end: dt.date | None
    gap_until: dt.date | None
    end_note: str


@dataclass
class Composed:
    """A section as in force on a day: the tree, where each part comes from, and what is not known."""

    section: Section | None
    sources: list[tuple[str, TextVersion]]  # (provision id, version), base first
    gaps: list[str]  # sentences for people
    message: str = ""  # set when no text of the section is known on that day


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
        nxt, w = self._next_start(v)
        if nxt is None:
            return Span(v, v.start, None, None, "latest text in the corpus")
        if v.known_until is not None and v.known_until < nxt and not (w is not None and w.confirms):
            return Span(v, v.start, v.known_until, nxt,
                        f"known in force until {v.known_until}; the corpus has no text of it from then until {nxt} "
                        f"({_name(w.file) if w else ''})")
        return Span(v, v.start, nxt, None, f"replaced on {nxt} by {_name(w.file) if w else ''}")

    def active(self, target: str, day: dt.date) -> tuple[TextVersion | None, str]:
        """The version of ``target`` in force on ``day``, or (None, why)."""
        vs = [v for v in self.versions.get(target, ()) if v.start is not None]
        before = [v for v in vs if v.start <= day]  # type: ignore[operator]
        if not before:
            if vs:
                return None, (f"the corpus has no text of {target} known to be in force before {vs[0].start} "
                              f"({_name(vs[0].file)})")
            return None, f"the corpus has no dated text of {target}"
        v = before[-1]
        s = self.span(v)
        if s.end is not None and day >= s.end:
            if s.gap_until is not None and day < s.gap_until:
                return None, (f"no text of {target} in this corpus is known to be in force on {day}: "
                              f"{_name(v.file)} is known until {s.end}, and the next text "
                              f"starts on {s.gap_until}")
            return None, f"{target}: no version found for {day}"
        return v, ""

    # ---- composition ----------------------------------------------------------------------------------

    def section_on(self, section: str, day: dt.date) -> Composed:
        base, why = self.active(section, day)
        if base is None:
            return Composed(None, [], [], why)
        if base.node is None:
            return Composed(None, [(section, base)], [], f"§ {section} was repealed on {base.start} "
                                                        f"({_name(base.file)})")
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
                                    f"({_name(base.file)} is known until {base.known_until}, "
                                    f"{_name(first.file)} from {first.start})")
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

    def latest(self, section: str) -> Composed:
        dated = [v.start for t, vs in self.versions.items() if t == section or t.startswith(section + "/")
                 for v in vs if v.start is not None]
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
        return sorted({section_of(t) for t in self.versions})


def _name(file: str) -> str:
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
                if "*" in s.id:
                    continue  # a duplicate section number: the first text is the one versioned
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


def build_timeline(corpus: Corpus, diags: Diagnostics | None = None) -> Timeline:
    from .acts import apply_acts

    versions = document_versions(corpus)
    timeline = Timeline(versions)
    if corpus.acts:
        timeline = apply_acts(corpus, timeline, diags if diags is not None else corpus.diagnostics)
    return timeline


def check_conflicts(timeline: Timeline, diags: Diagnostics, manifest_path: str) -> None:
    """Two texts of one provision starting the same day from different documents: an error naming both."""
    for t, vs in timeline.versions.items():
        for a, b in zip(vs, vs[1:]):
            if a.start is not None and a.start == b.start and a.file != b.file and a.hard_start and b.hard_start:
                diags.add(Diagnostic(Severity.ERROR, f"two texts of {t} take effect on {a.start}: {_name(a.file)} "
                                     f"and {_name(b.file)}", manifest_path, code="timeline-conflict",
                                     hint="the manifest must say which text applies (dates or covers)"))




# ---- tariffs follow the timeline ---------------------------------------------------------------------------

def _version_of(timeline: Timeline, file: str, provision: str) -> TextVersion | None:
    best: TextVersion | None = None
    for t in lineage(provision):
        for v in timeline.versions.get(t, ()):
            vfile = v.compiled.source.path if v.compiled is not None else v.file
            if vfile == file and (best is None or len(v.target) > len(best.target)):
                best = v
    return best


def act_tariffs(timeline: Timeline, diags: Diagnostics) -> list:  # type: ignore[type-arg]
    """Tariffs read from the texts amending acts put in force."""
    from .extract_tariffs import extract_document

    out = []
    for vs in timeline.versions.values():
        for v in vs:
            if v.compiled is not None and v.compiled.entry is not None and v.compiled.entry.kind == "act":
                out.extend(t for t in extract_document(v.compiled, diags)
                           if t.provision == v.target or t.provision.startswith(v.target + "/"))
    return out


def follow_timeline(tariffs: list, timeline: Timeline) -> list:  # type: ignore[type-arg]
    """Date each tariff by the text it comes from:

    - a schedule the text does not date, and that no later schedule of its text follows, is in force
      while its text is known to be (file 000's $5.30 § 89-b rate: from 2002-07-01);
    - nothing is in force before its text's effective date (an act's copy of older schedules);
    - a schedule ends when a later text of its series starts, or — when its text is only known up to a
      date and the next text starts later — at that date, with the gap left unresolved.
    """
    from .tariffs import Effective

    by_series: dict[str, list[int]] = {}
    for i, t in enumerate(tariffs):
        by_series.setdefault(t.series, []).append(i)
    out = list(tariffs)
    version_of = {i: _version_of(timeline, t.file, t.provision) for i, t in enumerate(tariffs)}
    for idxs in by_series.values():
        files: dict[str, dt.date] = {}
        for i in idxs:
            v = version_of[i]
            if v is not None and v.start is not None:
                files[out[i].file] = min(files.get(out[i].file, dt.date.max), v.start)
        last_in_file = {out[i].file: i for i in idxs}
        ordered = sorted(files.items(), key=lambda kv: kv[1])
        cap: dict[str, tuple[dt.date, str, bool]] = {}
        for (fa, _), (fb, sb) in zip(ordered, ordered[1:]):
            va = next((version_of[i] for i in idxs if out[i].file == fa and version_of[i] is not None), None)
            ku = va.known_until if va is not None else None
            if ku is not None and ku < sb:
                cap[fa] = (ku, f"the corpus has no text known in force from {ku} until {sb} ({_name(fb)})", True)
            else:
                cap[fa] = (sb, f"replaced by {_name(fb)} from {sb}", False)
        for i in idxs:
            t, v = out[i], version_of[i]
            e = t.effective
            if e.start_basis == "with":
                if v is None or v.start is None:
                    continue
                span = timeline.span(v)
                e = Effective(v.start, span.end, "with-text", f"in force with its text: {v.note}",
                              "unresolved" if span.gap_until else ("successor" if span.end else "open"),
                              span.end_note if span.end else "", "inferred" if not v.hard_start else e.confidence,
                              e.source)
            if v is not None and v.start is not None:
                undated = e.start_phrase.startswith(("no date in the text", "the manifest gives no date"))
                if e.start is None and undated and last_in_file.get(t.file) == i and not v.hard_start:
                    e = Effective(v.start, e.end, "manifest", f"no date in the text; {v.note}", e.end_basis,
                                  e.end_phrase, "inferred", e.source)
                if v.hard_start and (e.end is None or e.end > v.start) and (e.start is None or e.start < v.start) \
                        and e.start_basis != "unresolved":
                    e = Effective(v.start, e.end, "text-version", f"from its text's effective date: {v.note}",
                                  e.end_basis, e.end_phrase, e.confidence, e.source)
            if v is not None and t.effective.start_basis != "with":
                span = timeline.span(v)
                if span.end is not None and ((e.end is None and e.end_basis != "unresolved") or
                                             (e.end is not None and e.end > span.end)):
                    e = Effective(e.start, span.end, e.start_basis, e.start_phrase,
                                  "unresolved" if span.gap_until else "successor", span.end_note, e.confidence,
                                  e.source)
            if t.file in cap:
                end, why, gap = cap[t.file]
                if (e.end is None and e.end_basis != "unresolved") or (e.end is not None and e.end > end):
                    e = Effective(e.start, end, e.start_basis, e.start_phrase, "unresolved" if gap else "successor",
                                  why, e.confidence, e.source)
            if e is not t.effective:
                out[i] = replace(t, effective=e)
    # a schedule an act repeats but which ends before the act takes effect was never law under it
    return [t for t in out if not (t.effective.start is not None and t.effective.end is not None
                                   and t.effective.end <= t.effective.start and t.effective.start_basis == "text-version")]


def inherit_clamps(tariffs: list) -> list:  # type: ignore[type-arg]
    """A schedule read from an act's new text keeps the unit minimum and maximum of the schedule it
    replaces when the act leaves the provision that states them unchanged (§ 89-b(4)(b)(2) when an act
    amends only (b)(1))."""
    from .tariffs import BracketSchedule

    out = list(tariffs)
    for i, t in enumerate(out):
        if not (isinstance(t, BracketSchedule) and "#section-" in t.file and t.min_units is None
                and t.max_units is None and t.effective.start is not None):
            continue
        day = t.effective.start - dt.timedelta(days=1)
        prev = next((p for p in out if isinstance(p, BracketSchedule) and p.series == t.series and p is not t
                     and "#section-" not in p.file and p.effective.contains(day) is True), None)
        if prev is not None and (prev.min_units or prev.max_units):
            note = (f"The unit minimum and maximum are those of the text the act leaves unchanged "
                    f"({prev.citation}, {_name(prev.file)}).")
            out[i] = replace(t, min_units=prev.min_units, max_units=prev.max_units, notes=t.notes + (note,))
    return out
