"""Generates the reference site's Markdown (Jinja2 templates in compiler/templates/site/) and builds it
with MkDocs Material (``mkdocs build --strict``, see compiler/site_build.py).

Law text is emitted as HTML blocks that Markdown leaves alone, with every character of the corpus
escaped (``compiler/escape.py``, one rule for HTML and Markdown): nothing in the corpus can inject markup or script. Each provision has an
anchor built from its id (``#p-88-4-b-1-ii-A``) and its citation as a tooltip; cross-references
("§ 89-a", "section eighty-eight of this article") become links when the section exists.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from compiler import resources
from compiler.site.calculator import plans_json
from compiler.site.charts import fee_chart, fee_text, rate_chart
from compiler import escape as esc
from compiler.cache import jinja_bytecode
from compiler.diagnostics import Diagnostics
from compiler.frontend.corpus import Corpus
from compiler.tariffs.model import AnyTariff, BracketSchedule
from compiler.law.definitions import find as find_definitions, mark
from compiler.frontend.nodes import (Article, Formula, Node, Provision, Section, Table, Text, lineage, other_code,
                                     section_of, section_order)
from compiler.law.timeline import Timeline

SITE = resources.path("site")
TEMPLATES = resources.PACKAGE / "templates" / "site"



def anchor(node_id: str) -> str:
    return "p-" + re.sub(r"[^A-Za-z0-9-]+", "-", node_id.replace("*", "x")).strip("-")


class Pages:
    """Which page holds which section, and which anchors exist: links are made only to real targets."""

    def __init__(self) -> None:
        self.section_page: dict[str, str] = {}
        self.anchors: set[tuple[str, str]] = set()
        self.definitions: list = []  # compiler.definitions.Definition
        self.article_of: dict[str, str] = {}
        self._by_scope: dict[str, list] | None = None  # type: ignore[type-arg]
        self.bracketed: set[str] = set()  # pages whose text is in bracket notation (a rule, an act's text)

    def terms(self, node_id: str):  # type: ignore[no-untyped-def]
        """The definitions in scope at a provision (for hover definitions): those of the chapter, of its
        article and of each provision enclosing it, looked up by scope (a scan of every definition for
        every provision grew with the square of the corpus)."""
        if self._by_scope is None:
            self._by_scope = {}
            for k, d in enumerate(self.definitions):
                self._by_scope.setdefault(d.scope, []).append((k, d))
        by = self._by_scope
        art = self.article_of.get(section_of(node_id), "")
        found = ([] if other_code(node_id) else list(by.get("chapter", ()))) + list(by.get(f"article:{art}", ()))
        for scope in lineage(node_id):
            found += by.get(scope, ())
        return [d for _, d in sorted(found, key=lambda kd: kd[0]) if d.source != node_id]  # not where defined

    def href(self, from_page: str, section: str, node_id: str | None = None) -> str | None:
        page = self.section_page.get(section)
        if page is None:
            return None
        target = anchor(node_id or section)
        if (page, target) not in self.anchors:
            return None
        rel = os.path.relpath(page, os.path.dirname(from_page) or ".").replace(".md", "/")
        if from_page.endswith("index.md") and os.path.dirname(from_page) == "":
            rel = page.replace(".md", "/")
        else:
            rel = "../" + rel if not rel.startswith("..") else "../" + rel
        return f"{rel}#{target}"


_WORDS_REF = re.compile(r"\bsection ((?:[a-z]+[- ]){0,4}?[a-z]+?)(?:-([a-z]{1,2}))? of this (article|chapter)\b")
from compiler.law.references import _DIGIT_REF, _EXTERNAL, section_number  # noqa: E402  (one definition of each form)


def link_refs(escaped: str, pages: Pages, page: str) -> str:
    """Cross-references in already escaped text become links (only to sections that exist)."""
    def digits(m: re.Match[str]) -> str:
        sec = m["d1"] or m["d2"]
        href = pages.href(page, sec)
        return f'<a class="xref" href="{href}">{m.group(0)}</a>' if href else m.group(0)

    def words(m: re.Match[str]) -> str:
        sec = section_number(m.group(1), m.group(2))
        if sec is None:
            return m.group(0)
        href = pages.href(page, sec)
        return f'<a class="xref" href="{href}">{m.group(0)}</a>' if href else m.group(0)

    escaped = _EXTERNAL.sub(lambda m: f'<span class="ext" title="citation outside the Navigation Law">{m.group(0)}</span>',
                            escaped)
    out = _WORDS_REF.sub(words, escaped)
    # digit references outside the links just made
    parts = re.split(r"(<a [^>]*>.*?</a>|<span class=\"ext\"[^>]*>.*?</span>)", out)
    return "".join(p if p.startswith(("<a ", "<span")) else _DIGIT_REF.sub(digits, p) for p in parts)


_LEVELS = ("section", "subdivision", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem")
_LABEL = r"\([A-Za-z0-9-]{1,6}\)|\d+(?:-[a-z])?|[a-z]+(?:-[a-z]+){0,2}"
_CHAIN = re.compile(rf"\b(?P<chain>(?:(?:subdivision|paragraph|subparagraph|clause|subclause|item|subitem)\s+"
                    rf"(?:{_LABEL})\s+of\s+)+)(?:this\s+(?P<this>section|subdivision|paragraph|subparagraph|clause|"
                    rf"subclause|item)\b|section\s+(?P<sec>[a-z]+(?:-[a-z]+){{0,3}}|\d+(?:-[a-z]+)?)\s+of\s+this\s+"
                    rf"(?:article|chapter)\b)")
_PART = re.compile(rf"(?P<level>subdivision|paragraph|subparagraph|clause|subclause|item|subitem)\s+(?P<label>{_LABEL})")


def _label_key(label: str) -> str | None:
    """"(e)" -> "e"; "five" -> "5"; "one-c" -> "1-c"; "4" -> "4"."""
    if label.startswith("("):
        return label.strip("()")
    if label[0].isdigit():
        return label
    head, _, tail = label.partition("-")
    if tail and len(tail) <= 2:  # "one-c" -> "1-c"
        return section_number(head, tail)
    return section_number(label)


def link_relative(escaped: str, node_id: str, pages: Pages, page: str) -> str:
    """"paragraph (e) of this subdivision", "item (A) of subclause three of this clause", "item (B) of
    subclause one of … of section eighty-eight of this article": a link when the provision exists."""
    if not node_id or ("of this" not in escaped and "of section" not in escaped):
        return escaped

    def repl(m: re.Match[str]) -> str:
        parts = [(p["level"], p["label"]) for p in _PART.finditer(m["chain"])][::-1]  # outermost first
        if m["sec"]:
            sec = m["sec"] if m["sec"][0].isdigit() else _label_key(m["sec"])
            if sec is None:
                return m.group(0)
            base = sec
        else:
            chain = lineage(node_id)[::-1]  # section first
            depth = _LEVELS.index(m["this"])
            if depth >= len(chain):
                return m.group(0)
            base = chain[depth]
        keys = [_label_key(label) for _, label in parts]
        if any(k is None for k in keys):
            return m.group(0)
        target = "/".join([base] + keys)  # type: ignore[list-item]
        href = pages.href(page, section_of(target), target)
        return f'<a class="xref" href="{href}">{m.group(0)}</a>' if href else m.group(0)

    parts = re.split(r"(<a [^>]*>.*?</a>|<span class=\"ext\"[^>]*>.*?</span>)", escaped)
    return "".join(p if p.startswith(("<a ", "<span")) else _CHAIN.sub(repl, p) for p in parts)


