"""Builds the section tree (typed, frozen nodes with ids and citations) from the parser's lines.

Every node owns a contiguous span of the normalized text (its heading or label line, continuation
lines, and the blank lines after them); the spans of all nodes, in document (pre-)order, tile the
text exactly. That is the lossless guarantee `Document.source_text()` and the tests rely on.
"""

from __future__ import annotations

import re
import sys
from typing import cast

from navlaw.frontend import labels as L
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.building import MAX_DEPTH, _B
from navlaw.frontend.drawings import Drawings
from navlaw.model.text import NormalText
from navlaw.frontend.chunks import lines_of
from navlaw.frontend.parse import Line, article_head, line_at, section_head
from navlaw.frontend.published import PublishedLayouts
from navlaw.frontend import layout
from navlaw.frontend.formats import nycrr
from navlaw.model.codes import NO_LAW, Code
from navlaw.model.nodes import Article, Document, Node, Part, Provision, Row, Section, Table, Text, citation


class Builder(PublishedLayouts, Drawings):
    memo = ""  # the name the parser's lines are kept under by section (frontend/chunks.py), "" for none

    # -- the main loop --
    def build(self) -> Document:
        errors: list[tuple[int, str]] = []
        lines = lines_of(self.text, errors, self.memo)  # only the changed sections, after an edit
        for offset, reason in errors:
            self.diag(Severity.ERROR, offset, f"the grammar cannot place this line: {reason}", "parse",
                      "remove the stray character; the line is kept as unparsed text")
        for line in lines:  # the grammar reads labels in 0-9 only: a label in other digits is a text line
            m = _LABEL_DIGITS.match(self.text, line.start, line.end) if line.kind == "text" else None
            if m and not m.group(1).isascii():
                self.diag(Severity.ERROR, m.start(1), f"the label {m.group(1)!r} is written with digits that are not "
                          "ASCII (0-9): it is not read as a number", "label",
                          "write the number with the digits 0-9; the line is kept as text")
        self.wrapped = self.nt.wrapped and any(l.indent and (l.labels or l.kind == "section_head") for l in lines)
        self.named_sections = any(l.kind == "section_head" for l in lines)
        if self.named_sections:
            self.section_hint = ""  # the text names its sections itself
        self.inline, self.inline_marks = layout.inline_labels(self.text)
        if self.named_sections:
            lines = self._inline_sections(lines)
        westlaw = nycrr.westlaw(self.text)  # Westlaw's NYCRR lines, in a text whose code is not said otherwise
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            kind = line.kind
            if self.section is None and self.section_hint and kind not in (
                    "blank", "section_head", "article_head", "part_head", "record_head"):
                self._ensure_section(line.start)
            if kind == "blank":
                self.last.end = line.end
            elif kind == "record_head":
                self._record(line)
            elif self.rec.mode == "toc":
                self._toc_line(line)
            elif self._toc_starts(lines, i):
                i = self._toc_block(lines, i)
                continue
            elif kind == "section_head":
                if self._is_title(lines, i):
                    self._add(self._container(),
                              _B(Text, line.start, line.end, text=[line.body.strip()], flags=["title"]))
                elif self._foreign_section(line):
                    self._text_line(line)
                else:
                    i = self._section(lines, i)
                    continue
            elif kind in ("article_head", "part_head"):
                self._article_or_part(line, kind)
                i = self._article_heading(lines, i + 1)
                continue
            elif kind in ("tab_row", "pipe_row", "leader_row"):
                i = self._table(lines, i)
                continue
            elif kind == "formula_rule":
                i = self._formula(lines, i)
                continue
            elif kind == "provision" and self.section is None and self._bare_section(line):
                pass
            elif kind == "text" and (self.code.prefix or westlaw) and self._westlaw(line):
                pass
            elif kind == "text" and (self.page_ended or self.roles.get(line.start) == "chrome"):
                self._chrome_line(line)
            elif self._continues(lines, i):
                self._split(line, "continue")
            elif kind == "unparsed":
                self._text_line(line)
                self.last.flags.append("unparsed")
            else:
                self._split(line, "line")
            i += 1
        self._close_record()
        if self.rec.start >= 0:  # a record line with nothing after it
            self._add(self.doc, _B(Text, self.rec.start, len(self.text), text=[self.text[self.rec.start:].strip()],
                                   flags=["record"]))
        self.doc.end = max(self.doc.end, 0)
        self._imply_first_article()
        self.findings.summarize()
        return self._freeze_document()

    def _is_title(self, lines: list[Line], i: int) -> bool:
        """A section heading followed, with only blank lines between, by the same heading of the
        same section is a title line ("§ 89-B — Pilotage ..." above "§ 89-b. Pilotage ..."). Two
        different headings under one number are two sections (45-aaaa twice in the consolidation)."""
        m = section_head(lines[i].body)
        j = i + 1
        while j < len(lines) and lines[j].kind == "blank":
            j += 1
        if not m or j >= len(lines) or lines[j].kind != "section_head":
            return False
        m2 = section_head(lines[j].body)

        def same(a: str, b: str) -> bool:
            return re.sub(r"\W+", " ", a).strip().lower() == re.sub(r"\W+", " ", b).strip().lower()

        return m2 is not None and same(m2.group("num"), m.group("num")) and same(m2.group("heading"), m.group("heading"))

    def _continues(self, lines: list[Line], i: int) -> bool:
        """In hard-wrapped text whose paragraphs start indented, an unindented line continues the
        line before it — even when it happens to begin with something like "(34)"."""
        if not self.wrapped or lines[i].indent or i == 0:
            return False
        prev = lines[i - 1]
        return (prev.kind in ("text", "provision", "section_head") and not self._blank_after(prev.start, prev.end)
                and self.last.cls in (Text, Provision) and self.last.end == lines[i].start
                and "toc" not in self.last.flags)

    # -- structure --
    def _article_or_part(self, line: Line, kind: str) -> None:
        m = article_head(line.body)
        num = m.group("num") if m else ""
        heading = layout.fold(m.group("heading")) if m else line.body.strip()
        word = "-".join(m.group("word").lower().split()) if m else "article"
        self.stack = []
        self.section = None
        if (kind == "article_head" and self.rec.record is not None and self.rec.record.kind == "article"
                and self.article is not None and self.article.label.lower() == num.lower() and not self.article.children):
            self.article.end = line.end  # "ARTICLE 1" in the record NAVA1 that opened the article
            self.last = self.article
            if heading:
                self.article.heading = heading
            return
        if kind == "article_head":
            node_id, n = self._unique(self.container_ids, f"{word if word.endswith('rule') else 'article'}-{num.lower()}")
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
        self.page_ended = False  # a section heading starts the law again
        base = f"{self.code.prefix}/{num.lower()}" if self.code.prefix else num.lower()
        if self.article is not None and self.article.id.startswith(("rule-", "joint-rule-")):
            base = f"{self.article.id}/{base}"  # the rules of each house number sections within each rule
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

    def _section(self, lines: list[Line], i: int) -> int:
        """A section heading line. The heading may run on into the section's text or first subdivision
        ("§ 4. Short title.  This chapter ...", "§ 89-a. Pilotage ...; rates. 1. Every ..."), or wrap onto
        the next line of hard-wrapped text; returns the index of the next line to read."""
        line = lines[i]
        m = section_head(line.body)
        assert m is not None  # the grammar's SECTION_HEAD has the same shape
        rest_at = line.body_start + m.start("heading")
        eol = line.body_start + len(line.body)
        head = layout.split_heading(self.text[rest_at:eol])
        heading, body_at, nxt = head.heading, (rest_at + head.body_at if head.body_at is not None else None), i + 1
        if (not head.complete and self.wrapped and i + 1 < len(lines) and lines[i + 1].kind in ("text", "provision")
                and not lines[i + 1].indent and not self._blank_after(line.start, line.end)):
            follow = lines[i + 1]
            f_eol = follow.body_start + len(follow.body)
            wrapped = layout.wrapped_heading(head.heading, self.text[follow.start:f_eol])
            if wrapped is None:  # no heading: the line is the section's text
                heading, body_at = "", rest_at
            else:
                heading, nxt = wrapped[0], i + 2
                body_at = follow.start + wrapped[1] if wrapped[1] is not None else None
                line = Line(line.kind, line.start, follow.end, line.indent, (), line.body_start, line.body)
        end = body_at if body_at is not None else line.end
        node = self._new_section(m.group("num"), heading, line.start, end, line.start + line.indent)
        if m.group("star"):
            node.flags.append("expires")  # LBDC's "*": see the "* NB" note that follows
        if end < line.end:
            self._split(line_at(self.text, end, line.end), "line")
        return nxt

    def _bare_section(self, line: Line) -> bool:
        """"98. Application of article. The provisions of …" at the start of a page whose text writes no
        "§": a section, not a subdivision, when the number is followed by a heading (a short phrase that
        names, not commands, ending in a period). Read so and said (an info note at the line)."""
        if (self.section is not None or self.stack or self.section_hint or self.named_sections or self.rec.record is not None
                or len(line.labels) != 1 or not line.body[:1].isupper()):
            return False
        label = line.labels[0].text
        m = re.fullmatch(r"([0-9]{1,4}(?:-[a-zA-Z]{1,4})?)\.", label)
        if m is None:
            return False
        eol = line.body_start + len(line.body)
        head = layout.split_heading(self.text[line.body_start:eol])
        if not head.heading or not head.complete or len(head.heading) > 100 or head.heading[:1] in "\"“'":
            return False
        body_at = line.body_start + head.body_at if head.body_at is not None else None
        end = body_at if body_at is not None else line.end
        at = line.start + line.indent
        self._new_section(m.group(1), head.heading, line.start, end, at)
        self.diag(Severity.INFO, at, f"\"{label} {head.heading}.\" read as § {m.group(1)}: a number and a heading at the "
                  "start of the page, which writes no § before its sections", "section-form",
                  "if it is a subdivision, name its section in the manifest (section = \"N\")")
        if end < line.end:
            self._split(line_at(self.text, end, line.end), "line")
        return True

    def _foreign_section(self, line: Line) -> bool:
        """In an LBDC section record, a heading of another section ("§ 4. The emergency tenant protection
        act ... is hereby enacted" in the record ETP1974) is the text that enacted the law, not a section
        of it: kept as text, and said."""
        r = self.rec.record
        if r is None or r.kind != "section":
            return False
        m = section_head(line.body)
        if m is None or m.group("num").lower() == r.number or (self.section is not None and self.section.label.lower() == r.number):
            return False
        self.diag(Severity.INFO, line.start + line.indent, f"the LBDC record {r.id} holds § {m.group('num')}, not "
                  f"§ {r.number}: kept as the record's text (the section that enacts the law), not as a section of it",
                  "lbdc-record")
        self.rec.opened = None
        return True

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
                outer = next((r for r in cands if prev is not None and r.continues(prev)), None)
                if outer is not None:
                    choice, why = (depth - 1, outer), "continues"
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
        if self.findings.full("label-ambiguous", Severity.INFO):
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
        args = (b.id, sys.intern(b.label), b.heading, joined, b.start, b.end, line, col, cite, flags, children)
        if cls is Provision:
            return Provision(*args, str(b.extra.get("level", "")), str(b.extra.get("old_label", "")))
        if cls is Table:
            header = cast("Row | None", b.extra["header"])  # drawings.py's table reader puts them there
            return Table(*args, header, cast("tuple[Row, ...]", b.extra["rows"]), str(b.extra["style"]))
        return cls(*args)

    def _freeze_document(self) -> Document:
        root = self._freeze(self.doc)
        return Document(**{f: getattr(root, f) for f in ("id", "label", "heading", "text", "start", "end",
                                                           "line", "column", "citation", "flags", "children")},
                        file=self.file, normal=self.nt)


# A label at a line start (an article, part or section number, "(2)" or "2.") written with digits of
# another script ("Article ６"): the grammar reads only 0-9, and such a line is an error, not text.
_LABEL_DIGITS = re.compile(r"[ \t]*(?:(?:Article|ARTICLE|Part|PART|Section|§+)[ \t]*|\()?(\d+)")


def build(nt: NormalText, file: str, code: Code = NO_LAW, section: str = "",
          diagnostics: Diagnostics | None = None, roles: dict[int, str] | None = None, memo: str = "") -> Document:
    """The tree of ``nt``; ``roles``: the lines its format keeps out of the law (formats.read_lines),
    by default those any text is searched for (formats.copied_roles); ``memo``: the name under which the
    parser's lines are kept by section for the next build of that document (frontend/chunks.py), "" for none."""
    builder = Builder(nt, file, code, section, diagnostics, roles)
    builder.memo = memo
    return builder.build()
