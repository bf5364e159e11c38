"""The tree builder's tables (tab, pipe and dotted-leader rows) and formulas drawn as text."""

from __future__ import annotations

import re

from navlaw.diagnostics import Severity
from navlaw.frontend.building import BuilderBase, _B
from navlaw.model.nodes import Formula, Row, Table, Text, table_row
from navlaw.frontend.parse import Line

_EQUALS_RE = re.compile(r"\s*equals\b", re.I)
_RANGE_START_RE = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?)\s+(?:to|and)\b")


class Drawings(BuilderBase):
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
