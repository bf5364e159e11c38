"""Generates the reference site's Markdown (Jinja2 templates in compiler/templates/site/) and builds it
with MkDocs Material (``mkdocs build --strict``, see compiler/site/mkdocs_build.py): a page per section
with the law in force on the site's date, a page per article, history pages (compiler/site/history.py),
tariffs with charts, penalties, the change report, the calculator and the diagnostics.

Law text is rendered by compiler/site/render.py, every character of the corpus escaped: nothing in the
corpus can inject markup or script.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from navlaw import resources
from navlaw import escape as esc
from navlaw.cache import jinja_bytecode
from navlaw.diagnostics import Diagnostics
from navlaw.frontend.corpus import Corpus
from navlaw.model.nodes import Article, Node, Part, Provision, Section, Text, section_of
from navlaw.site.parts import part_name, parts_of, unlisted_parts
from navlaw.law.definitions import find as find_definitions
from navlaw.law.references import Reference
from navlaw.law.timeline import Composed, Timeline
from navlaw.site.calculator import plans_json
from navlaw.site.citations import citation_files
from navlaw.report.changes import Changes, cited
from navlaw.site.tariffs_page import tariffs_page
from navlaw.site.findings import diagnostics_pages
from navlaw.site.penalties import penalty_pages
from navlaw.site.history import (act_insertions, older_parts, change_pages, history_page, known_notes, picker, section_histories,
                                    source_line)
from navlaw.site.render import Memo, Pages, _rel, anchor, sec_name, rel_path, render_node, section_slug
from navlaw.site.announced import Announced, upcoming
from navlaw.site.pages_memo import Announcements, section_inputs
from navlaw.model.tariffs import AnyTariff
from navlaw.model.codes import chapter_name

SITE = resources.path("site")
TEMPLATES = resources.PACKAGE / "templates" / "site"

if TYPE_CHECKING:
    from navlaw.fees.plans import Plan



def _num(label: str) -> str:
    """Article labels sort as numbers in file names: "6" -> "06", "4-A" -> "04-A"."""
    m = re.match(r"(\d+)(.*)", label)
    return f"{int(m[1]):02d}{m[2]}" if m else label


def _clip(text: str, most: int = 80) -> str:
    """At most ``most`` characters, cut at a word with an ellipsis: "The pilots … shall" -> "The pilots …"."""
    text = " ".join(text.split())
    if len(text) <= most:
        return text
    cut = text[:most + 1].rsplit(" ", 1)[0].rstrip(" ,;:") if " " in text[:most + 1] else text[:most]
    return cut + " …"


def _article_name(a: Node) -> str:
    """"Article 6. PILOTS AND PILOTAGE FEES, PORT OF NEW YORK" (breadcrumbs, the change report, penalties)."""
    return f"Article {a.label}. {a.heading}".rstrip(". ")


def _articles(corpus: Corpus) -> list[tuple[Article, list[str]]]:
    base = next((c.document for c in corpus.documents if c.entry and c.entry.kind == "consolidated"), None)
    if base is None:
        return []
    out = []
    for a in base.children:
        if isinstance(a, Article):
            secs = [s.id for s in a.walk() if isinstance(s, Section)]  # "45-aaaa*2" too: New York repeats numbers
            out.append((a, secs))
    return out


@dataclass
class _Site:
    """What the pages of one build read: the corpus and its law, the templates, the site's date, the memo of
    the last build's pages, and where every section and article is (pass 1)."""

    corpus: Corpus
    timeline: Timeline
    changes: list[Changes]
    env: Environment
    on: dt.date
    memo: Memo
    P: Pages
    articles: list[tuple[Article, list[str]]]  # the consolidated chapter's articles and their sections
    article_page: dict[int, str] = field(init=False)  # id() of an article -> its page
    part_of: dict[str, Node] = field(init=False)  # a section that stands in a Part -> that Part
    # pass 1 (_place): every section with a page, in the law's order, and its article (None: in no article)
    order: list[tuple[str, Article | None]] = field(default_factory=list)
    composed: dict[str, Composed] = field(default_factory=dict)  # each section as in force on the site's date
    titled: dict[str, Section] = field(default_factory=dict)  # the text a page takes its title from (in force,
    # else the latest)
    new_matter: dict[str, str] = field(default_factory=dict)  # page -> what of its text is an act's new matter
    # (for the memo key)
    wanted: set[str] = field(default_factory=set)  # sections with no text in force on the site's date: their
    # texts are on history

    def __post_init__(self) -> None:
        self.article_page = {id(a): f"law/article-{_num(a.label)}.md" for a, _ in self.articles}
        self.part_of = {sec: p for a, _ in self.articles for sec, p in parts_of(a).items()}


