"""What the site says about time: the dates each text of a section is known from, the notes a law page
shows when its text is old, and one history page per section with every version, a redline from the
version before, a redline between any two versions, and a "view as of" date picker.

Law pages show the law in force on the site's date (``navlaw build --on DATE``, default the day of the
build); superseded text lives on the history pages, never beside current law.
"""

from __future__ import annotations

import datetime as dt
from difflib import SequenceMatcher
from itertools import combinations
from typing import Callable, Sequence

from jinja2 import Environment

from navlaw import escape as esc
from navlaw.model.content import content
from navlaw.model.nodes import Provision, Section, Table, lineage, section_name
from navlaw.frontend.newmatter import TOKEN
from navlaw.law.redline import compare
from navlaw.law.timeline import Composed, Timeline, TextVersion, short_name
from navlaw.report.changes import Changes, cited, redline_html, report, under_its_date
from navlaw.model.tariffs import AnyTariff
from navlaw.site.render import Memo, Pages, _rel, cite_id, sec_name, named, render_node, section_slug

# Up to this many versions of a section, its history page holds the redline between every two of
# them (n·(n−1)/2); past it, each version against the one before and against the latest only, so a
# page stays linear in the number of versions.
ALL_PAIRS = 8


def history_page(section: str) -> str:
    return f"history/{section_slug(section)}.md"


def source_line(pid: str, v: TextVersion) -> str:
    return f"{cite_id(pid)}: {short_name(v.file).split('#')[0]} — {v.note}"


def known_note(timeline: Timeline, v: TextVersion, on: dt.date) -> str:
    """For a text whose latest known version is old on the site's date: from which source and dates it
    is known, and that the corpus has nothing later ("" when the text is current law)."""
    span = timeline.span(v)
    if span.end is not None or v.known_until is None or v.known_until > on:
        return ""
    start = f"{v.start}" if v.start else "a date not established"
    return (f"Known to be in force from {start} to {v.known_until} ({short_name(v.file).split('#')[0]}); the corpus "
            f"has no later text of it, so whether it is still the law on {on} is not established.")


def known_notes(timeline: Timeline, comp: Composed, on: dt.date) -> dict[str, str]:
    """Provision id -> its note, for each part of a composed section whose text is only known up to a past
    date (the section's own id for the base text)."""
    out: dict[str, str] = {}
    base = comp.sources[0][1] if comp.sources else None
    said: dict[str, str] = {}  # provision id -> the file its note names (a part inside it from the same file: once)
    for pid, v in comp.sources:
        if any(said.get(up) == v.file for up in lineage(pid)[1:]):
            continue
        note = known_note(timeline, v, on)
        if not note and base is not None and v.file != base.file:  # a part from another text than the rest
            note = f"This part: {short_name(v.file).split('#')[0]} — {v.note}."
        if note:
            out[pid] = note
            said[pid] = v.file
    return out


def older_parts(timeline: Timeline, comp: Composed, on: dt.date) -> dict[str, str]:
    """Provision id -> a label, for each provision of a law page whose own words (its text, and the tables
    and sentences under it before its numbered parts) come from an older text than parts below it: § 88(4)(b)
    of a 2002 consolidation above (b)(1)(ii)(1)(A) of a 2022 text. Such a part is older law, said where it
    stands, with its source and dates (issue 30); "" where the base text is current law."""
    if len(comp.sources) < 2 or comp.section is None:
        return {}
    base = comp.sources[0][1]
    note = known_note(timeline, base, on)
    if not note:
        return {}
    later = [(pid, v) for pid, v in comp.sources[1:] if v.file != base.file]
    out: dict[str, str] = {}
    for n in comp.section.walk():
        if not isinstance(n, Provision) or not n.id:
            continue
        below = [(pid, v) for pid, v in later if pid.startswith(n.id + "/")]
        if not below or any(n.id == pid or n.id.startswith(pid + "/") for pid, _ in later):
            continue
        own = [c for c in n.children if not isinstance(c, Provision) and (c.text.strip() or isinstance(c, Table))]
        if not own and not n.text.strip():
            continue
        files = sorted({short_name(v.file).split("#")[0] for _, v in below})
        what = (("its words above, and the table and text below before its numbered parts"
                 if any(isinstance(c, Table) for c in own) else "its words above, and the text below before its "
                 "numbered parts") if own else "its own words above")
        out[n.id] = (f"Older text: {cite_id(n.id)} — {what} — is from "
                     f"{short_name(base.file).split('#')[0]}, not from {', '.join(files)}, the later text of the parts "
                     f"below it marked so. {note}")
    return out


