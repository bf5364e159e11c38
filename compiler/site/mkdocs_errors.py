"""What MkDocs' strict build reports, said as a navlaw build error: which page, which link or anchor, where in
the page's Markdown (line, column and a caret), and what to do.

The site is built ``--strict``: a warning of MkDocs (a link to a page or an anchor that does not exist, a
page that cannot be rendered) fails the build. Before, that surfaced as a ``RuntimeError`` traceback; now it
is a ``SiteError`` (an ``OutputError``: exit 1, the previous output unchanged, like any build error). Every
page is made by navlaw from the corpus, so a broken link is navlaw's fault unless the site's configuration
(``site/mkdocs.yml``, ``site/overrides/``) was changed: the message says both.
"""

from __future__ import annotations

import re

from navlaw.diagnostics import excerpt
from navlaw.publish import OutputError

_LINK = re.compile(r"Doc file '(?P<page>[^']+)' contains (?:a |an unrecognized relative )?link (?:to )?'(?P<link>[^']+)'"
                   r"(?:,| which)\s*(?P<why>.*)$", re.S)
_ANCHOR = re.compile(r"the doc '(?P<doc>[^']+)' does not contain an anchor '(?P<anchor>#[^']+)'")
_SHOWN = 8  # problems listed; the rest are counted


class SiteError(OutputError):
    """The MkDocs site could not be built (exit 1)."""


def _where(text: str, link: str) -> tuple[int, int, str] | None:
    """Line and column (1-based) of ``link`` as a link target in ``text`` (Markdown ``](link`` or an HTML
    ``href="link"``), and the line; else of its first occurrence; None when it is not there."""
    at = -1
    for form in (f"]({link}", f'href="{link}"', f"href='{link}'", link):
        at = text.find(form)
        if at >= 0:
            at += form.index(link)
            break
    if at < 0:
        return None
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text.count("\n", 0, at) + 1, at - start + 1, text[start:end if end >= 0 else len(text)]


def _problem(message: str, docs: dict[str, str]) -> str:
    m = _LINK.match(message.strip())
    if m is None:
        return "  " + message.strip().replace("\n", "\n  ")
    page, link, why = m["page"], m["link"], m["why"].rstrip(".")
    a = _ANCHOR.search(why)
    if a is not None:
        why = f"the page {a['doc']} has no anchor {a['anchor']}"
    elif "no such anchor on this page" in why:
        why = f"this page has no anchor #{link.partition('#')[2]}"
    elif "not found among documentation files" in why:
        why = "no page of the site is there"
    else:
        why = why.removeprefix("but ").removeprefix("it was ")
    where = _where(docs.get(page, ""), link)
    if where is None:
        return f"  site-docs/{page}: the link '{link}': {why}"
    line, col, text = where
    shown = "\n".join("  " + x for x in excerpt(text, col).splitlines())
    return f"  site-docs/{page}:{line}:{col}: the link '{link}': {why}\n{shown}"


def strict_failure(messages: list[str], docs: dict[str, str] | None) -> SiteError:
    """The error for MkDocs' warnings ``messages`` about the pages ``docs`` (docs path -> Markdown)."""
    problems = [_problem(m, docs or {}) for m in messages if m.strip()]
    shown = problems[:_SHOWN] + ([f"  and {len(problems) - _SHOWN} more"] if len(problems) > _SHOWN else [])
    n = len(problems)
    return SiteError(
        f"the site could not be built: MkDocs (strict) found {n} problem{'s' if n != 1 else ''} in the pages "
        "navlaw made:\n" + "\n".join(shown) + "\n"
        "  what to do: the pages are made from the corpus by navlaw, so this is navlaw's fault, not the law "
        "text's, unless site/mkdocs.yml or site/overrides/ were changed (check those first); report it with "
        "the page and link above (every page's Markdown: `navlaw build --dump site`). `navlaw build --no-site` "
        "writes every other output meanwhile. The previous output is unchanged", 1)
