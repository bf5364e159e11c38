"""An article's page shows the heading of every Part the law index lists, a Part with no section under it
too (a "PART 2" heading at the end of the consolidated file made MkDocs' strict build fail on a link to an
anchor no page had: a traceback, and no site)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from navlaw.build import compile_law, site_pages

from .conftest import CONSOLIDATED, CORPUS


def _article_anchors_linked_and_defined(corpus: Path) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    pages = {name: text for name, text in site_pages(compile_law(str(corpus))).items() if name.endswith(".md")}
    defined = {(name, m) for name, text in pages.items() if "/article-" in name
               for m in re.findall(r"\{ #([^ }]+) \}", text)}
    linked = set()
    for name, text in pages.items():
        for target, frag in re.findall(r"\]\(((?:law/)?article-[^)#]+\.md)#([^)]+)\)", text):
            linked.add((target if target.startswith("law/") else "law/" + target, frag))
    return linked, defined


def test_a_part_with_no_section_has_its_heading_where_the_index_links_it(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    path = corpus / CONSOLIDATED
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\nPART 2\n", encoding="utf-8")
    linked, defined = _article_anchors_linked_and_defined(corpus)
    parts = {x for x in linked if "-part-" in x[1]}
    assert parts, "the law index links the Parts of the articles"
    assert linked <= defined, sorted(linked - defined)