def act_insertions(comp: Composed) -> tuple[dict[str, tuple[tuple[str, str], ...]], dict[int, set[tuple[int, int]]]]:
    """New matter on a law page, as the act marks it: for each provision whose text in force comes from an
    amending act, its words in runs ("+" new matter, "=" old law), and for each of its tables the cells
    holding new matter (by ``id()`` of the table: row, column). The act prints new matter in CAPITALS and
    its case is restored when it is read, so new matter is found again as the words that are not among
    the old law the act quotes (``TextVersion.quoted``); a provision the act adds is new matter whole."""
    words: dict[str, tuple[tuple[str, str], ...]] = {}
    cells: dict[int, set[tuple[int, int]]] = {}
    for _, v in comp.sources:
        if v.quoted is None or v.node is None:
            continue
        keys: list[str] = []
        slots: list[tuple[str, int, int] | None] = []  # where each token is: a provision's word, a cell, or neither
        provisions = [n for n in v.node.walk() if n.kind == "provision" or isinstance(n, Table)]
        for n in provisions:
            if isinstance(n, Table):
                for row in ((n.header,) if n.header is not None else ()):
                    for cell in row.cells:
                        keys += [t.lower() for t in TOKEN.findall(cell.text)]
                        slots += [None] * len(TOKEN.findall(cell.text))
                for r, row in enumerate(n.rows):
                    for c, cell in enumerate(row.cells):
                        for t in TOKEN.findall(cell.text):
                            keys.append(t.lower())
                            slots.append((f"#{id(n)}", r, c))
                continue
            for t in TOKEN.findall(n.label):
                keys.append(t.lower())
                slots.append(None)
            for k, w in enumerate(n.text.split()):
                for t in TOKEN.findall(w):
                    keys.append(t.lower())
                    slots.append((n.id, k, 0))
        new: set[tuple[str, int, int]] = set()
        for tag, _, _, j1, j2 in SequenceMatcher(a=list(v.quoted), b=keys, autojunk=False).get_opcodes():
            if tag in ("insert", "replace"):
                new.update(x for x in slots[j1:j2] if x is not None)
        for n in provisions:
            if isinstance(n, Table):
                marked = {(r, c) for key, r, c in new if key == f"#{id(n)}"}
                if marked:
                    cells[id(n)] = marked
                continue
            runs: list[tuple[str, str]] = []
            for k, w in enumerate(n.text.split()):
                op = "+" if (n.id, k, 0) in new else "="
                runs = runs[:-1] + [(op, runs[-1][1] + " " + w)] if runs and runs[-1][0] == op else runs + [(op, w)]
            if any(op == "+" for op, _ in runs):
                words[n.id] = tuple(runs)
    return words, cells


