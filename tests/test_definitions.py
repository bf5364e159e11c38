"""Defined terms: found with their scope, marked on the site only within it, whole words, longest first."""

from __future__ import annotations

from navlaw.law.definitions import Definition, find, in_scope, mark

from .conftest import LIS_2022


def test_definitions_and_their_scope(corpus):
    defs = {(d.term, d.scope, d.file.rsplit("/", 1)[-1]) for d in find(corpus)}
    # § 89-b(4)(c) "Definitions." defines for subdivision 4; (b)(3) "as used in this subdivision"
    assert ("Overall length", "89-b/4", LIS_2022) in defs
    assert ("Pilotage units", "89-b/4", LIS_2022) in defs
    assert ("racing shell", "34-a", "nav-law.consolidated.txt") in defs
    d = next(d for d in find(corpus) if d.term == "Depth" and d.scope == "89-b/4")
    assert d.text.startswith('"Depth" is the vertical distance at amidships')


def test_scope_is_respected():
    d = Definition("Depth", '"Depth" is …', "89-b/4/c", "89-b/4", "f")
    assert in_scope(d, "89-b/4/b/3", "6") and not in_scope(d, "89-b/2", "6") and not in_scope(d, "89-a/4", "6")


def test_marking_takes_whole_words_and_the_longest_term():
    defs = [Definition("vessel", "v.", "1/a", "1", "f"), Definition("motor vessel", "mv.", "1/b", "1", "f")]
    out = mark("every motor vessel and every vessel, but not vessels or &quot;vessel&quot; itself", defs)
    assert out.count("<dfn") == 2
    assert '<dfn class="term" title="mv.">motor vessel</dfn>' in out
    assert "vessels" in out and "&quot;vessel&quot;" in out  # plural and the defining quotes left alone


def test_site_shows_definitions_on_hover_in_scope(tmp_path):
    from navlaw.cli import main

    from .conftest import CORPUS
    assert main(["build", "--corpus", str(CORPUS), "--out", str(tmp_path / "b"), "--module", str(tmp_path / "m")]) == 0
    page = (tmp_path / "b" / "site" / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    start, end = page.index('id="p-89-b-4"'), page.index('id="p-89-b-5"')
    assert '<dfn class="term" title="Pilotage units, as used in this subdivision' in page[start:end]
    before = page[page.index('id="p-89-b-1"'):start]
    assert "<dfn" not in before  # subdivisions 1–3 are outside the definitions' scope
