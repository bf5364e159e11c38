"""What the site's search reads citations against (templates/site/search-cite.js), cut so that a page fetches
only what a query needs (issue 32).

A citation typed into the search box ("§ 88(4)(b)", "21 NYCRR 55.2(c)") names a section by its number; the
script looks up that section's page and citation and the anchors of the page. One file held that for every
section (``assets/citations.js``, 1.78 MB at 100 times the corpus) and every page loaded it. Here each
section number has a file of its own, ``assets/citations/NAME.json`` (NAME: the number in lower case, as
the script forms it from the query, ``file_name``), holding every section with that number (of this law
and of the other codes the corpus holds, "55.2" and "21nycrr/55.2"): its page and citation, and the anchors
of its page. Its size is that of one section's anchors, whatever the size of the corpus; the script
fetches it when the query reads as a citation, and no page loads any of it before.
"""

from __future__ import annotations

import json
import re

from navlaw.model.nodes import Section
from navlaw.site.render import Pages

DIR = "assets/citations"
_SAFE = re.compile(r"[0-9a-z.-]")


def file_name(number: str) -> str:
    """The file of a section number (its last part: "21nycrr/55.2" -> "55.2"), as search-cite.js names it:
    lower case, a character other than a digit, a letter, "." or "-" written as "_" and its code point
    in four hex digits (no file name of the corpus's making reaches outside the directory)."""
    bare = number.rsplit("/", 1)[-1].lower()
    return "".join(c if _SAFE.fullmatch(c) else f"_{ord(c):04x}" for c in bare) + ".json"


def citation_files(P: Pages, titled: dict[str, Section]) -> dict[str, str]:
    """The files of ``DIR`` (site path -> JSON text): per section number, ``{"sections": {id: [page,
    citation]}, "anchors": {page: [anchor, ...]}}`` for the sections with that number (the law in force on
    the site's date)."""
    anchors: dict[str, list[str]] = {}
    for page, a in sorted(P.anchors):
        anchors.setdefault(page.replace(".md", "/"), []).append(a)
    files: dict[str, dict[str, dict[str, list[str]]]] = {}
    for sec, page in sorted(P.section_page.items()):
        if sec not in titled:
            continue
        url = page.replace(".md", "/")
        data = files.setdefault(f"{DIR}/{file_name(sec)}", {"sections": {}, "anchors": {}})
        data["sections"][sec] = [url, titled[sec].citation or f"§ {sec}"]
        data["anchors"][url] = anchors.get(url, [])
    return {path: json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            for path, data in files.items()}
