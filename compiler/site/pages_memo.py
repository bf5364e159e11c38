"""The keys of a law page's memo, made of what the page is made from rather than of the page's view
(issue 32): a one-word edit of one section must not make every section's view again only to find it
unchanged. ``section_inputs`` lists, cheaply, everything ``pages._section_view`` and the page's law read
for one section; the view is made only for a page whose inputs changed (``pages._section_pages``).

Also: what is announced for each section (``Announcements``), found through an index of the changes
after the site's date instead of a scan of every change for every section.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Mapping, Protocol, Sequence

from navlaw.model.content import content
from navlaw.model.nodes import section_name, section_of
from navlaw.site.announced import Announced, pending
from navlaw.site.parts import part_name
from navlaw.site.render import anchor

if TYPE_CHECKING:
    from navlaw.frontend.acts import Act
    from navlaw.law.amend import ActOutcome
    from navlaw.law.timeline import Composed, Timeline
    from navlaw.model.nodes import Article, Node, Section
    from navlaw.report.changes import Changes
    from navlaw.site.render import Pages

# A change to what the section view shows that its inputs below do not cover must change this (the page
# memo then misses once for every page). The templates and the code are in every key already (the cache's
# fingerprint): this is for a reader of the code, who sees which key goes with which view.
VIEW = "section-view-1"


class Site(Protocol):
    """What of pages._Site (one build's pages) a law page's inputs are read from."""

    timeline: Timeline
    on: dt.date
    P: Pages
    order: list[tuple[str, Article | None]]
    composed: dict[str, Composed]
    titled: dict[str, Section]
    new_matter: dict[str, str]
    article_page: dict[int, str]
    part_of: dict[str, Node]


class Announcements:
    """``announced.pending`` for every section of one build, each asked of the changes that name it: the
    changes after the site's date indexed once by the sections they touch (their acts' instructions, their
    sections, the texts the corpus starts or stops knowing, the fee changes said of a section)."""

    def __init__(self, changes: Sequence[Changes], acts: Sequence[Act], on: dt.date) -> None:
        self.acts, self.on = acts, on
        # what the law stage did with each act, as ``pending`` finds it: from every change, not only the later
        self.outcomes: Mapping[str, ActOutcome] = {f: o for c in changes for f, o in c.outcomes.items()}
        self.later = [c for c in changes if c.end > on]
        self.touched: dict[str, set[int]] = {}  # section -> the later changes that name it
        self.said: dict[str, set[int]] = {}  # "§ 89-b" -> the later changes with a fee change said of it
        for k, c in enumerate(self.later):
            secs = {section_of(i.target) for a in c.acts for i in a.instructions}
            secs.update(sc.section for sc in c.sections)
            secs.update(s for listed in c.known.values() for s in listed)
            for s in secs:
                self.touched.setdefault(s, set()).add(k)
            for d in c.deltas:  # announced._about: the line starts with the section's name and "(", ":" or " "
                for p, ch in enumerate(d):
                    if ch in "(: ":
                        self.said.setdefault(d[:p], set()).add(k)

    def of(self, section: str) -> list[Announced]:
        """``pending(changes, acts, section, on)``: the same list."""
        ks = self.touched.get(section, set()) | self.said.get(section_name(section), set())
        return pending([self.later[k] for k in sorted(ks)], self.acts, section, self.on, self.outcomes)


def section_inputs(site: Site, k: int, has_history: bool, cited_by: Sequence[str],
                   announced: Sequence[Announced]) -> list[str]:
    """Everything the k-th section's page is made from besides the site-wide context (``Memo.set_context``):
    the law it shows (less its place in the file) and the law its title is taken from, where each part of it
    comes from, its notes and new matter, its place in the law's order (its article and Part, the sections
    before and after it), its dates, what cites it, what is announced for it, and the site's date."""
    timeline, on, order = site.timeline, site.on, site.order
    sec, a = order[k]
    comp = site.composed[sec]
    page = site.P.section_page[sec]
    titled = site.titled[sec]
    where = [] if a is None else [a.label, a.heading, a.id, site.article_page[id(a)]]
    part = site.part_of.get(sec) if a is not None else None
    if part is not None:
        where += [part_name(part), anchor(part.id)]
    steps = [(j - k, order[j][0], site.P.section_page[order[j][0]]) for j in (k - 1, k + 1) if 0 <= j < len(order)]
    # the law as its own part (a repr of it would copy it again); the rest in one repr (a part's cost is its call)
    return [content(titled), repr((VIEW, sec, page, on.isoformat(), where, steps,
                                   comp.section is None,  # the law shown is the titled text, when there is one
                                   comp.message, comp.gaps, [(pid, v.file, v.note) for pid, v in comp.sources],
                                   sorted(site.P.notes.get(page, {}).items()), site.new_matter.get(page, ""),
                                   (page in site.P.bracketed, page in site.P.amended, has_history),
                                   timeline.boundaries(sec), timeline.pending(sec, on), list(cited_by),
                                   list(announced)))]
