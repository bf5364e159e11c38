"""Changes announced (issue 33): an amendment the corpus holds that is not yet in force is listed on its
section page (date, act, what changes) until its date, and the home page lists the next twelve months."""

from __future__ import annotations

import re

import pytest

from navlaw.cli import main

from .test_versions import corpus_with


def _page(html: str) -> str:
    m = re.search(r'<section class="announced".*?</section>', html, re.S)
    return m[0] if m else ""


@pytest.fixture(scope="module")
def amended(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("announced")
    return corpus_with(tmp, "lis-rates-2028.txt", "hudson-and-repeal.txt"), tmp


def _build(root, tmp, on: str):
    out = tmp / f"site-{on}"
    assert main(["build", "--corpus", str(root), "--out", str(out), "--module", str(tmp / f"fees-{on}"),
                 "--on", on, "--no-cache"]) == 0
    return out / "site"


def test_a_future_act_is_announced_on_its_section_page_before_its_date_and_not_after(amended):
    root, tmp = amended
    before = _build(root, tmp, "2027-12-01")
    page = _page((before / "law" / "89-b" / "index.html").read_text(encoding="utf-8"))
    assert "Changes announced: not yet in force on 2027-12-01" in page
    assert "<strong>2028-01-01</strong> — lis-rates-2028.txt (test act), AN ACT to amend the navigation law" in page
    assert "§ 89-b(4)(b)(1) amended" in page
    assert "§ 89-b(4)(b)(1): from 2028-01-01 the rate is $11.56 per pilotage unit (was $11.22 per pilotage unit)" in page
    home = (before / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="changes/2028/#2028-01-01">2028-01-01</a>: 1 amending act', home), home[:3000]
    # a section the act does not touch announces nothing of it
    assert "lis-rates-2028.txt" not in (before / "law" / "89-a" / "index.html").read_text(encoding="utf-8")

    after = _build(root, tmp, "2028-01-01")  # in force that day: no longer announced
    html = (after / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert _page(html) == "" and "Changes announced" not in html
    assert "effective 2028-01-01 (on January 1, 2028; lis-rates-2028.txt)" in html  # now the law in force
    home = (after / "index.html").read_text(encoding="utf-8")
    assert "changes/2028/#2028-01-01" not in home
    assert "The corpus holds no change to the law between 2028-01-01 and a year later." in home


def test_a_repeal_is_announced_with_its_date(amended):
    root, tmp = amended
    site = _build(root, tmp, "2027-04-01")
    page = _page((site / "law" / "89-a" / "index.html").read_text(encoding="utf-8"))
    assert ("<strong>2027-05-30</strong> — hudson-and-repeal.txt (test act), AN ACT to amend the navigation law, in "
            "relation to the publication of Hudson river pilotage rates; and to repeal section 88-a of such law relating to "
            "unlicensed piloting: § 89-a(9) added"
            in page), page  # "on the ninetieth day after it shall have become a law" (2027-03-01)
    after = _build(root, tmp, "2027-05-30")
    assert _page((after / "law" / "89-a" / "index.html").read_text(encoding="utf-8")) == ""


def test_a_bill_as_new_york_publishes_it_is_announced_on_the_sections_it_adds_to(tmp_path):
    """nylg.2023-A5598 ("one year after it shall have become a law": 2025-06-01 from 2024-06-01) adds § 78(4) and
    § 79(3): announced on their pages and on the home page before that day, not from it (site Markdown)."""
    import datetime as dt

    from navlaw.build import compile_law, site_pages

    from .test_outside_acts import OUTSIDE, corpus_with as outside_corpus

    if not OUTSIDE.is_dir():
        pytest.skip("../shared/outside/ is not beside the repository")
    law = compile_law(str(outside_corpus(tmp_path, "nylg.2023-A5598.md")))
    before = site_pages(law, dt.date(2025, 1, 1))
    for page, added in (("law/78.md", "§ 78(4) added"), ("law/79.md", "§ 79(3) added")):
        said = _page(before[page])
        assert "<strong>2025-06-01</strong> — nylg.2023-A5598.md" in said and said.endswith(f": {added}</li>\n</ul>\n</section>")
    assert "- [2025-06-01](changes/2025.md#2025-06-01): 1 amending act takes effect, 2 sections change" in before["index.md"]
    after = site_pages(law, dt.date(2025, 6, 1))
    assert _page(after["law/78.md"]) == "" and "changes/2025.md#2025-06-01" not in after["index.md"]