def pages(corpus: Corpus, timeline: Timeline, tariffs: list[AnyTariff], diags: Diagnostics,
          changes: list[Changes], on: dt.date | None = None,
          memo: Memo | None = None, references: Sequence[Reference] = (),
          fees: tuple[dict[str, Plan], str] | None = None) -> dict[str, str]:
    """Every page of the site: path under docs/ -> Markdown. Law pages show the law in force ``on`` the
    site's date (default: today). With ``memo`` (the pages of the last build), a page whose inputs
    are unchanged is taken from it instead of rendered (``memo.new`` then holds this build's pages).
    ``references``: the texts' cross-references (navlaw.law.Law.references), for each page's "Cited by".
    ``fees``: the plans of the tariffs (navlaw.fees.plans.build_plans) and the tariffs' digest
    (navlaw.fees.memo.tariffs_digest), as the fee module's stage made them (else made here)."""
    on = on or dt.date.today()
    memo = memo if memo is not None else Memo()
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=jinja_bytecode())
    env.filters["esc"] = esc.text  # the one escaping rule (compiler/escape.py) for corpus text in templates
    P = Pages()
    articles = _articles(corpus)
    P.definitions = find_definitions(corpus)
    P.article_of = {sec: a.label for a, secs in articles for sec in secs}
    site = _Site(corpus, timeline, changes, env, on, memo, P, articles)
    _place(site)
    cited_by = _cited_by(references, P)
    memo.set_context(P)
    history = section_histories(timeline, P, env, on, site.wanted, memo)
    # pass 2: a page per section, and per article the list of its sections
    out: dict[str, str] = {}
    law_pages = _section_pages(site, out, history, cited_by)
    for a, secs in articles:
        _article_page(site, out, a, secs, law_pages)
    out["law/outside.md"] = _outside(corpus, P, env)
    if fees is None:
        from navlaw.fees.memo import tariffs_digest
        from navlaw.fees.plans import build_plans
        from navlaw.tariffs.routes import RouteTable
        fees = build_plans(tariffs, RouteTable.of(corpus.manifest)), tariffs_digest(tariffs)
    plans, routes = _tariffs_page(site, out, tariffs, fees)
    by_article = [(_article_name(a), site.article_page[id(a)], [x for x in secs if x in site.composed])
                  for a, secs in articles]
    out.update(_penalties(site, tariffs, by_article, fees[1]))
    out.update(change_pages(changes, tariffs, P, by_article))
    out.update(history)
    out["assets/history.js"] = (TEMPLATES / "history.js").read_text(encoding="utf-8")
    out.update(diagnostics_pages(corpus, diags, P, env))
    out.update(_calculator(site, plans))
    law = corpus.manifest.law or "law"  # whose law the corpus is (the manifest's law = "…")
    out["index.md"] = env.get_template("index.md.j2").render(law_pages=law_pages, routes=routes, on=on.isoformat(),
                                                             upcoming=upcoming(changes, on), law=law,
                                                             rules=_rules(corpus))
    out["law/index.md"] = env.get_template("law-index.md.j2").render(outside="outside.md", law=law,
        law_pages=[(os.path.relpath(pg, "law"), title, n, parts) for pg, title, n, parts in law_pages])
    memo.finish(out)  # the law and history pages not taken from the last build, rendered now
    out["assets/navlaw.css"] = (TEMPLATES / "navlaw.css").read_text(encoding="utf-8")
    out["assets/cite.js"] = (TEMPLATES / "cite.js").read_text(encoding="utf-8")
    out["assets/search-cite.js"] = (TEMPLATES / "search-cite.js").read_text(encoding="utf-8")
    out.update(_citations(site))  # assets/citations/: fetched by search-cite.js on demand
    return out


