"""The Parts of an article on the site: their names, the Part each section stands in, and the Parts with no
section to show (the law index lists every Part, so each needs its heading on its article's page)."""

from __future__ import annotations

from collections.abc import Mapping

from navlaw.model.nodes import Article, Node, Part, Section


def part_name(p: Node) -> str:
    """"Part 2. PUBLIC VESSELS" (article pages, the law index, breadcrumbs)."""
    return f"Part {p.label}. {p.heading}".rstrip(". ")


def parts_of(a: Node) -> dict[str, Node]:
    """Each section of an article that stands in a Part -> that Part."""
    return {s.id: p for p in a.children if isinstance(p, Part) for s in p.walk() if isinstance(s, Section)}


def unlisted_parts(a: Article, shown: Mapping[str, object]) -> list[tuple[int, Part]]:
    """The Parts of ``a`` none of whose sections is ``shown`` (a "PART 2" heading with nothing under it yet),
    each with the number of shown sections before it in the article."""
    out: list[tuple[int, Part]] = []
    count = 0
    for n in a.walk():
        if isinstance(n, Section) and n.id in shown:
            count += 1
        elif isinstance(n, Part) and not any(isinstance(s, Section) and s.id in shown for s in n.walk()):
            out.append((count, n))
    return out
