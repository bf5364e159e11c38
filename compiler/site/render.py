"""Law text as HTML for the site: a node and what is below it, with every character of the corpus
escaped (``compiler/escape.py``, one rule for HTML and Markdown), an anchor per provision built from
its id (``#p-88-4-b-1-ii-A``), its citation as a tooltip, cross-references ("§ 89-a", "section
eighty-eight of this article", "paragraph (e) of this subdivision") as links when the target exists,
bracket notation as deleted matter, and where each page of the site lives.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from typing import Callable

from navlaw import escape as esc
from navlaw.cache import digest
from navlaw.parallel import forking, workers
from navlaw.model.codes import NO_LAW
from navlaw.model.nodes import (Formula, Node, Provision, Section, Table, Text, citation, lineage, other_code,
                                section_name, section_of)
from navlaw.model.codes import without_code
from navlaw.law.definitions import Definition, mark
from navlaw.model.tariffs import AnyTariff


# The helpers below are functions of their strings alone, asked for the same strings by every page of every
# build (thousands at 10x the corpus, again at each rebuild in `navlaw serve`): each answer is kept (bounded).
_STRINGS = 1 << 16


@lru_cache(maxsize=_STRINGS)
def anchor(node_id: str) -> str:
    return "p-" + re.sub(r"[^A-Za-z0-9-]+", "-", node_id.replace("*", "x")).strip("-")


class Pages:
    """Which page holds which section, and which anchors exist: links are made only to real targets."""

    def __init__(self) -> None:
        self.section_page: dict[str, str] = {}
        self.anchors: set[tuple[str, str]] = set()
        self.definitions: list[Definition] = []
        self.article_of: dict[str, str] = {}
        self._by_scope: dict[str, list[tuple[int, Definition]]] | None = None
        self.bracketed: set[str] = set()  # pages whose text is in bracket notation (a rule, an act's text)
        # page -> provision id -> "known to be in force … to …; the corpus has no later text" (history.py)
        self.notes: dict[str, dict[str, str]] = {}
        # (page, provision id): its own words come from an older text than parts below it (history.older_parts)
        self.older: set[tuple[str, str]] = set()
        # new matter an amending act put in the law in force (history.act_insertions): words per
        # (page, provision id), changed cells per table (by id() of the table node)
        self.inserted: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self.inserted_cells: dict[int, set[tuple[int, int]]] = {}
        self.amended: set[str] = set()  # pages that show such new matter

    def terms(self, node_id: str) -> list[Definition]:
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
        rel = rel_path(page, os.path.dirname(from_page) or ".").replace(".md", "/")
        if from_page.endswith("index.md") and os.path.dirname(from_page) == "":
            rel = page.replace(".md", "/")
        else:
            rel = "../" + rel if not rel.startswith("..") else "../" + rel
        return f"{rel}#{target}"


# A page not rendered yet (Memo.page): replaced by its text when Memo.finish renders the pending pages.
_PENDING = "\0navlaw-pending-page:"
# Pages to render before a pool of processes pays for its start and for sending the pages back. Measured
# (site_pages alone, 2 cores): 10x corpus, 2,064 pages, 0.69 s on one core, 0.60 s on two; 40x, 8,600
# pages, 2.8-3.1 s against 2.4-2.8 s. Below about a thousand pages the fork costs what it saves.
PARALLEL_AT = 1000


class Memo:
    """Page Markdown from the last build, under a digest of everything the page is made from (the law it
    shows, and the site-wide facts its links and hover definitions depend on): after an amendment only
    the pages whose inputs changed are rendered again (issue 18). The pages to render are rendered
    together by ``finish``, on the machine's cores when there are many."""

    def __init__(self, old: dict[str, str] | None = None) -> None:
        self.old = old or {}
        self.new: dict[str, str] = {}
        self.hits = 0
        self.others = 0  # pages not counted as law and history pages (an article's list of sections), reused or not
        self.context = ""  # digest of the site-wide facts (set once pass 1 knows them)
        self.pending: list[tuple[str, Callable[[], str]]] = []

    def page(self, parts: list[str], make: Callable[[], str], counted: bool = True) -> str:
        """The page's text if the last build made it from the same inputs; else a placeholder that
        ``finish`` replaces by ``make()``. ``counted``: a law or history page (``hits``; else ``others``)."""
        # one repr hashed (the parts are strings: their repr is unambiguous), not each part on its own
        key = hashlib.sha256(repr((self.context, parts)).encode("utf-8", "surrogatepass")).hexdigest()
        text = self.old.get(key)
        self.others += not counted
        if text is None:
            self.pending.append((key, make))
            return _PENDING + key
        self.hits += counted
        self.new[key] = text
        return text

    def now(self, parts: list[str], make: Callable[[], str]) -> str:
        """The text the last build made from the same inputs, else ``make()`` (made here and now, not by
        ``finish``); not a law or history page (counted in ``others``)."""
        key = hashlib.sha256(repr((self.context, parts)).encode("utf-8", "surrogatepass")).hexdigest()
        self.others += 1
        text = self.old.get(key)
        if text is None:
            text = make()
        self.new[key] = text
        return text

    def finish(self, out: dict[str, str]) -> None:
        """Render the pending pages (in a pool of processes when there are at least PARALLEL_AT) and put
        them in ``out`` in place of their placeholders."""
        texts = dict(zip((k for k, _ in self.pending), render_all([m for _, m in self.pending])))
        self.new.update(texts)
        self.pending = []
        for name, text in out.items():
            if text.startswith(_PENDING):
                out[name] = texts[text[len(_PENDING):]]

    def set_context(self, P: Pages) -> None:
        """Everything of one page that another page's rendering reads: which anchors exist where (links),
        the definitions in scope (hover text), the articles, and which pages are in bracket notation."""
        defs = [(d.term, d.scope, d.source, d.text) for d in P.definitions]
        self.context = digest(repr(sorted(P.anchors)), repr(sorted(P.section_page.items())), repr(defs),
                              repr(sorted(P.article_of.items())), repr(sorted(P.bracketed)))


