"""Renders a section tree as a readable indented outline or as JSON."""

from __future__ import annotations

import textwrap
from typing import Any, Callable

from navlaw.model.text import NormalText
from navlaw.model.nodes import Article, Document, Formula, Node, Part, Provision, Row, Section, Table, Text


def row_json(row: Row) -> list[dict[str, Any]]:
    return [{"text": c.text, "line": c.line, "column": c.column} for c in row.cells]


SpanOf = Callable[[Node], "NormalText | None"]  # the normalized text a node was read from (None: unknown)


def _span(n: Node, nt: NormalText | None) -> dict[str, int]:
    """The raw file range of a node's own characters: line, column, end_line, end_column (1-based, end
    exclusive); only its line and column when the text it was read from is not at hand."""
    seg = nt.text[n.start:n.end] if nt is not None else ""
    if nt is None or not seg.strip():
        return {"line": n.line, "column": n.column}
    start, end = n.start + len(seg) - len(seg.lstrip()), n.end - (len(seg) - len(seg.rstrip()))  # the words only
    (line, col), (end_line, end_col) = nt.raw_linecol(start), nt.raw_linecol(end)
    return {"line": line, "column": col, "end_line": end_line, "end_column": end_col}


raw_span = _span  # the spans node_json gives, for keys of what it is made from (compiler/export/shapes.py)


def node_json(node: Node, text_of: SpanOf | None = None, _nt: NormalText | None = None) -> dict[str, Any]:
    """A node as JSON. A provision's ``text`` is its own text whole: the text lines that follow its label
    (read as ``text`` children) are joined to it, one line break between them, and ``span`` lists the raw
    ranges it came from (``text_of`` says which normalized text a node was read from; without it a span
    gives only the line and column). Tables, formulas and the text after a provision's own provisions
    stay children."""
    nt = text_of(node) if text_of is not None and (node.id or _nt is None) else _nt  # a table: its provision's
    kids = list(node.children)
    own = [node]
    if isinstance(node, (Provision, Section)):
        while kids and type(kids[0]) is Text and not kids[0].children and "gap" not in kids[0].flags:
            own.append(kids.pop(0))
    out: dict[str, Any] = {
        "id": node.id,
        "kind": node.kind,
        "label": node.label,
        "heading": node.heading,
        "text": "\n".join(n.text for n in own if n.text),
        "line": node.line,
        "column": node.column,
        "span": [_span(n, nt) for n in own],
    }
    if node.citation:
        out["citation"] = node.citation
    if node.flags:
        out["flags"] = list(node.flags)
    if isinstance(node, Provision):
        out["level"] = node.level
        if node.old_label:
            out["old_label"] = node.old_label
    if isinstance(node, Table):
        out["style"] = node.style
        out["header"] = row_json(node.header) if node.header else None
        out["rows"] = [row_json(r) for r in node.rows]
    out["children"] = [node_json(c, text_of, nt) for c in kids]
    return out


def document_json(doc: Document) -> dict[str, Any]:
    out = node_json(doc, lambda n: doc.normal)
    out["file"] = doc.file
    return out


def _wrap(text: str, indent: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=max(width - len(indent), 40), initial_indent=indent,
                         subsequent_indent=indent + "  ", break_on_hyphens=False) or [indent.rstrip()]


def outline(node: Node, width: int = 100, depth: int = 0) -> list[str]:
    """An indented outline: headings, then each provision with its label and full text."""
    ind = "  " * depth
    lines: list[str] = []
    flags = f"  [{', '.join(node.flags)}]" if node.flags else ""
    if isinstance(node, Document):
        lines.append(f"{node.file}{flags}")
    elif isinstance(node, Article):
        lines.append(f"{ind}ARTICLE {node.label}" + (f" — {node.heading}" if node.heading else "") + flags)
    elif isinstance(node, Part):
        lines.append(f"{ind}PART {node.label}" + (f" — {node.heading}" if node.heading else "") + flags)
    elif isinstance(node, Section):
        lines.append(f"{ind}§ {node.label}. {node.heading}{flags}   <{node.id}> line {node.line}")
    elif isinstance(node, Provision):
        lines.extend(_wrap(f"{node.label} {node.text}".rstrip() + flags, ind, width))
    elif isinstance(node, Table):
        rows = ([node.header] if node.header else []) + list(node.rows)
        widths = [max((len(r.cells[k].text) for r in rows if k < len(r.cells)), default=0)
                  for k in range(max((len(r.cells) for r in rows), default=0))]
        lines.append(f"{ind}[table, {len(node.rows)} rows{', continued' if 'continued' in node.flags else ''}]")
        for r in rows:
            lines.append(ind + "  | " + " | ".join(c.text.ljust(widths[k]) for k, c in enumerate(r.cells)) + " |")
    elif isinstance(node, Formula):
        lines.append(f"{ind}[formula] {node.text}")
    elif isinstance(node, Text):
        lines.extend(_wrap(node.text + flags, ind, width))
    for c in node.children:
        lines.extend(outline(c, width, depth + (0 if isinstance(node, Document) else 1)))
    return lines
