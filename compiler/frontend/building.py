"""The tree builder's state and the helpers every part of it uses: a node under construction (_B),
its findings (Findings: diagnostics capped per kind), the LBDC record being read (RecordState), the open
containers. compiler/frontend/tree.py reads the lines; the
mixins in compiler/frontend/published.py (layouts of published law) and drawings.py (tables,
formulas) are parts of the same builder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend import labels as L
from navlaw.frontend import formats
from navlaw.frontend.formats import lbdc, web
from navlaw.model.text import NormalText
from navlaw.model.codes import NO_LAW, Code
from navlaw.model.nodes import Document, Node, Text
from navlaw.frontend.parse import Line

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


MAX_DEPTH = 10  # provisions below a section; the statute's ladder has 7 (subdivision … subitem)
MAX_FINDINGS_PER_KIND = 200  # per file, code and severity


class Findings:
    """The builder's diagnostics at file:line:col of the raw text, capped per kind (code and severity):
    past MAX_FINDINGS_PER_KIND a kind is only counted, and ``summarize`` says how many were not listed."""

    def __init__(self, nt: NormalText, file: str, diags: Diagnostics):
        self.nt, self.file, self.diags = nt, file, diags
        self._counts: dict[tuple[str, Severity], int] = {}

    def add(self, severity: Severity, offset: int, message: str, code: str, hint: str = "") -> None:
        key = (code, severity)
        n = self._counts.get(key, 0) + 1
        self._counts[key] = n
        if n > MAX_FINDINGS_PER_KIND:  # nobody reads the 201st; the summary at the end counts them
            return
        line, col = self.nt.raw_linecol(offset)
        self.diags.add(Diagnostic(severity, message, self.file, line, col, self.nt.raw_line(line), code, hint))

    def full(self, code: str, severity: Severity) -> bool:
        """Whether the kind is past its cap; if so it is counted once more (the caller skips the work)."""
        key = (code, severity)
        if self._counts.get(key, 0) < MAX_FINDINGS_PER_KIND:
            return False
        self._counts[key] += 1
        return True

    def summarize(self) -> None:
        for (code, severity), n in sorted(self._counts.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
            if n > MAX_FINDINGS_PER_KIND:
                self.diags.add(Diagnostic(severity, f"… and {n - MAX_FINDINGS_PER_KIND} more {severity} finding(s) "
                                          f"of this kind in this file, not listed", self.file, code=code))


@dataclass
class RecordState:
    """Where the builder is in an LBDC law dump (formats/lbdc.py): the record being read, what its lines
    are, its record line not yet given to a node, and where a section record's nodes begin."""

    record: lbdc.Record | None = None
    mode: str = ""  # "toc": chapter and article records hold navigation, not law; "article", "article-toc"
    start: int = -1  # the record line not yet given to a node
    opened: tuple[_B, int] | None = None  # where a section record's nodes begin


class BuilderBase:
    """What every part of the builder shares, in three groups: its input (``nt``, ``text``, ``file``,
    ``code``, ``roles``, ``section_hint``) and its ``findings``; the tree under construction (``doc``, the
    open ``article``, ``part``, ``section`` and provisions ``stack``, the ``last`` node, the ids given);
    and where the reading is (``rec``: an LBDC record; labels inside lines; whether the text names its
    sections, is hard-wrapped, or its web page has ended)."""

    def __init__(self, nt: NormalText, file: str, code: Code = NO_LAW, section: str = "",
                 diagnostics: Diagnostics | None = None, roles: dict[int, str] | None = None):
        self.nt = nt
        # lines kept out of the law, by their start: chrome, furniture, notes, titles (formats.read_lines)
        self.roles = roles if roles is not None else formats.copied_roles(nt.text)
        self.text = nt.text
        self.file = file
        self.code = code
        self.section_hint = section
        self.findings = Findings(nt, file, diagnostics if diagnostics is not None else Diagnostics())
        self.doc = _B(Document, 0, 0)
        self.article: _B | None = None
        self.part: _B | None = None
        self.section: _B | None = None
        self.stack: list[_B] = []  # open provisions of the current section, outermost first
        self.last: _B = self.doc  # the node whose span grows with blank and continuation lines
        self.section_ids: dict[str, int] = {}
        self.container_ids: dict[str, int] = {}
        self.inline: list[int] = []  # offsets where a label may begin inside a line (layout.py: inline_labels)
        self.inline_marks: list[str] = []
        self.rec = RecordState()  # the LBDC record being read (published.py)
        self.named_sections = False  # the text has section headings ("§ 4.", "Section 4.", "S 4.")
        self.page_ended = False  # a web page's "Top of Page", "Last modified: …" was read: the law has ended
        self.wrapped = False  # hard-wrapped text whose paragraphs start indented (set when the lines are read)

    def diag(self, severity: Severity, offset: int, message: str, code: str, hint: str = "") -> None:
        self.findings.add(severity, offset, message, code, hint)

    # -- helpers --
    def _container(self) -> _B:
        if self.stack:
            return self.stack[-1]
        for c in (self.section, self.part, self.article):
            if c is not None:
                return c
        return self.doc

    def _add(self, parent: _B, node: _B) -> _B:
        if self.rec.start >= 0:  # an LBDC record line belongs to the first node of its record
            if node.at < 0:
                node.at = node.start
            node.start = self.rec.start
            self.rec.start = -1
        parent.children.append(node)
        self.last = node
        return node

    def _unique(self, registry: dict[str, int], node_id: str) -> tuple[str, int]:
        n = registry.get(node_id, 0) + 1
        registry[node_id] = n
        return (node_id if n == 1 else f"{node_id}*{n}"), n

    # -- text, tables, formulas --
    def _text_line(self, line: Line) -> None:
        body = line.body.strip()
        node = _B(Text, line.start, line.end, text=[body], at=line.start + line.indent)
        role = self.roles.get(line.start)
        if body.startswith("[") and body.endswith("]") and re.match(r"\[\(\w{1,5}\)", body):
            node.flags.append("deleted")  # NY bracket notation: a whole provision struck out
        elif role is not None and role != "chrome":  # chrome is read where the page's lines are (tree.py)
            node.flags.append(role)  # LBDC's "* NB" note, a bill print's footer, LBD code or page header: not law
        self._add(self._container(), node)

    def _chrome_line(self, line: Line) -> None:
        """A line of the web page around the law ("Top of Page", "Last modified: …", a disclaimer, a
        navigation bar): kept, flagged "chrome", never part of a provision. What ends the law on the page
        closes the open section, and the lines after it are the page's until a section heading."""
        body = line.body.strip()
        node = _B(Text, line.start, line.end, text=[body], at=line.start + line.indent, flags=["chrome"])
        if self.page_ended or web.page_end(body):
            self.page_ended = True
            self.section, self.part, self.article, self.stack = None, None, None, []
        self._add(self._container(), node)

    def _blank_after(self, start: int, end: int) -> bool:
        """Whether the span (a line, or a node's own lines) ends with blank lines."""
        return self.text.count("\n", start, end) > 1

    # the parts of the builder the others call (compiler/frontend/tree.py)
    def _provision(self, line: Line) -> None:
        raise NotImplementedError

    def _new_section(self, num: str, heading: str, start: int, end: int, at: int, implied: bool = False) -> _B:
        raise NotImplementedError
