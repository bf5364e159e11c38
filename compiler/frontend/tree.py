"""Builds the section tree (typed, frozen nodes with ids and citations) from the parser's lines.

Every node owns a contiguous span of the normalized text (its heading or label line, continuation
lines, and the blank lines after them); the spans of all nodes, in document (pre-)order, tile the
text exactly. That is the lossless guarantee `Document.source_text()` and the tests rely on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.frontend import labels as L
from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend.normalize import NormalText
from compiler.frontend.parse import Line, parse_lines


from compiler.frontend.nodes import (NAV_LAW, table_row, Article, Code, Document, Formula, Node, Part, Provision,
                                     Row, Section, Table, Text, citation)

# ---- building ---------------------------------------------------------------------------------------

@dataclass
class _B:
    """A node under construction."""

    cls: type[Node]
    start: int
    end: int
    id: str = ""
    label: str = ""
    heading: str = ""
    text: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    children: list[_B] = field(default_factory=list)
    reading: L.Reading | None = None
    extra: dict[str, object] = field(default_factory=dict)
    at: int = -1  # offset the node's position is reported at (defaults to start)
    ids: dict[str, int] = field(default_factory=dict)  # children's base ids -> how many so far


_SECTION_RE = re.compile(r"(?:§+|Section)[ \t]*(?P<num>\d+(?:\.\d+)?(?:-[A-Za-z0-9]+)*)(?P<sep>\.|[ \t]+[—–-])?[ \t]*(?P<heading>.*)")
_ARTICLE_RE = re.compile(r"(?:Article|ARTICLE|Part|PART)[ \t]+(?P<num>\d+(?:-[A-Za-z]{1,2})?)[ \t]*[—–.-]?[ \t]*(?P<heading>.*)")
MAX_DEPTH = 10  # provisions below a section; the statute's ladder has 7 (subdivision … subitem)
MAX_FINDINGS_PER_KIND = 200  # per file, code and severity
_EQUALS_RE = re.compile(r"\s*equals\b", re.I)
_RANGE_START_RE = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?)\s+(?:to|and)\b")


class Builder:
    def __init__(self, nt: NormalText, file: str, code: Code = NAV_LAW, section: str = "",
                 diagnostics: Diagnostics | None = None):
        self.nt = nt
        self.text = nt.text
        self.file = file
        self.code = code
        self.section_hint = section
        self.diags = diagnostics if diagnostics is not None else Diagnostics()
        self._counts: dict[tuple[str, Severity], int] = {}
        self.doc = _B(Document, 0, 0)
        self.article: _B | None = None
        self.part: _B | None = None
        self.section: _B | None = None
        self.stack: list[_B] = []  # open provisions of the current section, outermost first
        self.last: _B = self.doc  # the node whose span grows with blank and continuation lines
        self.section_ids: dict[str, int] = {}
        self.container_ids: dict[str, int] = {}

    # -- diagnostics --
    def diag(self, severity: Severity, offset: int, message: str, code: str, hint: str = "") -> None:
        key = (code, severity)
        n = self._counts.get(key, 0) + 1
        self._counts[key] = n
        if n > MAX_FINDINGS_PER_KIND:  # nobody reads the 201st; the summary at the end counts them
            return
        line, col = self.nt.raw_linecol(offset)
        self.diags.add(Diagnostic(severity, message, self.file, line, col, self.nt.raw_line(line), code, hint))

    def _summarize_suppressed(self) -> None:
        for (code, severity), n in sorted(self._counts.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
            if n > MAX_FINDINGS_PER_KIND:
                self.diags.add(Diagnostic(severity, f"… and {n - MAX_FINDINGS_PER_KIND} more {severity} finding(s) "
                                          f"of this kind in this file, not listed", self.file, code=code))

    # -- helpers --
    def _container(self) -> _B:
        if self.stack:
            return self.stack[-1]
        for c in (self.section, self.part, self.article):
            if c is not None:
                return c
        return self.doc

    def _add(self, parent: _B, node: _B) -> _B:
        parent.children.append(node)
        self.last = node
        return node

    def _unique(self, registry: dict[str, int], node_id: str) -> tuple[str, int]:
        n = registry.get(node_id, 0) + 1
        registry[node_id] = n
        return (node_id if n == 1 else f"{node_id}*{n}"), n

    # -- the main loop --
    def build(self) -> Document:
        errors: list[tuple[int, str]] = []
        lines = parse_lines(self.text, errors)
        for offset, reason in errors:
            self.diag(Severity.ERROR, offset, f"the grammar cannot place this line: {reason}", "parse",
                      "remove the stray character; the line is kept as unparsed text")
        for line in lines:  # the grammar reads labels in 0-9 only: a label in other digits is a text line
            m = _LABEL_DIGITS.match(self.text, line.start, line.end) if line.kind == "text" else None
            if m and not m.group(1).isascii():
                self.diag(Severity.ERROR, m.start(1), f"the label {m.group(1)!r} is written with digits that are not "
                          "ASCII (0-9): it is not read as a number", "label",
                          "write the number with the digits 0-9; the line is kept as text")
        self.wrapped = self.nt.wrapped and any(l.indent and l.labels for l in lines)
        if any(l.kind == "section_head" for l in lines):
            self.section_hint = ""  # the text names its sections itself
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            kind = line.kind
            if self.section is None and self.section_hint and kind not in (
                    "blank", "section_head", "article_head", "part_head"):
                self._ensure_section(line.start)
            if kind == "blank":
                self.last.end = line.end
            elif kind == "section_head":
                if self._is_title(lines, i):
                    self._add(self._container(),
                              _B(Text, line.start, line.end, text=[line.body.strip()], flags=["title"]))
                else:
                    self._section(line)
            elif kind in ("article_head", "part_head"):
                self._article_or_part(line, kind)
            elif kind in ("tab_row", "pipe_row", "leader_row"):
                i = self._table(lines, i)
                continue
            elif kind == "formula_rule":
                i = self._formula(lines, i)
                continue
            elif self._continues(lines, i):
                self.last.end = line.end
                self.last.text.append(self.text[line.start : line.end].strip())
            elif kind == "provision":
                self._provision(line)
            else:
                self._text_line(line)
                if kind == "unparsed":
                    self.last.flags.append("unparsed")
            i += 1
        self.doc.end = max(self.doc.end, 0)
        self._imply_first_article()
        self._summarize_suppressed()
        return self._freeze_document()

    def _is_title(self, lines: list[Line], i: int) -> bool:
        """A section heading followed, with only blank lines between, by the same heading of the
        same section is a title line ("§ 89-B — Pilotage ..." above "§ 89-b. Pilotage ..."). Two
        different headings under one number are two sections (45-aaaa twice in the consolidation)."""
        m = _SECTION_RE.match(lines[i].body)
        j = i + 1
        while j < len(lines) and lines[j].kind == "blank":
            j += 1
        if not m or j >= len(lines) or lines[j].kind != "section_head":
            return False
        m2 = _SECTION_RE.match(lines[j].body)

        def same(a: str, b: str) -> bool:
            return re.sub(r"\W+", " ", a).strip().lower() == re.sub(r"\W+", " ", b).strip().lower()

        return bool(m2) and same(m2.group("num"), m.group("num")) and same(m2.group("heading"), m.group("heading"))

    def _continues(self, lines: list[Line], i: int) -> bool:
        """In hard-wrapped text whose paragraphs start indented, an unindented line continues the
        line before it — even when it happens to begin with something like "(34)"."""
        if not self.wrapped or lines[i].indent or i == 0:
            return False
        prev = lines[i - 1]
        return (prev.kind in ("text", "provision") and not self._blank_after(prev.start, prev.end)
                and self.last.cls in (Text, Provision))

    def _blank_after(self, start: int, end: int) -> bool:
        """Whether the span (a line, or a node's own lines) ends with blank lines."""
        return self.text.count("\n", start, end) > 1

    # -- structure --
    def _article_or_part(self, line: Line, kind: str) -> None:
        m = _ARTICLE_RE.match(line.body)
        num = m.group("num") if m else ""
        heading = m.group("heading").strip() if m else line.body.strip()
        self.stack = []
        self.section = None
        if kind == "article_head":
            node_id, n = self._unique(self.container_ids, f"article-{num.lower()}")
            node = _B(Article, line.start, line.end, id=node_id, label=num, heading=heading,
                      at=line.start + line.indent)
            self.article = self._add(self.doc, node)
            self.part = None
        else:
            parent = self.article or self.doc
            node_id, n = self._unique(self.container_ids, f"{parent.id + '/' if parent.id else ''}part-{num.lower()}")
            node = _B(Part, line.start, line.end, id=node_id, label=num, heading=heading,
                      at=line.start + line.indent)
            self.part = self._add(parent, node)
        if n > 1:
            self.diag(Severity.WARNING, line.start + line.indent,
                      f"{kind.split('_')[0].title()} {num} appears {n} times; this one is '{node_id}'", "duplicate")

    def _new_section(self, num: str, heading: str, start: int, end: int, at: int, implied: bool = False) -> _B:
        base = f"{self.code.prefix}/{num.lower()}" if self.code.prefix else num.lower()
        node_id, n = self._unique(self.section_ids, base)
        node = _B(Section, start, end, id=node_id, label=num, heading=heading, at=at,
                  flags=["implied"] if implied else [])
        parent = self.part or self.article or self.doc
        self.section = self._add(parent, node)
        self.stack = []
        if n > 1:
            self.diag(Severity.WARNING, at, f"section {num} appears {n} times in this text; "
                      f"this one gets the id '{node_id}'", "duplicate-section",
                      "the source repeats a section number; check which text is current")
        return node

    def _section(self, line: Line) -> None:
        m = _SECTION_RE.match(line.body)
        assert m is not None  # the grammar's SECTION_HEAD has the same shape
        heading = m.group("heading").strip()
        self._new_section(m.group("num"), heading.rstrip("."), line.start, line.end, line.start + line.indent)

    def _ensure_section(self, offset: int) -> None:
        """Provisions before any section heading belong to the section the manifest names."""
        if self.section is None and self.section_hint:
            self._new_section(self.section_hint, "", offset, offset, offset, implied=True)

    # -- provisions --
    def _provision(self, line: Line) -> None:
        self._ensure_section(line.start)
        labels = line.labels
        for k, lab in enumerate(labels):
            start = line.start if k == 0 else lab.start
            end = labels[k + 1].start if k + 1 < len(labels) else line.end
            node = self._place(lab.text, lab.start, start, end, lab.old)
            if k + 1 == len(labels) and line.body:
                node.text.append(line.body.strip())

    def _place(self, label: str, at: int, start: int, end: int, old: str) -> _B:
        cands = L.readings(label)
        stack = self.stack
        choice: tuple[int, L.Reading] | None = None  # (depth to attach under: -1 = section, reading)
        why = ""
        if not cands:
            cands = [L.Reading("other", 0)]
        # 1. continues the innermost open list
        if stack and stack[-1].reading is not None:
            for r in cands:
                if r.continues(stack[-1].reading):
                    choice, why = (len(stack) - 2, r), "continues"
                    break
        # 2. starts a new list under the innermost open provision
        if choice is None:
            for r in cands:
                if r.first:
                    choice, why = (len(stack) - 1, r), "starts"
                    break
        # 3. continues a list further out
        if choice is None:
            for depth in range(len(stack) - 2, -1, -1):
                prev = stack[depth].reading
                r = next((r for r in cands if prev is not None and r.continues(prev)), None)
                if r is not None:
                    choice, why = (depth - 1, r), "continues"
                    break
        severity = None
        if choice is None:
            choice, severity, message = self._out_of_sequence(label, cands)
        parent_depth, reading = choice
        if parent_depth + 1 >= MAX_DEPTH:  # statutes nest 7 levels below a section; input that nests
            parent_depth = MAX_DEPTH - 2  # deeper is not law text as written: keep it, flat, and say so
            severity, message = Severity.ERROR, (f"label {label} would nest more than {MAX_DEPTH} levels deep; "
                                                 "kept at that depth")
        if len(cands) > 1 and severity is None:
            self._explain_ambiguity(label, at, cands, reading, why)
        del stack[parent_depth + 1 :]
        parent = stack[-1] if stack else self._container()
        key = L.key(label)
        base_id = f"{parent.id}/{key}" if parent.id else key
        dup = parent.ids.get(base_id, 0) + 1  # kept per parent: a long run of repeats stays linear
        parent.ids[base_id] = dup
        node_id = base_id if dup == 1 else f"{base_id}*{dup}"
        if dup > 1 and severity is None:
            severity, message = Severity.ERROR, f"label {label} repeats a label already used at this level"
        node = _B(Provision, start, end, id=node_id, label=label, reading=reading, at=at,
                  extra={"level": L.describe(reading) if reading.style != "other" else "", "old_label": old})
        self._add(parent, node)
        stack.append(node)
        if severity is not None:
            self.diag(severity, at, message, "label-sequence")
        return node

    def _out_of_sequence(self, label: str, cands: list[L.Reading]) -> tuple[tuple[int, L.Reading], Severity, str]:
        stack = self.stack
        prev = stack[-1].label if stack else "the section heading"
        # a later label of an open list: a gap (text cut or partial), keep it in that list
        for depth in range(len(stack) - 1, -1, -1):
            p = stack[depth].reading
            r = next((r for r in cands if p is not None and r.after(p)), None)
            if r is not None:
                return (depth - 1, r), Severity.WARNING, (
                    f"label {label} skips ahead: the {L.describe(r)} before it in this list is {stack[depth].label}")
        # the same kind of label as the innermost provision, but earlier: backwards
        if stack and stack[-1].reading is not None:
            r = next((r for r in cands if r.style == stack[-1].reading.style), None)
            if r is not None:
                return (len(stack) - 2, r), Severity.ERROR, (
                    f"label {label} is out of sequence: it comes after {prev}")
        # a list whose first items are missing: under the innermost provision if that is of an
        # outer kind, else where the usual ladder puts it
        r = cands[0]
        rank = L.RANK.get(r.style, 9)
        depth = next((k for k, b in enumerate(stack) if b.reading and L.RANK.get(b.reading.style, 9) >= rank), len(stack))
        if depth == len(stack) or any(r.style == b.reading.style for b in stack if b.reading):
            depth = len(stack)
        parent = stack[depth - 1].label if depth else "the section"
        return (depth - 1, r), Severity.WARNING, (
            f"label {label} does not follow from {prev}: its list has no first item here; "
            f"read as a {L.describe(r)} under {parent}")

    def _explain_ambiguity(self, label: str, at: int, cands: list[L.Reading], chosen: L.Reading, why: str) -> None:
        if self._counts.get(("label-ambiguous", Severity.INFO), 0) >= MAX_FINDINGS_PER_KIND:
            self._counts[("label-ambiguous", Severity.INFO)] += 1
            return
        stack = self.stack
        others = []
        for r in cands:
            if r == chosen:
                continue
            if any(b.reading is not None and r.continues(b.reading) for b in stack) or r.first:
                others.append(r)
        if not others:
            return
        prev = stack[-1].label if stack else "the section heading"
        alt = ", ".join(f"a {L.describe(r)}" for r in others)
        self.diag(Severity.INFO, at,
                  f"label {label} read as a {L.describe(chosen)} (it {why} a list, after {prev}); "
                  f"it could also be {alt}", "label-ambiguous")

    # -- text, tables, formulas --
    def _text_line(self, line: Line) -> None:
        body = line.body.strip()
        node = _B(Text, line.start, line.end, text=[body], at=line.start + line.indent)
        if body.startswith("[") and body.endswith("]") and re.match(r"\[\(\w{1,5}\)", body):
            node.flags.append("deleted")  # NY bracket notation: a whole provision struck out
        self._add(self._container(), node)

    def _table(self, lines: list[Line], i: int) -> int:
        kind = lines[i].kind
        style = kind.split("_")[0]
        j = i
        while j < len(lines) and lines[j].kind == kind:
            j += 1
            if self._blank_after(lines[j - 1].start, lines[j - 1].end):
                break  # a blank line ends the table
        rows = [table_row(self.text, self.nt, l.start + l.indent, l.end - 1, style) for l in lines[i:j]]
        header = None
        if rows and not any(ch.isdigit() for c in rows[0].cells for ch in c.text):
            header = rows.pop(0)
        # split where the first column starts over ("0 to 24.99" again): successive tables
        groups: list[list[tuple[Row, Line]]] = [[]]
        first_key = None
        body_lines = lines[i + (1 if header else 0) : j]
        for row, ln in zip(rows, body_lines):
            m = _RANGE_START_RE.match(row.cells[0].text) if row.cells else None
            k = m.group(1) if m else None
            if groups[-1] and k is not None and k == first_key:
                groups.append([])
            if not groups[-1]:
                first_key = k
            groups[-1].append((row, ln))
        start = lines[i].start
        for g, group in enumerate(groups):
            end = group[-1][1].end if group else lines[j - 1].end
            node = _B(Table, start, end, at=start + lines[i].indent,
                      extra={"header": header if g == 0 else None, "rows": tuple(r for r, _ in group),
                             "style": style})
            if g:
                node.flags.append("continued")
            self._add(self._container(), node)
            width = len(header.cells) if header else (len(group[0][0].cells) if group else 0)
            for row, ln in group:
                if style != "leader" and len(row.cells) != width:
                    self.diag(Severity.ERROR, ln.start + ln.indent,
                              f"malformed table row: {len(row.cells)} cell(s) where the table has {width}",
                              "table-row", "a cell is missing or a separator is extra; compare with the rows above")
            start = end
        return j

    def _formula(self, lines: list[Line], i: int) -> int:
        """A formula drawn as text: numerator lines, a rule of underscores, the denominator, and
        optionally "equals" and the result ("Pilotage Units"). The lines above the rule that form
        the numerator are taken back from the text nodes just made."""
        container = self._container()
        start = lines[i].start
        taken = 0
        while (container.children and container.children[-1].cls is Text and taken < 3
               and container.children[-1].end == start and "title" not in container.children[-1].flags):
            prev = container.children[-1]
            body = "".join(prev.text)
            if body.endswith((":", ".", ";")) or self._blank_after(prev.start, prev.end):
                break
            container.children.pop()
            start = prev.start
            taken += 1
        j = i + 1
        # the denominator, then "equals" and the result, each possibly after blank lines
        wanted = ["denominator", "equals", "result"]
        k = j
        while k < len(lines) and wanted:
            l = lines[k]
            if l.kind == "blank":
                k += 1
                continue
            if l.kind != "text":
                break
            if wanted[0] == "denominator":
                wanted.pop(0)
            elif wanted[0] == "equals":
                if not _EQUALS_RE.match(l.body):
                    break
                wanted.pop(0)
                if l.body.strip().lower() != "equals":
                    wanted.pop(0)  # "equals pilotage units" on one line
            else:
                wanted.pop(0)
            k += 1
            j = k
        end = lines[j - 1].end
        body = self.text[start:end]
        node = _B(Formula, start, end, text=[" ".join(body.split())], at=start)
        self._add(container, node)
        return j

    # -- finishing --
    def _imply_first_article(self) -> None:
        """Sections before the first article heading, when that heading is "Article 2", belong to
        Article 1, whose heading this text lacks: they are put in an implied Article 1."""
        kids = self.doc.children
        first_article = next((k for k, c in enumerate(kids) if c.cls is Article), None)
        if first_article is None:
            return
        num = kids[first_article].label
        if not num.isdigit() or int(num) < 2:
            return
        before = [k for k in range(first_article) if kids[k].cls is Section]
        if not before:
            return
        lo = before[0]
        moved = kids[lo:first_article]
        prev_num = str(int(num) - 1)
        implied = _B(Article, moved[0].start, moved[0].start, id=f"article-{prev_num}", label=prev_num,
                     flags=["implied"], children=moved)
        self.doc.children[lo:first_article] = [implied]
        self.diag(Severity.INFO, moved[0].start,
                  f"section {moved[0].label} comes before the heading of Article {num}: "
                  f"placed in Article {prev_num}, whose heading this text does not have", "implied-article")

    def _freeze(self, b: _B) -> Node:
        children = tuple([self._freeze(c) for c in b.children]) if b.children else ()
        line, col = self.nt.raw_linecol(b.at if b.at >= 0 else b.start)
        cls = b.cls
        flags = tuple(b.flags)
        if cls is Section and not children and not any(b.text):
            flags += ("heading-only",)
        joined = " ".join([t for t in b.text if t]) if b.text else ""
        cite = citation(self.code, b.id) if cls is Section or cls is Provision else ""
        # positional: Node's fields in order (a third faster than keywords, on every node)
        args = (b.id, b.label, b.heading, joined, b.start, b.end, line, col, cite, flags, children)
        if cls is Provision:
            return Provision(*args, str(b.extra.get("level", "")), str(b.extra.get("old_label", "")))
        if cls is Table:
            return Table(*args, b.extra["header"], b.extra["rows"], str(b.extra["style"]))  # type: ignore[arg-type]
        return cls(*args)

    def _freeze_document(self) -> Document:
        root = self._freeze(self.doc)
        return Document(**{f: getattr(root, f) for f in ("id", "label", "heading", "text", "start", "end",
                                                           "line", "column", "citation", "flags", "children")},
                        file=self.file, normal=self.nt)


# A label at a line start (an article, part or section number, "(2)" or "2.") written with digits of
# another script ("Article ６"): the grammar reads only 0-9, and such a line is an error, not text.
_LABEL_DIGITS = re.compile(r"[ \t]*(?:(?:Article|ARTICLE|Part|PART|Section|§+)[ \t]*|\()?(\d+)")


def build(nt: NormalText, file: str, code: Code = NAV_LAW, section: str = "",
          diagnostics: Diagnostics | None = None) -> Document:
    return Builder(nt, file, code, section, diagnostics).build()
