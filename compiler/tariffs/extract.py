"""Extracts tariffs from the section trees: rate tables, prose fee schedules, board-set fees, penalties.

Extractors read the tree (nodes with ids and spans of the normalized text), never the raw file; every
number they keep is an :class:`~navlaw.model.tariffs.Amount` whose :class:`~navlaw.model.tariffs.Source`
slices the raw file at the characters it came from. Dates come from the text ("Effective January
first, two thousand twenty-two"), from manifest anchors for relative phrases ("twelve months after
the effective date of this clause"), or from manifest fragments; anything else stays unresolved.

The extractors know the *forms* the statute uses (a units/tariff table, "All vessels … shall pay $X per
pilotage unit for Section N", "N percent of the Zone 2 Base Rate", "for each vessel over X and not over
Y tons burden, Z dollars" …), not the values: a new table in one of these forms is read the same way.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

from navlaw.cache import BuildCache
from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend.corpus import Compiled, Corpus
from navlaw.model.nodes import Document, Node, section_of
from navlaw.tariffs.forms import LATE, PRICED, UNPRICED
from navlaw.tariffs.forms import table
from navlaw.model.tariffs import AnyTariff, BoardSet, BracketSchedule, FractionOfRate, Percentage, PerUnitFee, TimeFee
from navlaw.tariffs import by_section
from navlaw.tariffs.by_section import RecordingCtx, SectionMemo
from navlaw.tariffs.priced_memo import Item, PricedPart
from navlaw.tariffs.reading import provisions
from navlaw.tariffs.routes import RouteTable


# ---- driver -----------------------------------------------------------------------------------------------

def extract_document(compiled: Compiled, diags: Diagnostics, routes: RouteTable | None = None,
                     memo: bool = False) -> list[AnyTariff]:
    """Every tariff of one document: its rate tables, then each provision read in every form — the
    priced forms in the sections the route table lists, the others elsewhere. ``memo``: what the sections
    no route prices gave, and what the priced part gave, is kept for the next extraction of the document
    (tariffs/by_section.py, tariffs/priced_memo.py)."""
    ctx = RecordingCtx(compiled, diags, routes or RouteTable())
    sections = list(_by_section(ctx.doc))
    priced = [[ctx.routes.priced(section_of(node.id) if node.id else section.label) for node in nodes]
              for section, nodes in sections]
    kept = SectionMemo(ctx) if memo else None  # a section no route prices: read again only when it changed
    part = PricedPart(kept, sections, priced, ctx.routes.key()) if kept is not None else None
    run: Callable[[Callable[[], list[Item]]], list[Item]] = part.phase if part is not None else (lambda read: read())
    items = run(lambda: [("out", t) for t in table.read_document(ctx)])
    for (section, nodes), routes_of in zip(sections, priced):
        ctx.section = section
        if kept is not None and not any(routes_of):
            items.extend(("out", t) for t in kept.read(section, nodes, UNPRICED))
            continue
        items.extend(run(lambda: _read_priced(ctx, nodes, routes_of)))
    if kept is not None and part is not None:
        part.keep()
        kept.keep()
    facts: dict[str, dict[str, Any]] = {}  # route -> "minimum"/"maximum" -> units, "unmeasured" -> citation
    for kind, item in items:
        if kind == "fact":
            facts.setdefault(item[0], {})[item[1]] = item[2]
    out = [_with_option(t, ctx.routes) for kind, t in items if kind == "out"]
    out += [_with_option(t, ctx.routes) for kind, t in items if kind == "late"]
    return [_with_facts(t, {k: v for r in ctx.routes.family(t.route)[::-1] for k, v in facts.get(r, {}).items()})
            if isinstance(t, BracketSchedule) and t.series == f"{t.route}/base" else t for t in out]


def _read_priced(ctx: RecordingCtx, nodes: list[Node], routes_of: list[str]) -> list[Item]:
    """A section's provisions read in every form: the priced forms where a route prices them, else the others."""
    got: list[Item] = []
    for node, route in zip(nodes, routes_of):
        for form in PRICED if route else UNPRICED:
            for t in form(ctx, route, node):
                if isinstance(t, tuple):
                    got.append(("fact", (route, t[0], t[1])))
                else:
                    got.append(("late" if form in LATE else "out", t))
    return got


def _by_section(doc: Document) -> Iterator[tuple[Node, list[Node]]]:
    """Each section, with itself and its provisions (``provisions``' pairs, grouped), in document order."""
    section: Node | None = None
    nodes: list[Node] = []
    for s, node in provisions(doc):
        if s is not section:
            if section is not None:
                yield section, nodes
            section, nodes = s, []
        nodes.append(node)
    if section is not None:
        yield section, nodes


CHARGED_BY_OPTION = (PerUnitFee, Percentage, FractionOfRate, TimeFee, BoardSet)  # the fees a quote option may charge


def _with_option(t: AnyTariff, routes: RouteTable) -> AnyTariff:
    """A fee a form read, with the quote option the manifest's [[option]] table says charges it."""
    if not isinstance(t, CHARGED_BY_OPTION) or t.option:
        return t
    name = routes.option_for(t.route, t.series)
    return replace(t, option=name) if name else t


def _with_facts(s: BracketSchedule, facts: dict[str, Any]) -> BracketSchedule:
    """What the text says of a route's base schedules elsewhere: "minimum/maximum charge calculated on
    N pilotage units" (unless the schedule states its own clamp), the charge without measurements."""
    if "unmeasured" in facts:
        s = replace(s, unmeasured=facts["unmeasured"])
    if ("minimum" in facts or "maximum" in facts) and s.min_units is None and s.max_units is None:
        both = "minimum" in facts and "maximum" in facts
        s = replace(s, min_units=facts.get("minimum"), max_units=facts.get("maximum"),
                    notes=s.notes + ((f"A minimum charge on {facts['minimum'].value} and a maximum charge on "
                                      f"{facts['maximum'].value} pilotage units clamp the units.",) if both else ()))
    return s


