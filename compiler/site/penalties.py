"""The site's penalty index: every fine, civil penalty and forfeiture the corpus states in dollars, a page
per article (``penalties/article-06/``) under an index of the articles with their counts and amounts
(``penalties/``). At the scale of all the consolidated laws one table of every penalty would be a page
the size of the corpus's penalties."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from jinja2 import Environment

from navlaw import escape as esc
from navlaw.model.nodes import section_of, section_order
from navlaw.report.changes import brief
from navlaw.report.tariffs import stated
from navlaw.site.render import Pages, _rel, tariff_link
from navlaw.model.tariffs import AnyTariff, Penalty

BOUND = {"max": "at most", "min": "at least"}


def penalty_pages(tariffs: list[AnyTariff], P: Pages, env: Environment,
                  articles: Sequence[tuple[str, str, list[str]]]) -> dict[str, str]:
    """``penalties.md`` and a page per article with penalties; ``articles`` (title, page, sections) in
    the law's order. A penalty in no article (a rule's, a section the consolidation does not place)
    is on the page of the other sections."""
    of = {sec: k for k, (_, _, secs) in enumerate(articles) for sec in secs}
    groups: dict[int, list[Penalty]] = {}
    for t in tariffs:
        if isinstance(t, Penalty):
            groups.setdefault(of.get(section_of(t.provision), len(articles)), []).append(t)
    out: dict[str, str] = {}
    index = []
    for k in sorted(groups):
        found = sorted(groups[k], key=lambda t: (section_order(t.provision), t.provision, t.id))
        title, slug = (articles[k][0], Path(articles[k][1]).stem) if k < len(articles) else ("Other sections", "other")
        page = f"penalties/{slug}.md"
        amounts = sorted((t for t in found if t.amount is not None), key=lambda t: stated(t, t.amount))
        index.append({"title": esc.text(title), "href": _rel("penalties.md", page), "count": len(found),
                      "low": esc.text(brief(amounts[0])) if amounts else "",
                      "high": esc.text(brief(amounts[-1])) if amounts else ""})
        out[page] = env.get_template("penalties-article.md.j2").render(title=esc.text(title), rows=[
            {"link": tariff_link(t, P, page), "bound": BOUND.get(t.bound, "exactly"), "amount": esc.text(brief(t)),
             "phrase": esc.text(t.phrase), "status": t.status, "file": esc.text(Path(t.file).name)} for t in found])
    out["penalties.md"] = env.get_template("penalties.md.j2").render(articles=index)
    return out