def _place(site: _Site) -> None:
    """Pass 1: which section goes where (one page each), and which anchors exist."""
    timeline, on, P = site.timeline, site.on, site.P
    order: list[tuple[str, Article | None]] = []
    for a, secs in site.articles:
        for sec in secs:
            order.append((sec, a))
    placed = {x for x, _ in order}
    order += [(t, None) for t in timeline.sections() if t not in placed]
    for sec, _ in order:
        latest = timeline.latest(sec)
        if latest.section is None:
            continue  # no dated text of it at all: nothing to show
        comp = timeline.section_on(sec, on)
        site.composed[sec] = comp
        site.titled[sec] = comp.section or latest.section
        page = f"law/{section_slug(sec)}.md"
        P.section_page[sec] = page
        P.anchors.add((page, anchor(sec)))
        if comp.section is None:
            site.wanted.add(sec)
            continue
        if comp.from_rule:
            P.bracketed.add(page)
            P.bracketed.add(history_page(sec))  # its history page shows the markup: what the amendment deleted
        for n in comp.section.walk():
            if n.id:
                P.anchors.add((page, anchor(n.id)))
        notes = known_notes(timeline, comp, on)
        older = {pid: note for pid, note in older_parts(timeline, comp, on).items() if pid not in notes}
        notes.update(older)
        P.older.update((page, pid) for pid in older)
        if notes:
            P.notes[page] = notes
        words, cells = act_insertions(comp)
        site.new_matter[page] = repr((sorted(words.items()), [sorted(c) for c in cells.values()]))
        if words or cells:
            P.inserted.update({(page, pid): ops for pid, ops in words.items()})
            P.inserted_cells.update(cells)
            P.amended.add(page)
    site.order = [(sec, a) for sec, a in order if sec in site.composed]


def _cited_by(references: Sequence[Reference], P: Pages) -> dict[str, list[str]]:
    """Each section with a page -> the other sections that cite it, in the order of the references."""
    cited_by: dict[str, list[str]] = {}
    for r in references:
        if not r.external and r.target in P.section_page:
            src = section_of(r.source)
            if src != r.target and src not in cited_by.setdefault(r.target, []):
                cited_by[r.target].append(src)
    return cited_by


LawPage = tuple[str, str, int, list[tuple[str, str]]]  # page, title, sections on it, its Parts (name, anchor)


def _section_pages(site: _Site, out: dict[str, str], history: dict[str, str],
                   cited_by: dict[str, list[str]]) -> list[LawPage]:
    """A page per section (taken from the memo when its inputs are unchanged); the law index's entries for the
    sections in no article."""
    law_pages: list[LawPage] = []
    P, env = site.P, site.env
    announcements = Announcements(site.changes, getattr(site.corpus, "acts", ()), site.on)
    for k, (sec, a) in enumerate(site.order):
        page = P.section_page[sec]
        s = site.titled[sec]
        _claim(out, page, s.citation or sec)
        announced = announcements.of(sec)

        def render(k: int = k, page: str = page, announced: list[Announced] = announced) -> str:
            view, shown = _section_view(site, k, history, cited_by, announced)
            html = "\n".join(render_node(shown, P, page)) if shown is not None else ""
            return env.get_template("section.md.j2").render(html=html, **view)
        # the page is made of what its view and its law are made of (and the site-wide context): the view is
        # made only when they changed (compiler/site/pages_memo.py)
        inputs = section_inputs(site, k, history_page(sec) in history, cited_by.get(sec, ()), announced)
        out[page] = site.memo.page(["section", page, *inputs], render)
        if a is None:
            law_pages.append((page, s.citation or sec, 1, []))
    return law_pages