def extract(corpus: Corpus, diags: Diagnostics | None = None, cache: BuildCache | None = None) -> list[AnyTariff]:
    """All tariffs of the corpus. A consolidated text that the manifest marks superseded is superseded
    only where a later text covers the same section; elsewhere it is the latest text the corpus has."""
    d = diags if diags is not None else corpus.diagnostics
    out: list[AnyTariff] = []
    covered: set[str] = set()
    for c in corpus.documents:
        if c.entry and c.entry.kind != "consolidated":
            covered.update(section_of(x) for x in c.entry.covers)
            if c.entry.section:
                covered.add(c.entry.section)
    routes = RouteTable.of(corpus.manifest)
    for c in corpus.documents:
        got = _extract_cached(c, d, cache, routes)
        if c.entry and c.entry.kind == "consolidated" and c.entry.status == "superseded":
            got = [t if t.status != "superseded" or section_of(t.provision) in covered else
                   replace(t, status="in-force", notes=t.notes + (
                       f"From {c.entry.file}, the latest text of {section_of(t.provision)} in the corpus.",))
                   for t in got]
        out.extend(got)
        if c.entry is not None and c.entry.options:
            _check_options(corpus, c, got, d)
    return unique_ids(out)


def _check_options(corpus: Corpus, c: Compiled, got: list[AnyTariff], diags: Diagnostics) -> None:
    """Each [document.options] entry names an option the manifest declares ([[option]]), at a provision of
    the text where a fee was read: a mistyped name or id would drop the fee from quotes without a word."""
    entry = c.entry
    assert entry is not None
    lines = corpus.manifest.text.split("\n")
    ids = {n.id for n in c.document.walk()}
    priced = {(t.provision, getattr(t, "option", "")) for t in got}
    for pid, name, _ in entry.options:
        line = next((k + 1 for k, l in enumerate(lines) if k + 1 >= entry.line and l.lstrip().startswith(f'"{pid}"')),
                    entry.line)
        where = (str(corpus.manifest.path), line, 1, lines[line - 1] if line else "", "manifest")
        provision = pid.split("#", 1)[0]
        declared = [o.name for o in corpus.manifest.options]
        if name not in declared:
            close = difflib.get_close_matches(name, declared, 1)
            diags.add(Diagnostic(Severity.ERROR, f"{entry.file}: option {name!r} of {pid!r} is not an option the "
                                 "manifest declares: the fee would be left out of quotes", *where,
                                 f"did you mean {close[0]!r}?" if close else
                                 f"declare it under [[option]]; the options: {', '.join(sorted(declared))}"))
        elif provision not in ids:
            diags.add(Diagnostic(Severity.ERROR, f"{entry.file}: option {name!r} is given for {pid!r}, but the text "
                                 "has no such provision", *where, "use the provision id `navlaw parse` shows"))
        elif (provision, name) not in priced:
            diags.add(Diagnostic(Severity.ERROR, f"{entry.file}: option {name!r} is given for {pid!r}, but no fee "
                                 "was read there", *where,
                                 "check the provision id (\"#2\" is its second fee) and that the text states the fee"))


def _extract_cached(c: Compiled, diags: Diagnostics, cache: BuildCache | None, routes: RouteTable) -> list[AnyTariff]:
    """extract_document, through the cache: a document's tariffs depend on its text, its entry and the
    route table only."""
    file = c.document.file
    # the document's sections' tariffs, for the next extraction after an edit (in a fresh process too)
    sections = cache.key("tariff-sections", file) if cache is not None and cache.enabled and c.key else ""

    def extract_own() -> tuple[list[AnyTariff], list[Diagnostic]]:
        own = Diagnostics()
        fresh = bool(sections) and by_section.memo_of(file) is None  # else this process's (as parse-chunks)
        if fresh and cache is not None:
            by_section.recall(file, cache.get("tariff-sections", sections))
        got = extract_document(c, own, routes, memo=bool(sections))
        kept = by_section.memo_of(file)
        if fresh and cache is not None and kept is not None:
            cache.put("tariff-sections", sections, kept)
        by_section.settle(file)
        return got, own.items

    key = cache.key("tariffs", c.key, routes.key()) if cache is not None and c.key else ""
    got, found = cache.through("tariffs", key, extract_own) if cache is not None else extract_own()
    if sections and cache is not None:
        cache.keep("tariff-sections", sections)
    diags.extend(found)
    return got


def unique_ids(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """Two texts of one provision give the same id: the later text keeps it, earlier ones get
    ``@<file stem>`` (file 000's § 88(4)(e) surcharge is ``…/capital-expense-surcharge@nav-law.consolidated``)."""
    last: dict[str, str] = {}
    for t in tariffs:
        last[t.id] = t.file
    return [t if last[t.id] == t.file else replace(t, id=f"{t.id}@{Path(t.file).stem}")
            for t in tariffs]


def raw_line_lookup(corpus: Corpus) -> Callable[[str, int], str]:
    """file, line -> the raw line (for caret excerpts of tariff findings)."""
    by_file = {c.document.file: c.document.normal for c in corpus.documents}

    def raw_line(file: str, line: int) -> str:
        nt = by_file.get(file)
        return nt.raw_line(line) if nt is not None else ""

    return raw_line