# NY bracket notation, in the texts that use it (rules in the State Register, amending acts): matter in
# [brackets] is deleted. The escaped text holds "[" and "]" as character references (compiler/escape.py).
_STRUCK = re.compile(r"&#91;((?:(?!&#91;|&#93;).){1,400}?)&#93;")


def struck(escaped: str, pages: Pages, page: str) -> str:
    """Deleted matter as <del>, on the pages whose text is in bracket notation."""
    if page not in pages.bracketed or "&#91;" not in escaped:
        return escaped
    return _STRUCK.sub(lambda m: f'<del title="deleted matter (in [brackets] in the text)">{m.group(1)}</del>', escaped)


# A provision whose text stops at a lead-in colon with nothing after it in the corpus: its list is cut
_CUT = '<p class="gap cut">The rest of this provision is not in the corpus (its text stops at the colon).</p>'


def render_node(n: Node, pages: Pages, page: str, depth: int = 0, prefix: str = "", within: str = "") -> list[str]:
    """HTML for a node and what is below it; ``prefix`` keeps ids unique when one page shows several
    versions of a section."""
    out: list[str] = []
    if isinstance(n, Section):
        for c in n.children:
            out += render_node(c, pages, page, 0, prefix, n.id)
        last = n.children[-1] if n.children else None
        if last is not None and last.kind == "text" and last.text.rstrip().endswith(":"):
            out.append(_CUT)  # "… shall be deemed to mean and include:" and nothing after it
        return out
    if isinstance(n, Provision):
        text = mark(link_refs(link_relative(struck(esc.text(n.text), pages, page), n.id, pages, page), pages, page),
                    pages.terms(n.id))
        aid = prefix + anchor(n.id)
        restored = (' <span class="restored" title="An act printed this provision&#39;s new matter in CAPITALS; its '
                    'case is restored from how the corpus writes each word">text restored from a bill&#39;s capitals</span>'
                    if "restored-case" in n.flags else "")
        out.append(f'<p class="prov lvl-{min(depth, 7)}" id="{aid}" title="{esc.text(n.citation)}">'
                   f'<a class="label" href="#{aid}">{esc.text(n.label)}</a> {text}{restored}</p>')
        for c in n.children:
            out += render_node(c, pages, page, depth + 1, prefix, n.id)
        if not n.children and n.text.rstrip().endswith(":"):
            out.append(_CUT)
        return out
    if isinstance(n, Table):
        rows = []
        if n.header is not None:
            rows.append("<tr>" + "".join(f"<th>{esc.text(c.text)}</th>" for c in n.header.cells) + "</tr>")
        for r in n.rows:
            rows.append("<tr>" + "".join(f"<td>{esc.text(c.text)}</td>" for c in r.cells) + "</tr>")
        out.append(f'<table class="rate lvl-{min(depth, 7)}">' + "".join(rows) + "</table>")
        return out
    if isinstance(n, Formula):
        out.append(f'<pre class="formula">{esc.block(n.full_text())}</pre>')
        return out
    if isinstance(n, Text):
        # contents, record lines, LBDC notes and page chrome are on the page, marked as not law
        aside = next((f for f in n.flags if f in ("toc", "chapter", "chrome", "editorial-note", "record")), "")
        cls = "gap" if "gap" in n.flags else f"text {aside}" if aside else "text"
        body = mark(link_refs(link_relative(struck(esc.text(n.text), pages, page), within, pages, page), pages, page),
                    pages.terms(within) if within else [])
        out.append(f'<p class="{cls} lvl-{min(depth, 7)}">{body}</p>')
        return out
    for c in n.children:
        out += render_node(c, pages, page, depth, prefix, within)
    return out