def _section_view(site: _Site, k: int, history: dict[str, str], cited_by: dict[str, list[str]],
                  announced: list[Announced]) -> tuple[dict[str, object], Section | None]:
    """What the k-th section's page shows (its template's variables), and the law in force it shows.
    Everything it reads is in the page's memo key (compiler/site/pages_memo.py's ``section_inputs``)."""
    timeline, on, P, order = site.timeline, site.on, site.P, site.order
    sec, a = order[k]
    comp = site.composed[sec]
    page = P.section_page[sec]
    s = site.titled[sec]
    sources = [source_line(pid, v) for pid, v in comp.sources]
    crumbs = [(chapter_name(s.citation),
               _rel(page, "law/index.md"))]
    if a is not None:
        article_page, part_of = site.article_page[id(a)], site.part_of
        crumbs.append((_article_name(a), _rel(page, article_page)))
        if sec in part_of:  # "Part 2. PUBLIC VESSELS", at its heading on the article's page
            crumbs.append((part_name(part_of[sec]), _rel(page, article_page) + "#" + anchor(part_of[sec].id)))
    step = {("previous" if j < k else "next"): (sec_name(order[j][0]), _rel(page, P.section_page[order[j][0]]))
            for j in (k - 1, k + 1) if 0 <= j < len(order)}
    hist = history_page(sec)
    shown = comp.section
    view = dict(
        title=f"{s.citation}. {s.heading}".rstrip(". ") + "." if s.heading else s.citation or sec,
        anchor=anchor(sec), crumbs=crumbs, citation=s.citation, on=on.isoformat(),
        tags=json.dumps(search_tags(sec.split("*")[0].split("/")[-1]), ensure_ascii=True),  # JSON is YAML: data
        contents=[(c.label, anchor(c.id), _clip(c.text or c.heading)) for c in s.children
                  if isinstance(c, Provision)] if shown is not None else [],
        absent=cited(comp.message) if shown is None else "",
        known=P.notes.get(page, {}).get(sec, ""), parts=len(comp.sources) > 1,
        sources=sources,
        gaps=[cited(g) for g in comp.gaps] + timeline.pending(sec, on),  # (and texts that may already be in force)
        history=_rel(page, hist) if hist in history else "", bracketed=page in P.bracketed, amended=page in P.amended,
        picker=picker(timeline, sec, on, hist in history),
        duplicate=(sec.split("*")[0], int(sec.split("*")[1])) if "*" in sec else None,
        previous=step.get("previous"), next=step.get("next"),
        cited_by=[(sec_name(src), P.href(page, src)) for src in cited_by.get(sec, []) if P.href(page, src)],
        data=_data_links(timeline, sec, on, page),
        announced=announced)  # not yet in force on the site's date (announced.pending)
    return view, shown


def _article_page(site: _Site, out: dict[str, str], a: Article, secs: list[str], law_pages: list[LawPage]) -> None:
    """An article's page: the list of its sections (under their Parts); its entry in the law index, after the
    articles before it and before the sections in no article."""
    P, part_of, titled, composed = site.P, site.part_of, site.titled, site.composed
    page = site.article_page[id(a)]
    items = [{"part": (part_name(part_of[sec]), anchor(part_of[sec].id)) if sec in part_of else None,
              "title": f"§ {sec.split('*')[0]}. {titled[sec].heading}".rstrip(". ") + ".",
              "href": rel_path(P.section_page[sec], os.path.dirname(page)),
              "empty": not titled[sec].children, "absent": composed[sec].section is None}
             for sec in secs if sec in composed]
    for k, p in reversed(unlisted_parts(a, composed)):  # a Part with no section shown: its heading all the same
        items.insert(k, {"part": (part_name(p), anchor(p.id)), "title": None})
    _claim(out, page, f"Article {a.label}")
    title = _article_name(a)
    out[page] = site.memo.page(["article", page, title, repr(items)], lambda: site.env.get_template(
        "article.md.j2").render(title=title, sections=items), counted=False)  # made of its title and its list
    parts = [(part_name(p), anchor(p.id)) for p in a.children if isinstance(p, Part)]
    law_pages.insert(len([p for p in law_pages if "article-" in p[0]]),
                     (page, _article_name(a), len(items), parts))