def section_histories(timeline: Timeline, P: Pages, env: Environment, on: dt.date,
                      wanted: set[str], memo: Memo) -> dict[str, str]:
    """A history page for each section with more than one version, and for each in ``wanted`` (those
    whose law page shows no text on the site's date: their text is here)."""
    out: dict[str, str] = {}
    for sec in sorted(P.section_page):
        dates = timeline.boundaries(sec)
        page = history_page(sec)
        comps = [(d, timeline.section_on(sec, d)) for d in dates]
        # a rule in bracket notation has one: its markup (what the amendment deleted) is its history
        if sum(1 for _, c in comps if c.section is not None) < 2 and sec not in wanted and \
                history_page(sec) not in P.bracketed:
            continue
        current = max((d for d in dates if d <= on), default=None)
        # the page is made of each version's text, message, gaps and sources (and the site-wide context)
        parts = ["history", page, on.isoformat(), str(sec in P.section_page)] + [
            repr((d, content(c.section), c.message, c.gaps, [source_line(pid, v) for pid, v in c.sources])) for d, c in comps]

        def render(sec: str = sec, page: str = page, comps: list[tuple[dt.date, Composed]] = comps,
                   current: dt.date | None = current, first: dt.date | None = dates[0] if dates else None) -> str:
            return _history(env, P, sec, page, comps, on, current, first)
        out[page] = memo.page(parts, render)
    return out


def _history(env: Environment, P: Pages, sec: str, page: str, comps: list[tuple[dt.date, Composed]], on: dt.date,
             current: dt.date | None, first: dt.date | None) -> str:
    def link(node_id: str) -> str:
        return named(P, page, node_id, f"<b>{esc.text(cite_id(node_id))}</b>")  # a citation, never the id

    versions: list[dict[str, object]] = []
    texts: list[tuple[str, Section]] = []  # (date, section tree) of each version with text
    prev = None
    for d, comp in comps:
        prefix = f"v{d.isoformat()}-"
        body = "\n".join(render_node(comp.section, P, page, prefix=prefix)) if comp.section is not None else ""
        red = redline_html(compare(prev, comp.section), link) if prev is not None and comp.section is not None else ""
        # a version some of whose texts start on a day known only between bounds: said with the date
        bounded = sorted({v.start_words() for _, v in comp.sources if v.possible_from is not None and v.start == d})
        versions.append({"date": d.isoformat(), "message": cited(comp.message), "gaps": [cited(g) for g in comp.gaps], "html": body,
                         "redline": red, "sources": [source_line(pid, v) for pid, v in comp.sources],
                         "between": "; ".join(bounded)})
        if comp.section is not None:
            prev = comp.section
            texts.append((d.isoformat(), comp.section))
    return env.get_template("history.md.j2").render(
        section=sec, name=sec_name(sec), versions=versions, pairs=_pairs(texts, link), on=on.isoformat(),
        current=current.isoformat() if current else "", first=first.isoformat() if first else "",
        law=_law_link(P, sec))


def _pairs(texts: list[tuple[str, Section]], link: Callable[[str], str]) -> list[dict[str, str]]:
    """The redline between two versions, for every pair a reader may pick (see ALL_PAIRS)."""
    n = len(texts)
    if n <= ALL_PAIRS:
        picks = list(combinations(range(n), 2))
    else:
        picks = sorted({(i - 1, i) for i in range(1, n)} | {(i, n - 1) for i in range(n - 1)})
    return [{"from": texts[i][0], "to": texts[j][0], "html": redline_html(compare(texts[i][1], texts[j][1]), link)}
            for i, j in picks]


def _law_link(P: Pages, sec: str) -> str:
    return f"../law/{section_slug(sec)}.md" if sec in P.section_page else ""  # a Markdown link: MkDocs resolves it


def picker(timeline: Timeline, sec: str, on: dt.date, has_history: bool) -> dict[str, object]:
    """The "view as of" control of a law page: the dates its text changes, each a link to that version on
    the section's history page, and a date field that finds the version in force on any day."""
    dates = [d.isoformat() for d in timeline.boundaries(sec)]
    return {"dates": dates if has_history else [], "on": on.isoformat(),
            "href": "../../" + history_page(sec)[:-3] + "/"}