def _num(label: str) -> str:
    """Article labels sort as numbers in file names: "6" -> "06", "4-A" -> "04-A"."""
    m = re.match(r"(\d+)(.*)", label)
    return f"{int(m[1]):02d}{m[2]}" if m else label


def _articles(corpus: Corpus) -> list[tuple[Node, list[str]]]:
    base = next((c.document for c in corpus.documents if c.entry and c.entry.kind == "consolidated"), None)
    if base is None:
        return []
    out = []
    for a in base.children:
        if isinstance(a, Article):
            secs = [s.id for s in a.walk() if isinstance(s, Section)]  # "45-aaaa*2" too: New York repeats numbers
            out.append((a, secs))
    return out


def pages(corpus: Corpus, timeline: Timeline, tariffs: list[AnyTariff], diags: Diagnostics,
          changes: str) -> dict[str, str]:
    """Every page of the site: path under docs/ -> Markdown."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=jinja_bytecode())
    env.filters["esc"] = esc.text  # the one escaping rule (compiler/escape.py) for corpus text in templates
    P = Pages()
    articles = _articles(corpus)
    P.definitions = find_definitions(corpus)
    P.article_of = {sec: a.label for a, secs in articles for sec in secs}
    # pass 1: which section goes where (one page each), and which anchors exist
    composed: dict[str, object] = {}
    order: list[tuple[str, Node | None]] = []  # every section with a page, in the law's order, and its article
    for a, secs in articles:
        for sec in secs:
            order.append((sec, a))
    placed = {x for x, _ in order}
    order += [(t, None) for t in timeline.sections() if t not in placed]
    for sec, _ in order:
        comp = timeline.latest(sec)
        if comp.section is None:
            continue
        composed[sec] = comp
        page = f"law/{section_slug(sec)}.md"
        P.section_page[sec] = page
        if any(v.compiled is not None and v.compiled.entry is not None
               and v.compiled.entry.kind in ("rule", "proposed-rule", "act") for _, v in comp.sources):
            P.bracketed.add(page)
        for n in comp.section.walk():
            if n.id:
                P.anchors.add((page, anchor(n.id)))
    order = [(sec, a) for sec, a in order if sec in composed]
    cited_by: dict[str, list[str]] = {}
    for r in getattr(corpus, "references", []):
        if not r.external and r.target in P.section_page:
            src = section_of(r.source)
            if src != r.target and src not in cited_by.setdefault(r.target, []):
                cited_by[r.target].append(src)
    history = section_histories(timeline, P, env)
    # pass 2: a page per section, and per article the list of its sections
    out: dict[str, str] = {}
    law_pages = []
    article_page = {id(a): f"law/article-{_num(a.label)}.md" for a, _ in articles}
    for k, (sec, a) in enumerate(order):
        comp = composed[sec]
        page = P.section_page[sec]
        s = comp.section  # type: ignore[attr-defined]
        sources = [f"{pid}: {Path(v.file).name.split('#')[0]} — {v.note}" for pid, v in comp.sources]  # type: ignore[attr-defined]
        crumbs = [("Navigation Law" if s.citation.startswith("Nav. Law") else s.citation.split(" §")[0],
                   _rel(page, "law/index.md"))]
        if a is not None:
            crumbs.append((f"Article {a.label}. {a.heading}".rstrip(". "), _rel(page, article_page[id(a)])))
        near = [order[j] for j in (k - 1, k + 1) if 0 <= j < len(order)]
        step = {("previous" if j < k else "next"): (f"§ {order[j][0]}", _rel(page, P.section_page[order[j][0]]))
                for j in (k - 1, k + 1) if 0 <= j < len(order)}
        del near
        hist = f"history/{_slug(sec)}.md"
        _claim(out, page, s.citation or sec)
        out[page] = env.get_template("section.md.j2").render(
            title=f"{s.citation}. {s.heading}".rstrip(". ") + "." if s.heading else s.citation or sec,
            anchor=anchor(sec), crumbs=crumbs, citation=s.citation,
            contents=[(c.label, anchor(c.id), (c.text or c.heading)[:80]) for c in s.children if isinstance(c, Provision)],
            html="\n".join(render_node(s, P, page)), sources=sources, gaps=comp.gaps,  # type: ignore[attr-defined]
            history=_rel(page, hist) if hist in history else "", bracketed=page in P.bracketed,
            duplicate=(sec.split("*")[0], int(sec.split("*")[1])) if "*" in sec else None,
            previous=step.get("previous"), next=step.get("next"),
            cited_by=[(f"§ {src}", P.href(page, src)) for src in cited_by.get(sec, []) if P.href(page, src)])
        if a is None:
            law_pages.append((page, s.citation or sec, 1))
    for a, secs in articles:
        page = article_page[id(a)]
        items = [{"title": f"§ {sec.split('*')[0]}. {composed[sec].section.heading}".rstrip(". ") + ".",  # type: ignore[attr-defined]
                  "href": os.path.relpath(P.section_page[sec], os.path.dirname(page)), "empty": not composed[sec].section.children}  # type: ignore[attr-defined]
                 for sec in secs if sec in composed]
        _claim(out, page, f"Article {a.label}")
        out[page] = env.get_template("article.md.j2").render(title=f"Article {a.label}. {a.heading}", sections=items)
        law_pages.insert(len([p for p in law_pages if "article-" in p[0]]), (page, f"Article {a.label}. {a.heading}", len(items)))
    # tariffs
    routes = []
    names = {r.id: r.name for r in corpus.manifest.routes}
    for route in names:
        scheds = sorted((t for t in tariffs if isinstance(t, BracketSchedule) and t.route == route
                         and t.series == f"{route}/base"),
                        key=lambda t: (t.effective.start or dt.date.min, t.id))
        dated = [t for t in scheds if t.effective.start is not None]
        routes.append({"name": names[route], "route": route,
                       "chart": fee_chart(route, names[route], dated) + rate_chart(route, names[route], dated),
                       "schedules": [_schedule_view(t, P) for t in scheds],
                       "others": [_other_view(t, P) for t in tariffs if t.route in (route, "hudson" if
                                  route.startswith("hudson") else route) and not isinstance(t, BracketSchedule)
                                  and t.kind != "penalty"]})
    out["tariffs.md"] = env.get_template("tariffs.md.j2").render(routes=routes)
    from compiler.report.changes import brief
    penalties = sorted((t for t in tariffs if t.kind == "penalty"),
                       key=lambda t: (section_order(t.provision), t.provision, t.id))
    out["penalties.md"] = env.get_template("penalties.md.j2").render(rows=[
        {"link": _link(t, P, "penalties.md"), "bound": {"max": "at most", "min": "at least"}.get(t.bound, "exactly"),  # type: ignore[attr-defined]
         "amount": esc.text(brief(t)), "phrase": esc.text(t.phrase),  # type: ignore[attr-defined]
         "status": t.status, "file": esc.text(Path(t.file).name)} for t in penalties])
    out["history.md"] = "# History and changes\n\n" + re.sub(r"(?m)^#", "##", changes.split("\n", 1)[1])
    out.update(history)
    located = _provision_at(corpus)
    out["diagnostics.md"] = env.get_template("diagnostics.md.j2").render(
        rows=[{"where": esc.text(f"{Path(d.file).name}:{d.line}:{d.column}" if d.line else Path(d.file).name),
               "provision": _diag_link(located, d, P),
               "severity": str(d.severity), "code": esc.text(d.code), "message": esc.text(d.message)}
              for d in diags],
        summary={s: sum(1 for d in diags if str(d.severity) == s) for s in ("error", "warning", "info")})
    import json as _json

    from compiler.fees.plans import build_plans
    from compiler.tariffs.routes import RouteTable
    plan_data = plans_json(build_plans(tariffs, RouteTable(corpus.manifest.routes)))
    out["assets/plans.js"] = ("// GENERATED by navlaw build from the tariff objects — do not edit.\nwindow.PLANS = "
                              + _json.dumps(plan_data, sort_keys=True, ensure_ascii=False) + ";\n")
    out["assets/calculator.js"] = (TEMPLATES / "calculator.js").read_text(encoding="utf-8")
    out["assets/calculator-ui.js"] = (TEMPLATES / "calculator-ui.js").read_text(encoding="utf-8")
    out["calculator.md"] = env.get_template("calculator.md.j2").render(
        routes=list(names.items()),
        pages=esc.script_json({sec: page.replace(".md", "/") for sec, page in sorted(P.section_page.items())}))
    out["index.md"] = env.get_template("index.md.j2").render(law_pages=law_pages, routes=routes)
    out["law/index.md"] = env.get_template("law-index.md.j2").render(
        law_pages=[(os.path.relpath(pg, "law"), title, n) for pg, title, n in law_pages])
    out["assets/navlaw.css"] = (TEMPLATES / "navlaw.css").read_text(encoding="utf-8")
    out["assets/cite.js"] = (TEMPLATES / "cite.js").read_text(encoding="utf-8")
    return out


def _claim(out: dict[str, str], page: str, what: str) -> None:
    """Two parts of the law that would be written to one page are an error, never an overwrite."""
    if page in out:
        from compiler.diagnostics import Diagnostic, NavlawError, Severity
        raise NavlawError([Diagnostic(Severity.ERROR, f"{what} and another part of the corpus would both be the site's "
                                      f"page {page}: give them distinct numbers", page, code="site")])


def _link(t: AnyTariff, P: Pages, page: str = "tariffs.md") -> str:
    sec = section_of(t.provision)
    href = P.href(page, sec, t.provision)
    cite = esc.text(t.citation)
    return f'<a href="{href}">{cite}</a>' if href else cite


def _when(t: AnyTariff) -> str:
    e = t.effective
    start = e.start.isoformat() if e.start else "not established"
    end = e.end.isoformat() if e.end else ("not established" if e.end_basis == "unresolved" else "")
    return esc.text(f"{start} – {end}" if end else f"from {start}")


def _schedule_view(t: BracketSchedule, P: Pages) -> dict[str, object]:
    return {"title": esc.text(t.title), "link": _link(t, P), "when": _when(t), "status": t.status,
            "file": esc.text(Path(t.file).name.split("#")[0]),
            "why": esc.text(t.effective.start_phrase) if t.effective.start is None else "",
            "rows": [(esc.text(b.written), esc.text(fee_text(b.formula)), esc.text(b.formula_written)) for b in t.brackets],
            "clamp": (f"charged on at least {t.min_units.value} and at most {t.max_units.value} units"
                      if t.min_units and t.max_units else f"charged on at most {t.max_units.value} units"
                      if t.max_units else ""),
            "notes": [esc.text(n) for n in t.notes]}


def _other_view(t: AnyTariff, P: Pages) -> dict[str, object]:
    from compiler.report.changes import brief
    return {"title": esc.text(t.title), "link": _link(t, P), "when": _when(t), "status": t.status,
            "what": esc.text(brief(t))}


# ---- the calculator ----------------------------------------------------------------------------------------

def _slug(section: str) -> str:
    return re.sub(r"[^a-z0-9.-]+", "-", section.lower())


def section_slug(section: str) -> str:
    """A section's page name: "89-b" -> "89-b", "21nycrr/55.2" -> "21-nycrr-55.2", "45-aaaa*2" -> "45-aaaa-2"."""
    return re.sub(r"[^a-z0-9.-]+", "-", re.sub(r"^(\d+)([a-z]+)/", r"\1-\2-", section.lower())).strip("-")