def _tariffs_page(site: _Site, out: dict[str, str], tariffs: list[AnyTariff],
                  fees: tuple[dict[str, Plan], str]) -> tuple[dict[str, Plan], list[dict[str, object]]]:
    """The tariffs page (compiler/site/tariffs_page.py); the plans and each route's entry on the home page."""
    from navlaw.tariffs.routes import RouteTable

    table = RouteTable.of(site.corpus.manifest)
    plans, key = fees
    out["tariffs.md"], routes = tariffs_page(tariffs, plans, table, site.P, site.env, site.on, site.memo, key)
    return plans, routes


PENALTIES = "penalty-pages-1"  # a change to what the penalty pages show that their key does not cover changes this


def _penalties(site: _Site, tariffs: list[AnyTariff], by_article: list[tuple[str, str, list[str]]],
               fees_key: str) -> dict[str, str]:
    """The penalty pages (compiler/site/penalties.py), from the last build when made from the same tariffs
    (``fees_key``: their digest, navlaw.fees.memo.tariffs_digest; "" makes them afresh) and articles, under
    the site-wide context (the links)."""
    def make() -> str:
        return json.dumps(penalty_pages(tariffs, site.P, site.env, by_article), ensure_ascii=False)

    if not fees_key:
        return penalty_pages(tariffs, site.P, site.env, by_article)
    made: dict[str, str] = json.loads(site.memo.now([PENALTIES, fees_key, repr(by_article)], make))
    return made


CITATIONS = "citation-files-1"  # a change to what the citation files hold that their key does not cover changes this


def _citations(site: _Site) -> dict[str, str]:
    """The search's citation files (compiler/site/citations.py), from the last build when made from the same
    citations of the same sections, under the site-wide context (every page's anchors, every section's page)."""
    files: dict[str, str] = {}

    def make() -> str:
        files.update(citation_files(site.P, site.titled))
        if any("\0" in x for kv in files.items() for x in kv):
            return ""  # (JSON escapes a NUL, and no file name holds one: never so)
        return "\0".join(x for kv in files.items() for x in kv)

    cites = [(sec, site.titled[sec].citation) for sec in site.P.section_page if sec in site.titled]
    joined = site.memo.now([CITATIONS, repr(cites)], make)
    if not joined:
        return files or citation_files(site.P, site.titled)
    parts = joined.split("\0")
    return dict(zip(parts[::2], parts[1::2]))


def _calculator(site: _Site, plans: dict[str, Plan]) -> dict[str, str]:
    """The calculator's page and scripts: the plans as data (assets/plans.js) for the same arithmetic as the
    fee module's, and the pages of the sections a quote can cite."""
    out: dict[str, str] = {}
    plan_data = plans_json(plans)
    out["assets/plans.js"] = ("// GENERATED by navlaw build from the tariff objects — do not edit.\nwindow.PLANS = "
                              + json.dumps(plan_data, sort_keys=True, ensure_ascii=False) + ";\n")
    out["assets/calculator.js"] = (TEMPLATES / "calculator.js").read_text(encoding="utf-8")
    out["assets/calculator-ui.js"] = (TEMPLATES / "calculator-ui.js").read_text(encoding="utf-8")
    names = {r.id: r.name for r in site.corpus.manifest.routes}
    P = site.P
    out["calculator.md"] = site.env.get_template("calculator.md.j2").render(
        routes=list(names.items()), on=site.on.isoformat(),
        pages=esc.script_json({sec: P.section_page[sec].replace(".md", "/")  # the sections a quote can cite, not all
                               for sec in sorted({section_of(p) for p in _provisions(plan_data)}) if sec in P.section_page}))
    return out


def _rules(corpus: Corpus) -> list[str]:
    """The regulations the corpus holds beside its law: "21 NYCRR § 55.2, Supplementary fees—Hudson River"."""
    return [f"{n.citation}, {n.heading}".rstrip(", ") for c in corpus.documents
            if c.entry is not None and c.entry.kind in ("rule", "proposed-rule")
            for n in c.document.walk() if isinstance(n, Section)]


