"""A partial document's fragments: its nodes grouped into the provisions the manifest says they are
(``[[document.fragments]]`` with ``covers`` and ``lines``)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import TypeVar

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model.codes import Code
from navlaw.model.nodes import Document, Node, Provision, Section, citation


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
        lines = [n.line for n in kids]
        in_order = all(a <= b for a, b in zip(lines, lines[1:]))
        owner: dict[int, int] = {}
        for f, (node_id, lo, hi) in enumerate(fragments):
            if in_order:  # the nodes in [lo, hi] found by bisection: linear in fragments, not their product
                inside = list(range(bisect_left(lines, lo), bisect_right(lines, hi)))
            else:
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
        members_of: dict[int, list[int]] = {}
        for k in sorted(owner):
            members_of.setdefault(owner[k], []).append(k)
        new_kids: list[Node] = []
        emitted: set[int] = set()
        for k, n in enumerate(kids):
            frag = owner.get(k)
            if frag is None:
                new_kids.append(n)
                continue
            if frag in emitted:
                continue
            emitted.add(frag)
            node_id = fragments[frag][0]
            members = tuple(kids[x] for x in members_of[frag])
            label = node_id.rsplit("/", 1)[-1]
            new_kids.append(Provision(id=node_id, label=f"{label}." if label.isdigit() else f"({label})",
                                      start=n.start, end=n.start, line=n.line, column=n.column,
                                      citation=citation(code, node_id), flags=("fragment",),
                                      children=members))
        out.append(replace(top, children=tuple(new_kids)))
    return replace(doc, children=tuple(out))


def restore_labels(doc: Document, lost: list[tuple[str, str]], code: Code, diagnostics: Diagnostics,
                   manifest_line: int = 0) -> Document:
    """Put back the levels a text lost (the manifest's ``lost_labels``): the provision the text's labels
    make "88/4/b/ii" is "88/4/b/1/ii", because the text does not print the "(1)" before it. The provision
    and all below it take the legislature's ids; an implied provision stands for each lost level."""
    for old, new in lost:
        parent_id, _, _ = old.rpartition("/")
        inserted = new[len(parent_id) + 1 :].split("/")[:-1]
        found = doc.find(old)
        if found is None:
            diagnostics.add(Diagnostic(Severity.ERROR, f"lost_labels: this text has no provision {old!r} to give the "
                                       f"id {new!r}", "manifest.toml", manifest_line, 1, "", "manifest"))
            continue

        def renamed(n: Node) -> Node:
            kids = tuple(renamed(c) for c in n.children)
            if not n.id:
                return replace(n, children=kids)
            nid = new + n.id[len(old):]
            return replace(n, id=nid, citation=citation(code, nid) if n.citation else "", children=kids)

        node: Node = renamed(found)
        for depth in range(len(inserted), 0, -1):
            nid = "/".join([parent_id, *inserted[:depth]])
            label = inserted[depth - 1]
            node = Provision(id=nid, label=f"({label})", start=found.start, end=found.start, line=found.line,
                             column=found.column, citation=citation(code, nid), flags=("implied",), children=(node,))
        doc = _put(doc, old, node)
        diagnostics.add(Diagnostic(Severity.INFO, f"{old} is {new}: the text does not print the label"
                                   f"{'s' if len(inserted) > 1 else ''} {', '.join(inserted)} (manifest lost_labels)",
                                   doc.file, found.line, found.column, "", "label-restored"))
    return doc


_N = TypeVar("_N", bound=Node)


def _put(n: _N, target: str, new: Node) -> _N:
    """``n`` with the node ``target`` below it replaced by ``new`` (the nodes on the way rebuilt)."""
    kids = list(n.children)
    for k, c in enumerate(kids):
        if c.id == target:
            kids[k] = new
            return replace(n, children=tuple(kids))
        if not c.id or target.startswith(c.id + "/") or c.kind in ("article", "part"):
            found = _put(c, target, new)
            if found is not c:
                kids[k] = found
                return replace(n, children=tuple(kids))
    return n
