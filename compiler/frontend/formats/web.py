"""A web page of the law, copied as text: the page's chrome around the law (breadcrumbs, citation lines,
disclaimers, navigation bars, "Top of Page") is kept in the tree, flagged "chrome", never read as law.
The page's HTML itself is not law text: it is refused, with what to do.
"""

from __future__ import annotations

import re

from navlaw.diagnostics import Diagnostic, NavlawError, Severity
from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role

name = "web"

# ---- page chrome ----------------------------------------------------------------------------------
# What a web page of the law puts around it when it is copied as text: breadcrumbs ("Justia › U.S. Law
# › … › Navigation Law"), "Universal Citation: NY Nav L § 89-B (2022)", a citation trailer ("N.Y. Nav.
# Law § 88"), the site's disclaimer, navigation links. Kept in the tree (nothing is lost), flagged, and
# never read as law.
_CHROME_RE = re.compile(
    r"[ \t]*(?:Universal Citation:|Disclaimer:|Previous[ \t]+Section\b|Next[ \t]+Section\b|Print[ \t]*$|Share[ \t]*$"
    r"|(?:N\.Y\.|NY)[ \t]+[A-Z][A-Za-z.]*(?:[ \t]+[A-Z][A-Za-z.&]*){0,4}[ \t]+(?:Law|L\.?)[ \t]+§[ \t]*[0-9][0-9A-Za-z.-]*"
    r"[ \t]*(?:\((?:[0-9]{4})\))?[ \t]*$)")
_BREADCRUMB_RE = re.compile(r"[^\n›»]{1,80}(?:[ \t]+[›»>][ \t]+[^\n›»>]{1,80}){2,}[ \t]*$")


# What ends the law on a page: the links and notes a site puts under the text ("Top of Page", "Last
# modified: February 3, 2019", "‹ Prev All New York sectio…", "Next ›", a disclaimer). After one, what
# follows is the page's, not the law's, until a section heading starts the law again.
_PAGE_END_RE = re.compile(
    r"[ \t]*(?:(?:Back[ \t]+to[ \t]+)?Top[ \t]+of[ \t]+(?:Page|page)[ \t]*$|Go[ \t]+to[ \t]+top[ \t]*$"
    r"|Last[ \t]+(?:modified|updated|amended)(?:[ \t]+on)?:?[ \t]+\S[^\n]{0,40}$"
    r"|(?:[‹«<][ \t]*)?(?:Prev|Previous)\b(?:[ \t]+(?:Section|Page))?(?:[ \t]+All[ \t][^\n]{0,60})?[ \t]*(?:[|·•][^\n]{0,60})?$"
    r"|Next[ \t]*[›»>]?[ \t]*$|(?:Next|Previous)[ \t]+Section\b[^\n]{0,80}$|Disclaimer:)")
# A site's own disclaimer, in its words: no warranty, no liability, not the official text.
_DISCLAIMER_WORDS = re.compile(r"(?i)\b(?:warrant(?:y|ies)|liability|disclaim\w*|accuracy|official reporters?|"
                               r"not (?:be )?legal advice|this (?:web)?site)\b")
# Navigation bars: short items between middle dots or bullets ("Open in Lexace · Ask the AI about this
# section"), the headers of an official site's page ("Search OpenLegislation Statutes", "This entry was
# published on 2014-09-22").
_BAR_RE = re.compile(r"[ \t]*[^\n·•|]{1,40}(?:[ \t]+[·•|][ \t]+[^\n·•|]{1,60})+[ \t]*$")
_SITE_RE = re.compile(r"[ \t]*(?:Search[ \t]+OpenLegislation\b|This[ \t]+entry[ \t]+was[ \t]+published[ \t]+on\b"
                      r"|The[ \t]+selection[ \t]+dates[ \t]+indicate\b|Share[ \t]+this\b|Print[ \t]+this\b)")


_LINE_CHROME_RE = re.compile(f"(?:{_CHROME_RE.pattern})|(?:{_PAGE_END_RE.pattern})|(?:{_SITE_RE.pattern})")


def chrome(line: str) -> bool:
    """Whether a line is web-page chrome around the law text, not law."""
    if len(line) > 300:
        return page_end(line)
    return (_LINE_CHROME_RE.match(line) is not None or page_end(line)
            or ("·" in line or "•" in line) and _BAR_RE.match(line) is not None
            or ("›" in line or "»" in line or " > " in line) and _BREADCRUMB_RE.match(line) is not None)


def page_end(line: str) -> bool:
    """Whether a line ends the law on a web page: "Top of Page", "Last modified: …", "‹ Prev …", a
    disclaimer (two or more of its words: warranty, liability, accuracy, official reporters …)."""
    if len(line) <= 200 and _PAGE_END_RE.match(line) is not None:
        return True
    if "site" not in line:
        return False  # a site speaks of itself ("this site", "this website"): decided with one substring test
    lower = line.lower()
    if not any(w in lower for w in ("this site", "this web", "official report", "disclaim", "legal advice")):
        return False
    words = {m.group().lower() for m in _DISCLAIMER_WORDS.finditer(line)}
    # a site speaks of itself ("this website", "official reporters"); a law on warranties does not
    return len(words) >= 2 and any(w.startswith(("this", "official", "disclaim", "not")) for w in words)




def line_role(body: str) -> str | None:
    """"chrome" for a line of the page around the law (its content after indentation), else None."""
    return "chrome" if chrome(body) else None


# ---- the page's markup ---------------------------------------------------------------------------------
_TAG = re.compile(r"\s*(?:<\?xml|<!doctype|<html|<body|<head|<pre|<div|<p\b|<[a-z_][a-z0-9_]*(?:\s[^<>]*)?>)", re.I)
_SAMPLE = 65536


def _markup(text: str) -> bool:
    head = text[:_SAMPLE].lstrip("\ufeff")
    return _TAG.match(head.lstrip()) is not None and len(re.findall(r"<[A-Za-z/!?][^<>]{0,200}>", head)) >= 3


def detect(data: bytes) -> float:
    head = data[:_SAMPLE].decode("utf-8", "replace")
    if _markup(head):
        return 0.7
    first = head.split("\n", 60)[:60]
    return 0.5 if sum(1 for line in first if chrome(line.lstrip(" \t"))) >= 2 else 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    """HTML or XML is not law text: an error that says what to do."""
    if _markup(text):
        stripped = text[:_SAMPLE].lstrip("\ufeff").lstrip()
        raise NavlawError([Diagnostic(
            Severity.ERROR, "the file is HTML or XML, not law text", path, 1, 1, stripped.split("\n", 1)[0][:120],
            "input", "save the page's text (for a bill print, the <PRE> block) as plain text, without the markup")])


def lines(text: str) -> list[SourceLine]:
    return lines_by_role(text, line_role)
