"""The site's diagnostics: what `navlaw lint` finds, an index with each file's counts (``diagnostics/``) and
a page per file (``diagnostics/<file>/``) listing its findings, each linked to the provision it is in. At
the scale of all the consolidated laws one table of every finding would be a page the size of the
corpus's findings, converted whole whenever one of them changes."""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from jinja2 import Environment

from navlaw import escape as esc
from navlaw.diagnostics import Diagnostic, Diagnostics
from navlaw.frontend.corpus import Corpus
from navlaw.model.nodes import lineage, section_of
from navlaw.site.render import Pages, _rel, cite_id

SEVERITIES = ("error", "warning", "info")


def diagnostics_pages(corpus: Corpus, diags: Diagnostics, P: Pages, env: Environment) -> dict[str, str]:
    """``diagnostics.md`` (the counts per file) and a page per file with findings."""
    located = _provision_at(corpus)
    by_file: dict[str, list[Diagnostic]] = {}
    for d in diags:
        by_file.setdefault(d.file, []).append(d)
    out: dict[str, str] = {}
    files = []
    taken: set[str] = set()
    for file in sorted(by_file):
        slug = _slug(Path(file).name or file)
        n = 2
        while slug in taken:  # two files named alike in two folders: two pages
            slug, n = f"{_slug(Path(file).name)}-{n}", n + 1
        taken.add(slug)
        page = f"diagnostics/{slug}.md"
        found = by_file[file]
        counts = {s: sum(1 for d in found if str(d.severity) == s) for s in SEVERITIES}
        files.append({"name": esc.text(Path(file).name or file), "href": _rel("diagnostics.md", page), **counts})
        out[page] = env.get_template("diagnostics-file.md.j2").render(
            name=esc.text(Path(file).name or file), path=esc.text(file), summary=counts,
            rows=[{"where": esc.text(f"{Path(d.file).name}:{d.line}:{d.column}" if d.line else Path(d.file).name),
                   "provision": _diag_link(located, d, P, page), "severity": str(d.severity),
                   "code": esc.text(d.code), "message": esc.text(d.message)} for d in found])
    out["diagnostics.md"] = env.get_template("diagnostics.md.j2").render(
        files=files, summary={s: sum(1 for d in diags if str(d.severity) == s) for s in SEVERITIES})
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "file"


def _provision_at(corpus: Corpus) -> dict[str, list[tuple[int, str]]]:
    """file -> (raw line, provision id) of every node, sorted: to find the provision a finding is in."""
    out: dict[str, list[tuple[int, str]]] = {}
    for c in corpus.documents:
        rows = sorted((n.line, n.id) for n in c.document.walk() if n.id and n.kind in ("section", "provision"))
        out[c.document.file] = rows
    return out


def _diag_link(located: dict[str, list[tuple[int, str]]], d: Diagnostic, P: Pages, page: str) -> str:
    """The provision a finding is in, as a link to it on its law page ("" when it is in none that has one)."""
    rows = located.get(d.file)
    if not rows or not d.line:
        return ""
    i = bisect.bisect_right(rows, (d.line, "\uffff")) - 1
    if i < 0:
        return ""
    node_id = rows[i][1]
    for nid in lineage(node_id):
        href = P.href(page, section_of(nid), nid)
        if href:
            return f'<a href="{href}">{esc.text(cite_id(nid))}</a>'  # a citation, never the id
    return ""