def change_pages(dated: list[Changes], tariffs: list[AnyTariff], P: Pages,
                 articles: Sequence[tuple[str, str, list[str]]] = ()) -> dict[str, str]:
    """The change report on the site: a page per year (``changes/<year>/``) with what changes on each of
    its dates, every section, provision and fee it names a link, and the index of the years
    (``history/``) saying in a few words what each date changes. An amendment makes MkDocs convert
    its years' pages again, not every year's (at the scale of all the consolidated laws one page of
    every change would be converted whole at every rebuild). ``articles`` (title, page, sections):
    where the record of every section of an article begins or ends on one date, the article is named
    once, a link to its page, not each of its sections."""
    years: dict[int, list[Changes]] = {}
    for found in dated:
        years.setdefault(found.end.year, []).append(found)
    index = ["# History and changes", "",
             "Each date on which a text or a fee of the corpus takes effect or stops being known, with what "
             "changes that day, a page per year. Generated by `navlaw build` from corpus/. A section's "
             "versions, one by one, are on its history page (linked from its law page).", ""]
    if not years:
        index.append("No text or fee of the corpus changes on any date the corpus knows.")
    out: dict[str, str] = {}
    order = sorted(years)
    for k, year in enumerate(order):
        page = f"changes/{year}.md"

        def link(node_id: str, text: str, page: str = page) -> str:
            return named(P, page, node_id, text)

        def listing(sections: list[str], page: str = page) -> str:
            return _listing(sections, articles, P, page)
        around = [f"{side}: [{order[j]}]({order[j]}.md)" for side, j in (("Earlier", k - 1), ("Later", k + 1))
                  if 0 <= j < len(order)]
        lines = [f"# Changes in {year}", "", " · ".join(["Every year: [History and changes](../history.md)", *around]), ""]
        for found in years[year]:
            lines += under_its_date(found, report(found, tariffs, quote=esc.text, html=True, link=link, listing=listing))
        out[page] = "\n".join(lines).rstrip("\n") + "\n"
        index.append(f"- **{year}**: " + "; ".join(f"[{f.end}](changes/{year}.md#{f.end}) — {_in_words(f)}"
                                                 for f in years[year]))
    out["history.md"] = "\n".join(index) + "\n"
    return out


def _listing(sections: list[str], articles: Sequence[tuple[str, str, list[str]]], P: Pages, page: str) -> str:
    """Sections whose record begins or ends together, in the law's order: an article all of whose
    sections (two or more) are among them is one link to the article's page ("Article 6. Pilots: all 32
    sections, § 70 to § 89-b"); the others are each a link. When a whole corpus begins its record on
    one date, its year's page names the articles, not tens of thousands of sections."""
    chosen = set(sections)
    whole = {k for k, (_, _, members) in enumerate(articles) if len(members) > 1 and chosen.issuperset(members)}
    of = {m: k for k in whole for m in articles[k][2]}
    out: list[str] = []
    done: set[int] = set()
    for sec in sections:
        k = of.get(sec)
        if k is None:
            out.append(named(P, page, sec, esc.text(section_name(sec))))
        elif k not in done:
            done.add(k)
            title, target, members = articles[k]
            span = f"{section_name(members[0])} to {section_name(members[-1])}"
            out.append(f'<a href="{_rel(page, target)}">{esc.text(title)}</a>: all {len(members)} sections, '
                       f"{esc.text(span)}")
    return ", ".join(out)


def _in_words(found: Changes) -> str:
    """What a date changes, counted: "1 amending act, 2 sections changed, 3 fee changes"."""
    def n(count: int, one: str, many: str) -> str:
        return f"{count} {one if count == 1 else many}"
    parts = []
    if found.acts:
        parts.append(n(len(found.acts), "amending act takes effect", "amending acts take effect"))
    if found.sections:
        parts.append(n(len(found.sections), "section changes", "sections change"))
    if found.known:
        parts.append(n(sum(len(v) for v in found.known.values()), "text the corpus starts or stops knowing",
                       "texts the corpus starts or stops knowing"))
    if found.deltas:
        parts.append(n(len(found.deltas), "fee change", "fee changes"))
    return ", ".join(parts)