_MAKES: list[Callable[[], str]] = []  # what the forked workers render (inherited, not pickled)


def _render_range(bounds: tuple[int, int]) -> list[str]:
    return [make() for make in _MAKES[bounds[0]:bounds[1]]]


def render_all(makes: list[Callable[[], str]]) -> list[str]:
    """``[make() for make in makes]``, the same texts in the same order; with many pages, on the
    machine's cores: forked workers (each inherits the pages' inputs, so nothing but the texts crosses)
    render contiguous ranges. ``NAVLAW_JOBS=1`` renders in this process; a pool that cannot start
    renders here too."""
    global _MAKES
    jobs = workers(len(makes), PARALLEL_AT)
    if jobs < 2:
        return [make() for make in makes]
    n = min(jobs, len(makes))
    ranges = [(len(makes) * i // n, len(makes) * (i + 1) // n) for i in range(n)]
    _MAKES = makes
    try:
        import multiprocessing  # here: nothing is forked at 1x, which need not load it (issue 32)

        with forking():
            pool = multiprocessing.get_context("fork").Pool(n)
        with pool:
            parts = pool.map(_render_range, ranges)
    except OSError:  # no processes to be had: the same pages, here
        return [make() for make in makes]
    finally:
        _MAKES = []
    return [text for part in parts for text in part]


def tariff_link(t: AnyTariff, P: Pages, page: str) -> str:
    """A tariff's citation, as a link from ``page`` to its provision (as it is when that has no page)."""
    href = P.href(page, section_of(t.provision), t.provision)
    cite = esc.text(t.citation)
    return f'<a href="{href}">{cite}</a>' if href else cite


def named(P: Pages, page: str, node_id: str, text: str) -> str:
    """``text`` (escaped) naming a provision, as a link to it on its section's page (to the section when
    the provision is not in the law in force on the site's date); as it is when the section has no page."""
    sec = section_of(node_id)
    href = P.href(page, sec, node_id) or P.href(page, sec)
    return f'<a href="{href}">{text}</a>' if href else text


_WORDS_REF = re.compile(r"\bsection ((?:[a-z]+[- ]){0,4}?[a-z]+?)(?:-([a-z]{1,2}))? of this (article|chapter)\b")
from navlaw.law.references import DIGIT_REF, EXTERNAL, section_number  # noqa: E402  (one definition of each form)


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

    escaped = EXTERNAL.sub(lambda m: f'<span class="ext" title="citation of another law">{m.group(0)}</span>',
                            escaped)
    out = _WORDS_REF.sub(words, escaped)
    # digit references outside the links just made
    parts = re.split(r"(<a [^>]*>.*?</a>|<span class=\"ext\"[^>]*>.*?</span>)", out)
    return "".join(p if p.startswith(("<a ", "<span")) else DIGIT_REF.sub(digits, p) for p in parts)


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
        target = "/".join([base] + [k for k in keys if k is not None])
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


_ROMAN = {r: k for k, r in enumerate("i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split(), 1)}


def _sequence(labels: list[str]) -> list[int | None]:
    """Each label's place in its sequence — 1, 2, 3; (a), (b); (i), (ii); (A), (B) — or None where it is
    none of these ("1-a", an inserted provision, stands outside the sequence)."""
    keys = [label.strip("().[] ") for label in labels]
    roman = bool(keys) and keys[0] == "i" and all(k in _ROMAN for k in keys)
    out: list[int | None] = []
    for k in keys:
        if k.isdigit():
            out.append(int(k))
        elif roman:
            out.append(_ROMAN[k])
        elif len(k) == 1 and k.isalpha():
            out.append(ord(k.lower()) - ord("a") + 1)
        else:
            out.append(None)
    return out


def _jump(siblings: tuple[Node, ...], i: int, depth: int) -> list[str]:
    """A note before a provision whose number does not follow the one before it: "(4) → (7)": the corpus
    has no (5) or (6) here (issue 30) — omitted from the source, repealed or renumbered, it does not say."""
    c = siblings[i]
    if not isinstance(c, Provision):
        return []
    before = [s for s in siblings[:i] if isinstance(s, Provision) and s.level == c.level]
    if not before:
        return []
    prev = before[-1]
    group = [s.label for s in siblings if isinstance(s, Provision) and s.level == c.level]
    places = dict(zip(group, _sequence(group)))
    a, b = places.get(prev.label), places.get(c.label)
    if a is None or b is None or b <= a + 1:
        return []
    roman = _sequence(group[:1]) == [1] and group[0].strip("().[] ") == "i" and all(
        g.strip("().[] ") in _ROMAN for g in group)
    names = [_label_like(prev.label, k, roman) for k in range(a + 1, b)]
    missing = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return [f'<p class="gap jump lvl-{min(depth, 7)}">The numbering jumps from {esc.text(prev.label.strip(". "))} to '
            f'{esc.text(c.label.strip(". "))}: the corpus has no {esc.text(missing)} here (left out of the source, '
            f'repealed or renumbered: the text does not say).</p>']


def _label_like(example: str, k: int, roman: bool) -> str:
    """The k-th label of the sequence ``example`` is in: "(b)" -> "(e)", "(ii)" -> "(v)", "(B)" -> "(E)", "2." -> "5"."""
    key = example.strip("().[] ")
    if key.isdigit():
        text = str(k)
    elif roman:
        text = next(r for r, n in _ROMAN.items() if n == k)
    else:
        text = chr(ord("a") + k - 1)
        text = text.upper() if key.isupper() else text
    return f"({text})" if example.strip().startswith("(") else text


def render_node(n: Node, pages: Pages, page: str, depth: int = 0, prefix: str = "", within: str = "",
                follows: bool = False) -> list[str]:
    """HTML for a node and what is below it; ``prefix`` keeps ids unique when one page shows several
    versions of a section; ``follows``: more of the section comes after this node."""
    out: list[str] = []
    if isinstance(n, Section):
        for i, c in enumerate(n.children):
            out += _jump(n.children, i, 0)
            out += render_node(c, pages, page, 0, prefix, n.id, follows=i < len(n.children) - 1)
        last = n.children[-1] if n.children else None
        if last is not None and last.kind == "text" and last.text.rstrip().endswith(":"):
            out.append(_CUT)  # "… shall be deemed to mean and include:" and nothing after it
        return out
    if isinstance(n, Provision):
        def run(words: str) -> str:
            return mark(link_refs(link_relative(struck(esc.text(words), pages, page), n.id, pages, page), pages, page),
                        pages.terms(n.id))
        ops = pages.inserted.get((page, n.id)) if not prefix else None
        if ops:  # the act's new matter as <ins>; what it deleted is on the history page
            text = " ".join(f'<ins title="new matter: inserted by an amending act">{run(w)}</ins>' if t == "+" else run(w)
                            for t, w in ops if t != "-" and w)
        else:
            text = run(n.text)
        aid = prefix + anchor(n.id)
        restored = (' <span class="restored" title="An act printed this provision&#39;s new matter in CAPITALS; its '
                    'case is restored from how the corpus writes each word">text restored from a bill&#39;s capitals</span>'
                    if "restored-case" in n.flags else "")
        # a provision an amendment relettered keeps its old label in sight: "(c) formerly (b)"
        formerly = (f' <span class="old-label" title="its label before the amendment ([{esc.text(n.old_label)}] in the '
                    f'text)">formerly {esc.text(n.old_label)}</span>' if n.old_label else "")
        out.append(f'<p class="prov lvl-{min(depth, 7)}" id="{aid}" title="{esc.text(n.citation)}">'
                   f'<a class="label" href="#{aid}">{esc.text(n.label)}</a>{formerly} {text}{restored}</p>')
        note = pages.notes.get(page, {}).get(n.id)
        if note:
            out.append(f'<p class="known lvl-{min(depth, 7)}">{esc.text(note)}</p>')
        older = (page, n.id) in pages.older and not prefix
        for i, c in enumerate(n.children):
            out += _jump(n.children, i, depth + 1)
            html = render_node(c, pages, page, depth + 1, prefix, n.id, follows=follows or i < len(n.children) - 1)
            # the older text's own tables and sentences, set apart where they stand (its note says whence)
            out += ['<div class="older" title="older text: see the note above">'] + html + ["</div>"] \
                if older and not isinstance(c, Provision) else html
        if not n.children and n.text.rstrip().endswith(":") and not follows:
            out.append(_CUT)  # nothing follows in the section: its list is cut (a list that follows is its list)
        return out
    if isinstance(n, Table):
        rows = []
        if n.header is not None:
            rows.append("<tr>" + "".join(f"<th>{esc.text(c.text)}</th>" for c in n.header.cells) + "</tr>")
        new = pages.inserted_cells.get(id(n), set()) if not prefix else set()
        for i, r in enumerate(n.rows):
            rows.append("<tr>" + "".join(f"<td><ins title=\"new matter: changed by an amending act\">{esc.text(c.text)}</ins></td>"
                                         if (i, j) in new else f"<td>{esc.text(c.text)}</td>"
                                         for j, c in enumerate(r.cells)) + "</tr>")
        out.append(f'<table class="rate lvl-{min(depth, 7)}">' + "".join(rows) + "</table>")
        return out
    if isinstance(n, Formula):
        out.append(f'<pre class="formula">{esc.block(n.full_text())}</pre>')
        return out
    if isinstance(n, Text):
        # contents, record lines, LBDC notes and page chrome are on the page, marked as not law
        aside = next((f for f in n.flags if f in ("toc", "chapter", "chrome", "furniture", "title", "editorial-note", "record")), "")
        cls = "gap" if "gap" in n.flags else f"text {aside}" if aside else "text"
        said = cited(n.text) if "gap" in n.flags else n.text  # a gap names provisions by citation, not id
        body = mark(link_refs(link_relative(struck(esc.text(said), pages, page), within, pages, page), pages, page),
                    pages.terms(within) if within else [])
        out.append(f'<p class="{cls} lvl-{min(depth, 7)}">{body}</p>')
        return out
    for c in n.children:
        out += render_node(c, pages, page, depth, prefix, within)
    return out


from navlaw.report.changes import cited  # noqa: E402  (messages about the record, ids as citations)


def cite_id(node_id: str) -> str:
    """A provision id as a reader cites it, never the id: "88/4/b/1/ii/1/A" -> "§ 88(4)(b)(1)(ii)(1)(A)",
    "21nycrr/55.2/c" -> "21 NYCRR § 55.2(c)", "74*2" -> "§ 74"."""
    code = other_code(node_id)
    if code:
        head = section_name(section_of(node_id))
        return head + "".join(f"({p.split('*')[0]})" for p in node_id.split("/")[2:])
    return without_code(citation(NO_LAW, node_id))


@lru_cache(maxsize=_STRINGS)
def sec_name(sec: str) -> str:
    """A section as people read it, never its id: "§ 74", "§ 74 (its 2nd text)" for "74*2" (New York
    repeats some numbers), "21 NYCRR § 55.2" for "21nycrr/55.2"."""
    num, _, k = sec.partition("*")
    return section_name(num) + (f" (its {_ordinal(int(k))} text)" if k.isdigit() else "")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@lru_cache(maxsize=_STRINGS)
def section_slug(section: str) -> str:
    """A section's page name: "89-b" -> "89-b", "21nycrr/55.2" -> "21-nycrr-55.2", "45-aaaa*2" -> "45-aaaa-2"."""
    return re.sub(r"[^a-z0-9.-]+", "-", re.sub(r"^(\d+)([a-z]+)/", r"\1-\2-", section.lower())).strip("-")


@lru_cache(maxsize=_STRINGS)
def rel_path(to: str, start: str) -> str:
    """``os.path.relpath(to, start)`` for the site's relative paths (no ".." in them), computed on the
    strings: relpath asks the file system for absolute paths, which cost more than the page links."""
    t = [p for p in to.split("/") if p and p != "."]
    s = [p for p in start.split("/") if p and p != "."]
    n = 0
    while n < min(len(t), len(s)) and t[n] == s[n]:
        n += 1
    return "/".join([".."] * (len(s) - n) + t[n:]) or "."


@lru_cache(maxsize=_STRINGS)
def _rel(from_page: str, to_page: str) -> str:
    """The link from one docs page to another, as MkDocs writes URLs (use_directory_urls)."""
    def url(p: str) -> str:
        return "" if p == "index.md" else p[: -len("index.md")] if p.endswith("/index.md") else p[:-3] + "/"
    src = url(from_page)
    return rel_path(url(to_page) or ".", src or ".").rstrip("/") + "/" if url(to_page) != src else "./"