def _data_links(timeline: Timeline, sec: str, on: dt.date, page: str) -> dict[str, str]:
    """The section as data, from its page: its JSON (every version) and its Akoma Ntoso as in force ``on``."""
    from navlaw.export import akn_path, api_path
    from navlaw.export.akn import expression_on

    here = page[: -len("index.md")] if page.endswith("index.md") else page[:-3] + "/"
    day = expression_on(timeline, sec, on)
    return {"json": rel_path(f"api/sections/{api_path(sec)}", here),
            "akn": rel_path(f"akn/{akn_path(sec, day.isoformat())}", here) if day is not None else ""}


def _outside(corpus: Corpus, P: Pages, env: Environment) -> str:
    """The page of the text outside any section (issue 30): each document's own text before (or between)
    its articles and sections — a chapter's opening section whose number and heading the source lost, a
    web page's title line, a State Register notice's front matter."""
    page = "law/outside.md"
    documents = []
    for c in corpus.documents:
        loose = [n for n in c.document.children if isinstance(n, Text) and n.text.strip()]
        if not loose:
            continue
        e = c.entry
        first = next((n for n in c.document.walk() if isinstance(n, Section)), None)
        opening = ""
        if e is not None and e.kind == "consolidated" and first is not None:
            # the text before the first section of a chapter is that chapter's opening section
            m = re.fullmatch(r"(\d+)", first.label)
            place = f" (by its place, § {int(m[1]) - 1})" if m and int(m[1]) > 1 else ""
            opening = (f"The text before § {first.label} is the chapter's opening section{place}: the source gives it "
                       f"no section number and no heading (they are lost, not repealed). It is law as the rest of "
                       f"{Path(c.source.path).name} is; its words are as the source gives them.")
        name = Path(c.source.path).name
        documents.append({"title": (f"Before § {first.label}: the opening of the chapter" if opening and first is not None
                                    else f"Before the sections of {name}"),
                          "anchor": "outside-" + re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-"),
                          "file": name, "source": e.source if e is not None else "", "opening": opening,
                          "html": "\n".join(x for n in loose for x in render_node(n, P, page))})
    return env.get_template("outside.md.j2").render(documents=documents, tags=json.dumps(["1"]))


def _claim(out: dict[str, str], page: str, what: str) -> None:
    """Two parts of the law that would be written to one page are an error, never an overwrite."""
    if page in out:
        from navlaw.diagnostics import Diagnostic, NavlawError, Severity
        raise NavlawError([Diagnostic(Severity.ERROR, f"{what} and another part of the corpus would both be the site's "
                                      f"page {page}: give them distinct numbers", page, code="site")])


# ---- the calculator ----------------------------------------------------------------------------------------

def _provisions(data: object) -> set[str]:
    """Every "provision" named in the calculator's data (the lines of its quotes cite them)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if isinstance(x.get("provision"), str):
                found.add(x["provision"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def search_tags(number: str) -> list[str]:
    """A section's number as search tags (weighted far above text). The search splits a query at "-"
    (lunr's query lexer always does) and looks for each part as the start of a word: "89-a" asks for
    words starting "89" and words starting "a" (English's stop word, so every "a…" word). Besides the
    number, a tag that is one word and starts with each later part — "a89" for § 89-a — lets the section
    whose number it is match every part of the query, and § 89-b ("b89") only "89". None starts with
    the first part alone ("88a" would outrank § 88 itself for "88": a rarer word than "88"). Left as it
    is: "§ 89-a" ranks § 45-aaaaa first ("§" matches every section, and § 45-aaaaa has more words
    starting "a"), and "45-aaaa" the sections with more "a"s, whose words start with it too."""
    parts = [p for p in re.split(r"[\s\-]+", number) if p]
    return [number] + [p + "".join(parts[:i] + parts[i + 1:]) for i, p in enumerate(parts) if i]
