"""The tree builder's reading of published layouts: labels inside a line, LBDC records, tables of
contents, article headings under "ARTICLE 1" (see compiler/frontend/layout.py for the patterns), and the
layouts of formats/lbdc.py (record lines) and formats/nycrr.py (Westlaw's rules)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from navlaw.diagnostics import Severity
from navlaw.frontend import labels as L
from navlaw.frontend import layout
from navlaw.frontend.formats import lbdc, nycrr
from navlaw.frontend.building import BuilderBase, _B
from navlaw.model.nodes import Article, Part, Section, Text
from navlaw.frontend.parse import Line, article_head, line_at, section_head


def _candidates(text: str) -> list[int]:
    """Offsets of a "§" or "S " after a sentence's end and spaces ("… void. § 137."), where a section may
    start inside a line; found with substring searches (a pattern opening with [.;:] is tried at every
    period of the text)."""
    out: list[int] = []
    for sign in ("§", " S "):
        at = text.find(sign)
        while at >= 0:
            k = at + (1 if sign == " S " else 0)
            j = k - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j < k - 1 and j >= 0 and text[j] in ".;:":
                out.append(k)
            at = text.find(sign, at + 1)
    return sorted(out)


class PublishedLayouts(BuilderBase):
    # -- labels inside a line --
    def _split(self, line: Line, how: str) -> None:
        """Read a text or labelled line (``how`` = "line") or a continuation line ("continue"), cut where
        a label inside it starts a provision: "... alcohol. (1) A violation ...". Whether it does is
        decided by the label sequence: the label must continue an open list, or start a list where
        one can start; a label that might be a citation stays text."""
        inline = self.inline
        limit = line.body_start + len(line.body)
        k = bisect_left(inline, max(line.body_start, line.start + 1)) if inline else 0
        if k == len(inline) or inline[k] >= limit:  # nothing inside the line: the common case
            self._read(line, how)
            return
        cuts = []
        while k < len(inline) and inline[k] < limit:
            cuts.append(k)
            k += 1
        end = inline[cuts[0]]
        self._read(Line(line.kind, line.start, end, line.indent, line.labels, min(line.body_start, end),
                        self.text[line.body_start:end].rstrip() if line.body_start < end else ""), how)
        for n, c in enumerate(cuts):
            offset = self.inline[c]
            seg_end = self.inline[cuts[n + 1]] if n + 1 < len(cuts) else line.end
            seg = line_at(self.text, offset, seg_end)
            why = self._inline_fits(seg, self.inline_marks[c])
            if why is None:
                self.last.end = seg_end
                self.last.text.append(self.text[offset:seg_end].strip())
                continue
            self._provision(seg)
            if why == "starts":
                self.diag(Severity.INFO, offset, f"label {seg.labels[0].text} inside a line, after a sentence, read as "
                          "the start of a new list of provisions", "label-inline",
                          "if it is a citation, not a provision, put it on the line of the text it belongs to")

    def _read(self, line: Line, how: str) -> None:
        """A (part of a) line: more of the last node's text, a labelled line, or a text line."""
        if how == "continue":
            self.last.end = line.end
            self.last.text.append(self.text[line.start : line.end].strip())
        elif line.kind == "provision":
            self._provision(line)
        else:
            self._text_line(line)

    def _inline_fits(self, seg: Line, mark: str) -> str | None:
        if not seg.labels:
            return None
        after = self.text[seg.body_start : seg.body_start + 1]
        if mark == "." and not (after.isupper() or after in "\"“'‘([") and after:
            return None  # a sentence starts after a label: "(1) A violation"; "(1) of this" is a citation
        cands = L.readings(seg.labels[0].text)
        stack = self.stack
        for depth in range(len(stack) - 1, -1, -1):
            prev = stack[depth].reading
            if prev is not None and any(r.continues(prev) for r in cands):
                return "continues"
            if mark == ";":
                return None  # after "; and" only the next item of the innermost list: "(ii)" after "(i)"
        if any(r.first for r in cands) and (self.section is not None or stack):
            return "starts" if mark == "." else "follows a colon"
        return None

    # -- a section that starts inside a line --
    def _inline_sections(self, lines: list[Line]) -> list[Line]:
        """Cut each line where a later section starts inside it ("… a misdemeanor. S 2251. Penalties. …"):
        the text before it, then a section heading line. A later section: its number comes after the one
        of the section open there (so "as provided in § 12. The board …" stays text), and a heading
        follows it. Said with an info note."""
        marks = _candidates(self.text)
        if not marks:
            return lines  # no section sign after a sentence anywhere: the common case, one pass
        starts = [line.start for line in lines]
        hits = sorted({bisect_right(starts, m) - 1 for m in marks})
        out: list[Line] = []
        last = 0
        for i in hits:  # only the lines a candidate falls in; the rest are copied as they are
            line = lines[i]
            out.extend(lines[last:i])
            last = i + 1
            cur = self._section_before(lines, i)
            if cur is None or line.kind not in ("text", "provision", "section_head"):
                out.append(line)
                continue
            while True:
                cut = self._section_cut(line, cur)
                if cut is None:
                    out.append(line)
                    break
                at, num, key = cut
                eol = line.body_start + len(line.body)
                before = self.text[line.body_start:at].rstrip()
                out.append(Line(line.kind, line.start, at, line.indent, line.labels, line.body_start, before))
                line = Line("section_head", at, line.end, 0, (), at, self.text[at:eol])
                self.diag(Severity.INFO, at, f"§ {num} starts inside a line, after a sentence: read as a section "
                          "(its number comes after the section's before it)", "section-form")
                cur = key
        out.extend(lines[last:])
        return out

    def _section_before(self, lines: list[Line], i: int) -> tuple[int, str] | None:
        """The number of the section whose heading is the last at or before line ``i``, if any."""
        for j in range(i, -1, -1):
            if lines[j].kind == "section_head":
                m = section_head(lines[j].body)
                if m is not None:
                    return layout.section_key(m.group("num"))
        return None

    def _section_cut(self, line: Line, cur: tuple[int, str]) -> tuple[int, str, tuple[int, str]] | None:
        eol = line.body_start + len(line.body)
        start = line.body_start + (1 if line.kind == "section_head" else 0)
        for m in layout.INLINE_SECTION_RE.finditer(self.text, start, eol):
            key = layout.section_key(m["num"])
            if key is None or key <= cur:
                continue
            rest = self.text[m.end():eol]
            head = layout.split_heading(rest[rest.find(".") + 1:].lstrip())
            if head.heading:  # "§ 12. The board shall …" is a citation and a sentence: no heading
                return m.end(), m["num"], key
        return None

    # -- NYCRR as Westlaw prints it --
    def _westlaw(self, line: Line) -> bool:
        """A rule as Westlaw prints it: "21 CRR-NY 51.1" lines and the compilation's title lines are
        navigation; "51.1 Sandy Hook pilot apprentices." (no §: the number has its part's number before
        the point) is the section, in a text whose code is an NYCRR title."""
        body = line.body.strip()
        if nycrr.title_line(body) or (self.section is None and nycrr.COMPILATION_RE.match(body)):
            self._add(self._container() if self.section is not None else self.part or self.article or self.doc,
                      _B(Text, line.start, line.end, text=[body], flags=["title"], at=line.start + line.indent))
            return True
        m = nycrr.SECTION_RE.match(body)
        if m is None or not self.code.prefix.endswith("nycrr"):
            return False
        part = self.part.label if self.part is not None else m["num"].split(".")[0]
        if m["num"].split(".")[0] != part:
            return False  # "52.3 …" under Part 51 is not one of its sections
        head = layout.split_heading(m["rest"])
        heading = head.heading or layout.fold(m["rest"]).rstrip(".")
        at = line.start + line.indent
        body_at = line.body_start + (len(line.body) - len(line.body.lstrip())) + m.start("rest") + head.body_at \
            if head.body_at is not None else None
        end = body_at if body_at is not None else line.end
        self._new_section(m["num"], heading, line.start, end, at)
        if end < line.end:
            self._split(line_at(self.text, end, line.end), "line")
        return True

    # -- LBDC records and tables of contents --
    def _record(self, line: Line) -> None:
        """An LBDC record line: the record's id says what it holds (formats/lbdc.py: record)."""
        self._close_record()
        if self.rec.start >= 0:  # the record before held nothing: its line stays, as a record line, in
            start, self.rec.start = self.rec.start, -1  # the part of the law open there (order is kept)
            where = next((c for c in (self.section, self.part, self.article) if c is not None), self.doc)
            self._add(where, _B(Text, start, line.start, text=[self.text[start:line.start].strip()], flags=["record"]))
        r = lbdc.record(line.body)
        self.rec.record, self.rec.mode, self.rec.start = r, "", line.start
        self.stack = []
        if r.kind == "chapter":
            self.rec.mode, self.article, self.part, self.section = "toc", None, None, None
        elif r.kind == "article":
            self.section, self.part = None, None
            node_id, _ = self._unique(self.container_ids, f"article-{r.number}")
            self.article = self._add(self.doc, _B(Article, line.start, line.end, id=node_id, label=r.number,
                                                  at=line.start))
            self.rec.mode = "article"
        elif r.kind == "section":
            self.section, self.part = None, None
            container = self._container()
            self.rec.opened = (container, len(container.children))

    def _close_record(self) -> None:
        """A section record whose text has no heading of its own ("..SO DOC ABC1" / "Purposely left
        blank"): its lines are that section's, which the record id names."""
        r, opened = self.rec.record, self.rec.opened
        self.rec.opened = None
        if r is None or r.kind != "section" or opened is None:
            return
        container, k = opened
        moved = container.children[k:]
        if not moved or any(c.cls is Section for c in moved):
            return
        del container.children[k:]
        base = f"{self.code.prefix}/{r.number}" if self.code.prefix else r.number
        node_id, _ = self._unique(self.section_ids, base)
        node = _B(Section, moved[0].start, moved[0].start, id=node_id, label=r.number, flags=["implied"],
                  at=moved[0].at if moved[0].at >= 0 else moved[0].start, children=moved)
        container.children.append(node)
        self.diag(Severity.INFO, node.at, f"the LBDC record {r.id} has no section heading: its text is § {r.number}, "
                  "as the record id says", "lbdc-record")

    def _toc_starts(self, lines: list[Line], i: int) -> bool:
        """A table of contents: "Section 1. Short title." (or "Sec.") above entries "2. ...", or an
        article entry naming its sections ("Article 1. Short title; definitions. (§§ 1-3.)")."""
        line = lines[i]
        kind = line.kind
        if kind == "provision" and line.labels[-1].text[-1:] == "." and self._contents_run(lines, i):
            return True
        if kind == "text" and not line.body.lstrip().startswith(("Sec", "SEC")) or kind in ("provision", "blank"):
            return False  # the common case, decided without a pattern
        if self.rec.mode == "article":
            return line.kind in ("section_head", "text") and (
                bool(layout.TOC_HEADER_RE.match(line.body)) or layout.toc_entry(line.body))
        if line.kind == "article_head" and layout.TOC_RANGE_RE.search(line.body):
            return True
        if line.kind == "text" and layout.TOC_HEADER_RE.match(line.body):
            after = 0
        elif line.kind in ("section_head", "article_head") and layout.toc_entry(line.body):
            after = layout.toc_number(line.body)
        else:
            return False
        j = i + 1
        while j < len(lines) and lines[j].kind == "blank":
            j += 1
        if j >= len(lines):
            return False
        nxt = lines[j]
        whole = self.text[nxt.start + nxt.indent : nxt.body_start + len(nxt.body)]
        if line.kind == "article_head" and nxt.kind == "text" and nxt.indent > line.indent:
            return bool(layout.TOC_RANGE_RE.search(whole))  # "Article I. Short title; ..." / "(§§ 101-103)"
        # the next entry has a later number: "Section 300. ..." over "302. ..." (301 was repealed); a
        # section's first subdivision would be 1
        return layout.toc_entry(whole) and layout.toc_number(whole) > after

    def _contents_run(self, lines: list[Line], i: int) -> bool:
        """A contents block without a header: three or more lines, each a section number and a heading
        and nothing more, in the order of the law ("33. Deposit of refuse …" / "33-a. Sanitary
        facilities …" / "34. Regattas."), as a site lists an article's sections. Not a list of
        subdivisions, whose items say something: it starts past 1, or inserts a number, or no section is open."""
        numbers: list[tuple[int, int]] = []
        j = i
        while j < len(lines) and len(numbers) < 3:
            line = lines[j]
            j += 1
            if line.kind == "blank":
                continue
            if line.kind != "provision" or len(line.labels) != 1 or len(line.body) > layout.MAX_HEADING or (
                    ". " in line.body.rstrip()):
                return False  # a sentence after the heading: a provision, decided without a pattern
            whole = self.text[line.start + line.indent : line.body_start + len(line.body)]
            if not layout.toc_entry(whole):
                return False
            r = L.readings(line.labels[0].text)
            if not r or r[0].style != "number":
                return False
            if numbers and (r[0].base, r[0].insert) <= numbers[-1]:
                return False
            numbers.append((r[0].base, r[0].insert))
        return len(numbers) == 3 and (self.section is None or numbers[0][0] > 1 or any(n[1] for n in numbers))

    def _toc_block(self, lines: list[Line], i: int) -> int:
        self.rec.mode, saved = "toc", self.rec.mode
        j = i
        number = -1
        while j < len(lines):
            line = lines[j]
            whole = self.text[line.start + line.indent : line.body_start + len(line.body)]
            entry = layout.toc_entry(whole)
            if entry and j > i and layout.toc_number(whole) < number:
                break  # "Section 1. Legislative findings." after entry 4: the law begins
            if j > i and not (line.kind == "blank" or entry or self._toc_continuation(line)):
                break
            number = max(number, layout.toc_number(whole)) if entry else number
            self._toc_line(line)
            j += 1
        self.rec.mode = saved if saved != "article" else "article-toc"
        return j

    def _toc_continuation(self, line: Line) -> bool:
        last = self.last
        return (("toc" in last.flags or "chapter" in last.flags) and line.kind == "text" and line.indent > 0
                and not line.body[:1].isdigit() and not line.body.startswith("*") and len(line.body) <= 100
                and last.end == line.start)

    def _toc_line(self, line: Line) -> None:
        """A line of a table of contents, or of an LBDC chapter record: navigation, kept as text."""
        whole = layout.fold(self.text[line.start + line.indent : line.body_start + len(line.body)])
        if line.kind == "blank":
            self.last.end = line.end
        elif self._toc_continuation(line) and not layout.toc_entry(whole):
            self.last.end = line.end
            self.last.text.append(whole)
        else:
            flags = ["toc"] if (layout.toc_entry(whole) or layout.TOC_RANGE_RE.search(whole)
                                or layout.TOC_HEADER_RE.match(whole) or article_head(whole)) else ["chapter"]
            self._add(self._container(), _B(Text, line.start, line.end, text=[whole], flags=flags, at=line.start + line.indent))

    def _article_heading(self, lines: list[Line], i: int) -> int:
        """An article heading written on the lines under "ARTICLE 1" (as LBDC and the constitution
        print them): short lines, centred or in capitals, before the first section or contents line."""
        art = self.last
        if art.cls not in (Article, Part) or art.heading and self.rec.mode != "article":
            return i
        taken = 0
        while i < len(lines) and taken < 3:
            line = lines[i]
            body = line.body.strip()
            if (line.kind != "text" or not body or len(body) > 80 or layout.TOC_HEADER_RE.match(line.body)
                    or not (body.upper() == body or line.indent >= 8)):
                break
            art.heading = layout.fold(f"{art.heading} {body}")
            art.end = line.end
            taken += 1
            i += 1
        return i
