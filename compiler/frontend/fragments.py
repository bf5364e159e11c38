"""A partial document's fragments: its nodes grouped into the provisions the manifest says they are
(``[[document.fragments]]`` with ``covers`` and ``lines``)."""

from __future__ import annotations

from dataclasses import replace

from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend.nodes import Code, Document, Node, Provision, Section, citation


def wrap_fragments(doc: Document, fragments: list[tuple[str, int, int]], code: Code,
                   diagnostics: Diagnostics) -> Document:
    """Group a fragment document's nodes into the provisions the manifest says they are.

    ``fragments`` holds (provision id, first raw line, last raw line). A node that falls across a
    fragment boundary is an error: the manifest's line numbers do not match the text."""
    assert doc.normal is not None
    nt = doc.normal
    out: list[Node] = []
    for top in doc.children:
        if not isinstance(top, Section):
            out.append(top)
            continue
        kids = list(top.children)
        owner: dict[int, int] = {}
        for f, (node_id, lo, hi) in enumerate(fragments):
            inside = [k for k, n in enumerate(kids) if lo <= n.line <= hi]
            if not inside:
                diagnostics.add(Diagnostic(Severity.ERROR, f"fragment {node_id}: lines {lo}-{hi} hold no text",
                                           doc.file, lo, 1, nt.raw_line(lo), "manifest"))
                continue
            last = kids[inside[-1]]
            last_line = nt.raw_linecol(max(last.end - 1, last.start))[0]
            if last_line > hi and nt.text[last.start:last.end].strip().count("\n") > 0:
                diagnostics.add(Diagnostic(Severity.ERROR, f"fragment {node_id}: lines {lo}-{hi} end inside a "
                                           f"{last.kind} that runs to line {last_line}",
                                           doc.file, hi, 1, nt.raw_line(hi), "manifest"))
            if inside != list(range(inside[0], inside[-1] + 1)):
                diagnostics.add(Diagnostic(Severity.ERROR, f"fragment {node_id}: lines {lo}-{hi} are not "
                                           "contiguous text", doc.file, lo, 1, nt.raw_line(lo), "manifest"))
                continue
            for k in inside:
                owner.setdefault(k, f)
        new_kids: list[Node] = []
        emitted: set[int] = set()
        for k, n in enumerate(kids):
            f = owner.get(k)
            if f is None:
                new_kids.append(n)
                continue
            if f in emitted:
                continue
            emitted.add(f)
            node_id = fragments[f][0]
            members = tuple(kids[x] for x in sorted(x for x, g in owner.items() if g == f))
            label = node_id.rsplit("/", 1)[-1]
            new_kids.append(Provision(id=node_id, label=f"{label}." if label.isdigit() else f"({label})",
                                      start=n.start, end=n.start, line=n.line, column=n.column,
                                      citation=citation(code, node_id), flags=("fragment",),
                                      children=members))
        out.append(replace(top, children=tuple(new_kids)))
    return replace(doc, children=tuple(out))