def _rel(from_page: str, to_page: str) -> str:
    """The link from one docs page to another, as MkDocs writes URLs (use_directory_urls)."""
    def url(p: str) -> str:
        return "" if p == "index.md" else p[: -len("index.md")] if p.endswith("/index.md") else p[:-3] + "/"
    src = url(from_page)
    return os.path.relpath(url(to_page) or ".", src or ".").replace(os.sep, "/").rstrip("/") + "/" if url(to_page) != src else "./"


def section_histories(timeline: Timeline, P: Pages, env: Environment) -> dict[str, str]:
    """For each section with more than one version: each version with its sources and dates, the law
    as of each version boundary, and a redline from the version before."""
    from compiler.law.redline import compare, render_html

    out: dict[str, str] = {}
    for sec in sorted(P.section_page):
        dates = timeline.boundaries(sec)
        versions = []
        prev = None
        for d in dates:
            comp = timeline.section_on(sec, d)
            page = f"history/{_slug(sec)}.md"
            prefix = f"v{d.isoformat()}-"
            body = "\n".join(render_node(comp.section, P, page, prefix=prefix)) if comp.section is not None else ""
            red = render_html(compare(prev, comp.section)) if prev is not None and comp.section is not None else ""
            versions.append({"date": d.isoformat(), "message": comp.message, "gaps": comp.gaps, "html": body,
                             "redline": red,
                             "sources": [f"{pid}: {Path(v.file).name.split('#')[0]} — {v.note}"
                                         for pid, v in comp.sources]})
            if comp.section is not None:
                prev = comp.section
        if len([v for v in versions if v["html"]]) < 2:
            continue
        out[f"history/{_slug(sec)}.md"] = env.get_template("history.md.j2").render(section=sec, versions=versions)
    return out


def _provision_at(corpus: Corpus) -> dict[str, list[tuple[int, str]]]:
    """file -> (raw line, provision id) of every node, sorted: to find the provision a finding is in."""
    out: dict[str, list[tuple[int, str]]] = {}
    for c in corpus.documents:
        rows = sorted((n.line, n.id) for n in c.document.walk() if n.id and n.kind in ("section", "provision"))
        out[c.document.file] = rows
    return out


def _diag_link(located: dict[str, list[tuple[int, str]]], d, P: Pages) -> str:  # type: ignore[no-untyped-def]
    import bisect
    rows = located.get(d.file)
    if not rows or not d.line:
        return ""
    i = bisect.bisect_right(rows, (d.line, "\uffff")) - 1
    if i < 0:
        return ""
    node_id = rows[i][1]
    for nid in lineage(node_id):
        href = P.href("diagnostics.md", section_of(nid), nid)
        if href:
            return f'<a href="{href}">{esc.text(nid)}</a>'
    return ""


