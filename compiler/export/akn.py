"""Akoma Ntoso 3.0 (OASIS LegalDocML) XML: one ``<act>`` per section as in force from each date its text
changes, valid against the OASIS schema (schema/akomantoso30.xsd; tests/test_export.py validates every file).

What a file holds:

1. **Identity** (FRBR, the AKN naming convention): the work is the section, ``/akn/us-ny/act/<kind>/<code>/
   <section>`` where ``<code>`` comes from the section's own law (its citation "Nav. Law" gives ``nav``, an
   id prefix such as ``21nycrr`` gives itself) and ``<kind>`` is ``statute``, or ``regulation`` for a text
   the manifest gives as a rule; the expression adds ``/eng@<date>``, the date from which this text is law
   (or known to be: the lifecycle says which).
2. **eIds** by the naming convention: ``sec_89-b__subsec_4__para_b__subpara_1``. A provision's level is
   its depth in its id (the levels the legislature cites), mapped to AKN elements as ``LEVELS`` says:
   subdivision ``subsection`` (subsec), paragraph (para), subparagraph (subpara), clause, subclause,
   item ``point``, subitem and anything deeper ``level`` (lvl, the NY level in ``class``).
3. **Content**: ``num`` (the label as printed), ``heading``, the text in ``content`` (or ``intro`` and
   ``wrapUp`` around the provisions below it; text between two of them in an ``hcontainer``); tables as
   ``<table>`` (header cells ``th``); chapter references as ``<ref href>`` to the cited section's work;
   a part of the section the corpus has no text for on that day as a ``remark``, never as law.
4. **History**: ``<lifecycle>`` has an event for each date a text of the section (or of a provision in
   it) starts, up to this expression; each event's source is the document it comes from: an amending act
   of the corpus as a ``passiveRef``, any other text as a ``TLCReference`` showing the manifest's
   ``source``. Each applied instruction of an act becomes a ``textualMod`` in ``<passiveModifications>``
   (source: the act's section; destination: the provision; force: from its effective date).
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet

from navlaw.export import akn_path
from navlaw.export.shapes import bare
from navlaw.model.nodes import Formula, Node, Provision, Section, Table, Text, other_code, section_of
from navlaw.law.references import in_text

if TYPE_CHECKING:
    from navlaw.frontend.corpus import Corpus
    from navlaw.frontend.acts import Act, Instruction
    from navlaw.law.timeline import TextVersion, Timeline

NS = "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"
COUNTRY = "us-ny"
# New York's levels below the section -> (AKN element, eId prefix); deeper or unnamed levels: ("level", "lvl")
LEVELS = {
    "subdivision": ("subsection", "subsec"),
    "paragraph": ("paragraph", "para"),
    "subparagraph": ("subparagraph", "subpara"),
    "clause": ("clause", "clause"),
    "subclause": ("subclause", "subclause"),
    "item": ("point", "point"),
}
ORDER = ("subdivision", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem")
MOD_TYPE = {"amend": "substitution", "replace": "substitution", "add": "insertion", "repeal": "repeal",
            "renumber": "renumbering"}
RULE_KINDS = ("rule", "proposed-rule")


# ---- identity -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Work:
    """A section as an AKN work."""

    section: str  # "89-b", "21nycrr/55.2"
    code: str  # "nav", "21nycrr"
    kind: str  # "statute" | "regulation"
    cite: str  # "Nav. Law § 89-b"

    @property
    def number(self) -> str:
        return self.section.split("/", 1)[1] if other_code(self.section) else self.section

    @property
    def uri(self) -> str:
        return f"/akn/{COUNTRY}/act/{self.kind}/{self.code}/{_num(self.number)}"

    def expression(self, day: dt.date) -> str:
        return f"{self.uri}/eng@{day.isoformat()}"


def _num(label: str) -> str:
    """An eId or URI component from a label or id part: "(b)" -> "b", "4." -> "4", "45-aaaa*2" -> "45-aaaa-2"."""
    return re.sub(r"[^A-Za-z0-9.-]+", "-", label).strip("-.") or "x"


def work_of(section: str, node: Section, kinds: set[str]) -> Work:
    """The work of a section: its code from its own citation ("Nav. Law § 89-b" -> "nav") or id prefix."""
    cite = node.citation or f"§ {section}"
    code = other_code(section) or re.sub(r"law$", "", re.sub(r"[^a-z0-9]", "", cite.split("§")[0].lower())) or "law"
    return Work(section, code, "regulation" if kinds & set(RULE_KINDS) else "statute", cite)


def eid(section_node_id: str, node_id: str) -> str:
    """``88/4/b`` under section ``88`` -> ``sec_88__subsec_4__para_b``."""
    parts = [f"sec_{_num(section_node_id.split('/', 1)[1] if other_code(section_node_id) else section_node_id)}"]
    ids = node_id[len(section_node_id):].strip("/").split("/") if node_id != section_node_id else []
    prefix = section_node_id
    for p in ids:
        prefix = f"{prefix}/{p}"
        parts.append(f"{_element(prefix, section_node_id)[1]}_{_num(p)}")
    return "__".join(parts)


def _element(node_id: str, section_id: str) -> tuple[str, str, str]:
    """The AKN element, eId prefix and NY level of a provision: its level is its depth below the section
    in its id, as the legislature cites it ("item (A) of subclause 1 of clause (ii) of subparagraph 1 of
    paragraph (b) of subdivision 4 of section 88" is ``88/4/b/1/ii/1/A``), whatever the label looks like."""
    depth = node_id[len(section_id):].count("/") - 1
    level = ORDER[depth] if 0 <= depth < len(ORDER) else f"level-{depth + 1}"
    return (*LEVELS.get(level, ("level", "lvl")), level)


# ---- the document ---------------------------------------------------------------------------------------

def sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    e = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        e.text = text
    return e


class _Writer:
    """One section as in force on one day, as an ``<akomaNtoso>`` element."""

    def __init__(self, work: Work, known: AbstractSet[str], sections: dict[str, Work]):
        self.work, self.known, self.sections = work, known, sections
        self.tables = 0
        self.here = ""  # the eId of the element being written: tables and text boxes are numbered under it

    def body(self, section: Section, parent: ET.Element) -> None:
        el = sub(parent, "section", eId=eid(section.id, section.id))
        sub(el, "num", f"§ {section.label}.".replace("..", "."))
        if section.heading:
            sub(el, "heading", section.heading)
        self._inside(section, el, section.id)

    def _hier(self, n: Provision, parent: ET.Element, section_id: str) -> None:
        tag, _, level = _element(n.id, section_id)
        el = sub(parent, tag, eId=eid(section_id, n.id))
        if tag == "level":
            el.set("class", level)
        if n.label:
            sub(el, "num", n.label)
        if n.heading:
            sub(el, "heading", n.heading)
        self._inside(n, el, section_id)

    def _inside(self, n: Node, el: ET.Element, section_id: str) -> None:
        """A hierarchical element's body: its own text and non-provision children as ``content``, or as
        ``intro``/``wrapUp`` around the provisions below it."""
        kids = list(n.children)
        here = self.here = eid(section_id, n.id)
        if not any(isinstance(k, Provision) for k in kids):
            box = sub(el, "content")
            self._blocks(n, kids, box)
            if not len(box):
                sub(box, "p")
            return
        first = next(i for i, k in enumerate(kids) if isinstance(k, Provision))
        last = max(i for i, k in enumerate(kids) if isinstance(k, Provision))
        if n.text or first:
            self._blocks(n, kids[:first], sub(el, "intro"))
        run: list[Node] = []
        for k in kids[first:last + 1]:
            if isinstance(k, Provision):
                if run:
                    self.here = here
                    self._between(run, el, n, section_id)
                    run = []
                self._hier(k, el, section_id)
            else:
                run.append(k)
        self.here = here
        if kids[last + 1:]:
            self._blocks(None, kids[last + 1:], sub(el, "wrapUp"))

    def _between(self, run: list[Node], el: ET.Element, n: Node, section_id: str) -> None:
        self.tables += 1
        box = sub(el, "hcontainer", eId=f"{eid(section_id, n.id)}__hcontainer_{self.tables}",
                  name="text")
        self._blocks(None, run, sub(box, "content"))

    def _blocks(self, own: Node | None, kids: list[Node], box: ET.Element) -> None:
        if own is not None and own.text:
            self._p(box, own.text)
        for k in kids:
            if isinstance(k, Table):
                self._table(k, box)
            elif "gap" in k.flags:
                sub(sub(box, "p"), "remark", k.text).set("class", "navlaw-gap")
            elif isinstance(k, (Text, Formula)):
                if k.text:
                    self._p(box, k.text, "formula" if isinstance(k, Formula) else "")
                self._blocks(None, list(k.children), box)
            else:  # a heading-only node or another kind below a provision: its words, not lost
                self._p(box, " ".join(x for x in (k.label, k.heading, k.text) if x))

    def _p(self, box: ET.Element, text: str, cls: str = "") -> None:
        p = sub(box, "p")
        if cls:
            p.set("class", cls)
        self.inline(p, text)

    def inline(self, p: ET.Element, text: str) -> None:
        """``text`` into ``p``, its chapter references as ``<ref href>`` to the cited section's work."""
        at, last = 0, None
        for a, b, target, external in sorted(in_text(text, self.work.section), key=lambda r: r[0]):
            if external or a < at:
                continue
            work = self.sections.get(target) or Work(target, self.work.code, self.work.kind, "")
            chunk = text[at:a]
            if last is None:
                p.text = (p.text or "") + chunk
            else:
                last.tail = (last.tail or "") + chunk
            last = sub(p, "ref", text[a:b], href=work.uri)
            at = b
        if last is None:
            p.text = (p.text or "") + text[at:]
        else:
            last.tail = (last.tail or "") + text[at:]

    def _table(self, t: Table, box: ET.Element) -> None:
        self.tables += 1
        table = sub(box, "table", eId=f"{self.here}__table_{self.tables}")
        for row, cell_tag in ([(t.header, "th")] if t.header else []) + [(r, "td") for r in t.rows]:
            assert row is not None
            tr = sub(table, "tr")
            for c in row.cells or ():
                self.inline(sub(sub(tr, cell_tag), "p"), c.text)
            if not len(tr):
                sub(sub(tr, "td"), "p")
        if not len(table):
            sub(sub(sub(table, "tr"), "td"), "p")


# ---- metadata -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Source:
    """Where a version's text comes from: a document of the corpus, an amending act or another text."""

    key: str  # eId in <references>
    file: str  # relative to the manifest
    show: str  # the manifest's source, or the file
    act_uri: str = ""  # an amending act of the corpus: its work


class Export:
    """Everything the files of one corpus share: each section's work, each document's source."""

    def __init__(self, corpus: Corpus, timeline: Timeline):
        self.corpus, self.timeline = corpus, timeline
        self.root = Path(corpus.root).resolve()
        self._rels: dict[str, str] = {}
        self.entries = {self._rel(c.source.path): c.entry for c in corpus.documents}
        self.acts = {self._rel(a.file): a for a in corpus.acts}
        self.targets: dict[str, list[str]] = {}
        for t in timeline.versions:
            self.targets.setdefault(section_of(t), []).append(t)
        self.works: dict[str, Work] = {}
        for sec in timeline.sections():
            comp = timeline.latest(sec)
            node = comp.section
            if node is None:
                node = next((v.node for t in self.targets.get(sec, ()) for v in timeline.versions[t]
                             if isinstance(v.node, Section)), None)
            kinds = {e.kind for t in self.targets.get(sec, ()) for v in timeline.versions[t]
                     if (e := self.entries.get(self._rel(v.file.split("#")[0]))) is not None}
            self.works[sec] = work_of(sec, node if isinstance(node, Section) else Section(id=sec), kinds)

    def _rel(self, file: str) -> str:
        """A document's path relative to the manifest (a build names them so already)."""
        got = self._rels.get(file)
        if got is None:
            p = Path(file)
            try:
                got = p.resolve().relative_to(self.root).as_posix()
            except ValueError:
                got = p.name if p.is_absolute() else p.as_posix()
            self._rels[file] = got
        return got

    def source(self, v: TextVersion) -> Source:
        file = self._rel(v.file.split("#")[0])
        act = self.acts.get(file)
        key = "src_" + _num(file.replace("/", "-"))
        if act is not None:
            year = act.entry.became_law or act.effective
            uri = f"/akn/{COUNTRY}/act/{year.year if year else 'undated'}/{_num(Path(file).stem.lower())}"
            return Source(key, file, act.entry.source or act.title or file, uri)
        entry = self.entries.get(file)
        return Source(key, file, (entry.source if entry is not None and entry.source else file))

    # ---- the files --------------------------------------------------------------------------------------

    def dates(self, section: str, on: dt.date | None = None) -> list[dt.date]:
        """The expression dates of ``section``: each date its text changes (with ``on``: the one in force then)."""
        if on is not None:
            day = expression_on(self.timeline, section, on)
            return [day] if day is not None else []
        return [d for d in self.timeline.boundaries(section) if self.timeline.section_on(section, d).section is not None]

    def files(self, on: dt.date | None = None) -> dict[str, str]:
        """Path under akn/ -> XML, for every section on every expression date (or as in force ``on``)."""
        out: dict[str, str] = {}
        for sec in self.timeline.sections():
            for day in self.dates(sec, on):
                out[akn_path(sec, day.isoformat())] = self.document(sec, day)
        return out

    def document(self, section: str, day: dt.date) -> str:
        comp = self.timeline.section_on(section, day)
        assert comp.section is not None
        work = self.works[section]
        versions = sorted(((t, v) for t in self.targets.get(section, ()) for v in self.timeline.versions[t]
                           if v.start is not None and v.start <= day),
                          key=lambda tv: (tv[1].start, tv[1].order, tv[0]))
        root = ET.Element("akomaNtoso", xmlns=NS)
        act = sub(root, "act", name="section", contains="originalVersion" if len(versions) <= 1 else "singleVersion")
        meta = sub(act, "meta")
        writer = _Writer(work, self.works.keys(), self.works)  # a view: a set of every section per file grew as n²
        body = sub(act, "body")
        writer.body(comp.section, body)
        self._identification(meta, work, day, comp.sources[0][1].hard_start if comp.sources else True,
                             versions[0][1].start if versions else day)
        sources: dict[str, Source] = {}
        events: dict[tuple[dt.date, str], str] = {}
        life = sub(meta, "lifecycle", source="#navlaw")
        for t, v in versions:
            src = self.source(v)
            sources.setdefault(src.key, src)
            assert v.start is not None
            if (v.start, src.key) in events:
                continue
            eid_ = events[(v.start, src.key)] = f"evt_{len(events) + 1}"
            kind = "generation" if len(events) == 1 else "repeal" if v.node is None and t == section else "amendment"
            ev = sub(life, "eventRef", eId=eid_, date=v.start.isoformat(), source=f"#{src.key}", type=kind)
            if not v.hard_start:
                ev.set("refersTo", "#knownInForce")
        repeal = next((v for v in self.timeline.versions.get(section, ()) if v.node is None and v.start
                       and v.start > day), None)
        if repeal is not None and repeal.start is not None:  # the work's end, said in each of its expressions
            src = self.source(repeal)
            sources.setdefault(src.key, src)
            events[(repeal.start, src.key)] = f"evt_{len(events) + 1}"
            sub(life, "eventRef", eId=events[(repeal.start, src.key)], date=repeal.start.isoformat(),
                source=f"#{src.key}", type="repeal")
        mods = [(t, v, self.acts[self._rel(v.file.split("#")[0])]) for t, v in versions
                if self._rel(v.file.split("#")[0]) in self.acts]
        if mods:
            analysis = sub(sub(meta, "analysis", source="#navlaw"), "passiveModifications")
            temporal = ET.Element("temporalData", source="#navlaw")
            periods: dict[str, str] = {}
            for n, (t, v, a) in enumerate(mods, 1):
                src = self.source(v)
                assert v.start is not None
                ins = _instruction(t, v, a)
                mod = sub(analysis, "textualMod", eId=f"pmod_{n}",
                          type=MOD_TYPE.get(ins.action if ins else "amend", "substitution"))
                where = f"~{'part_' + _num(ins.part) + '__' if ins and ins.part else ''}sec_{ins.number}" if ins else ""
                sub(mod, "source", href=f"{src.act_uri}/{where}" if where else src.act_uri)
                target = t if v.node is not None or comp.section.find(t) is not None else section_of(t)
                sub(mod, "destination", href=f"#{eid(section, target)}")
                event_id = events[(v.start, src.key)]
                if event_id not in periods:
                    periods[event_id] = f"period_{len(periods) + 1}"
                    group = sub(temporal, "temporalGroup", eId=periods[event_id])
                    sub(group, "timeInterval", start=f"#{event_id}", refersTo="#inForce")
                sub(mod, "force", period=f"#{periods[event_id]}")
            meta.append(temporal)
        refs = sub(meta, "references", source="#navlaw")
        for src in sources.values():
            if src.act_uri:
                sub(refs, "passiveRef", eId=src.key, href=src.act_uri, showAs=src.show)
            else:
                sub(refs, "TLCReference", eId=src.key, href=f"/ontology/navlaw/corpus/{src.file}",
                    name="source", showAs=src.show)
        sub(refs, "TLCOrganization", eId="navlaw", href="/ontology/organization/navlaw", showAs="navlaw")
        sub(refs, "TLCOrganization", eId="author", href=f"/ontology/organization/{COUNTRY}/"
            + ("agency" if work.kind == "regulation" else "legislature"),
            showAs="New York State " + ("agency (rule-maker)" if work.kind == "regulation" else "Legislature"))
        sub(refs, "TLCConcept", eId="inForce", href="/ontology/concept/inForce", showAs="in force")
        sub(refs, "TLCConcept", eId="knownInForce", href="/ontology/concept/navlaw/knownInForce",
            showAs="known to be in force from this date (the text's own date is not established)")
        _indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

    def inputs(self, section: str, day: dt.date) -> str:
        """Everything ``document(section, day)`` reads but the works of all sections (``works_key``), as text:
        the memo's key for that file (compiler/export/akn_memo.py). The section's law without its place in
        the file (a one-word edit above it moves it, but changes nothing the file shows); each version's
        dates, order, source and the instruction that made it. Kept beside ``document``: what it reads,
        this says."""
        comp = self.timeline.section_on(section, day)
        versions = [(t, v.start, v.order, v.node is None, v.hard_start, self.source(v),
                     _said(_instruction(t, v, self.acts[f])) if (f := self._rel(v.file.split("#")[0])) in self.acts
                     else None)
                    for t in self.targets.get(section, ()) for v in self.timeline.versions[t]
                    if v.start is not None and v.start <= day]
        repeal = [(v.start, self.source(v)) for v in self.timeline.versions.get(section, ())
                  if v.node is None and v.start and v.start > day]
        return repr((section, day, comp.sources[0][1].hard_start if comp.sources else True, versions, repeal[:1],
                     bare(comp.section) if comp.section is not None else None))

    def works_key(self) -> str:
        """The works of every section (a reference's link is the cited section's work)."""
        return repr(sorted(self.works.items()))

    def _identification(self, meta: ET.Element, work: Work, day: dt.date, hard: bool, first: dt.date | None) -> None:
        ident = sub(meta, "identification", source="#navlaw")
        expr = work.expression(day)
        w = sub(ident, "FRBRWork")
        sub(w, "FRBRthis", value=f"{work.uri}/!main")
        sub(w, "FRBRuri", value=work.uri)
        if work.cite:
            sub(w, "FRBRalias", value=work.cite, name="citation")
        sub(w, "FRBRdate", date=(first or day).isoformat(), name="first text in the corpus")
        sub(w, "FRBRauthor", href="#author")
        sub(w, "FRBRcountry", value=COUNTRY)
        sub(w, "FRBRsubtype", value=work.kind)
        sub(w, "FRBRnumber", value=_num(work.number))
        sub(w, "FRBRname", value=work.code)
        e = sub(ident, "FRBRExpression")
        sub(e, "FRBRthis", value=f"{expr}/!main")
        sub(e, "FRBRuri", value=expr)
        sub(e, "FRBRdate", date=day.isoformat(), name="in force from" if hard else "known in force from")
        sub(e, "FRBRauthor", href="#author")
        sub(e, "FRBRlanguage", language="eng")
        m = sub(ident, "FRBRManifestation")
        sub(m, "FRBRthis", value=f"{expr}/!main.xml")
        sub(m, "FRBRuri", value=f"{expr}.akn")
        sub(m, "FRBRdate", date=day.isoformat(), name="navlaw export")
        sub(m, "FRBRauthor", href="#navlaw")


def _instruction(t: str, v: TextVersion, a: Act) -> Instruction | None:
    """The instruction of act ``a`` that made version ``v`` of provision ``t`` (None if none says so)."""
    return next((i for i in a.instructions if (i.target == t or i.renamed == t) and a.effective_of(i)[0] == v.start),
                None)


def _said(i: Instruction | None) -> tuple[str, str, int] | None:
    return (i.action, i.part, i.number) if i is not None else None


INLINE = frozenset({"p", "num", "heading", "remark", "ref"})


def _indent(e: ET.Element, level: int = 0) -> None:
    """Newlines and indentation between block elements; mixed content (p, num, heading) left as it is."""
    if e.tag in INLINE or not len(e):
        return
    pad = "\n" + "  " * (level + 1)
    e.text = pad
    for i, c in enumerate(e):
        _indent(c, level + 1)
        c.tail = pad if i < len(e) - 1 else "\n" + "  " * level


def expression_on(timeline: Timeline, section: str, on: dt.date) -> dt.date | None:
    """The date of the expression of ``section`` in force ``on`` (the last date its text changed), or None
    when the corpus knows no text of it that day."""
    if timeline.section_on(section, on).section is None:
        return None
    return max((d for d in timeline.boundaries(section) if d <= on), default=None)


def akn_files(corpus: Corpus, timeline: Timeline, on: dt.date | None = None) -> dict[str, str]:
    """Path under akn/ -> Akoma Ntoso XML: every section on every date its text changes, or (``on``) as
    in force on that day."""
    return Export(corpus, timeline).files(on)
