"""The front end and the tariffs by section: after an edit of one document (in one process, as `navlaw serve`
rebuilds after each save) only the changed sections are parsed and read for tariffs again, and the tree, the
findings and the tariffs are exactly those of a clean build of the edited text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from navlaw.diagnostics import Diagnostics
from navlaw.dumps import tariffs_json
from navlaw.frontend import chunks
from navlaw.frontend.corpus import Compiled, compile_source
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.manifest import Entry, load_manifest
from navlaw.frontend.outline import document_json
from navlaw.tariffs import by_section
from navlaw.tariffs.extract import extract_document
from navlaw.tariffs.routes import RouteTable

from .conftest import CONSOLIDATED, CORPUS, ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
LBDC = OUTSIDE / "ol.DATABASE.LAW.ETP.txt"
MANIFEST = load_manifest(CORPUS)
ROUTES = RouteTable.of(MANIFEST)
ENTRY = next(e for e in MANIFEST.entries if e.file == CONSOLIDATED)
NAV = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8")
PENALTY = "punishable by a fine of not to exceed one hundred dollars, or by imprisonment of not more than thirty"
WORD = "who shall have a practical knowledge of the construction"


def results(text: str, path: str, entry: Entry | None) -> dict[str, Any]:
    """What a build makes of one document: its tree (JSON, with positions), its findings, its tariffs."""
    src = SourceDocument(path, text, "", len(text.encode()))
    diags = Diagnostics()
    doc = compile_source(src, entry, diags, memo=True)
    tariffs = extract_document(Compiled(src, doc, entry), diags, ROUTES, memo=True) if entry is not None else []
    return {"tree": json.dumps(document_json(doc), ensure_ascii=False),
            "findings": [repr(d) for d in diags.items],
            "tariffs": json.dumps(tariffs_json(tariffs), ensure_ascii=False, default=str)}


def clean_and_after_edit(before: str, after: str, path: str, entry: Entry | None) -> tuple[dict[str, Any],
                                                                                          dict[str, Any], int]:
    """The results of a clean build of ``after``, those of ``after`` built after ``before`` in the same
    process, and the number of chunks (sections) the second build parsed."""
    chunks.forget()
    by_section.forget()
    clean = results(after, path, entry)
    chunks.forget()
    by_section.forget()
    results(before, path, entry)
    chunks.STATS.clear()
    by_section.STATS.clear()
    again = results(after, path, entry)
    return clean, again, chunks.STATS["chunks parsed"]


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


NAV_EDITS = {
    # name: (edit, sections parsed again, sections read again for tariffs)
    "word of another length": (lambda t: replaced(t, WORD, WORD.replace("practical", "thorough")), 1, 1),
    "sentence added": (lambda t: replaced(t, "in this chapter and specifically defined",
                                          "in this chapter. He shall report yearly. And specifically defined"), 1, 1),
    "section added": (lambda t: replaced(t, "ｧ 13. Inspector; duties.",
                                         "ｧ 12-a. Deputy inspectors.\n\nThe commissioner may appoint deputies.\n\n"
                                         "ｧ 13. Inspector; duties."), 1, 1),
    "section removed": (lambda t: t[: t.index("ｧ 12. Inspector")] + t[t.index("ｧ 13. Inspector"):], 0, 0),
    "section renumbered": (lambda t: replaced(t, "ｧ 12. Inspector; qualifications.",
                                              "ｧ 12-b. Inspector; qualifications."), 1, 1),
    # the second § 12 gets the id "12*2": that section is read again, the first keeps its id
    "same number twice": (lambda t: replaced(t, "ｧ 13. Inspector; duties.", "ｧ 12. Inspector; duties."), 1, 1),
    # a penalty's amount changed (§ 32-d's fine): its tariff new, the sections below moved
    "penalty amount": (lambda t: replaced(t, PENALTY, PENALTY.replace("one hundred", "two hundred fifty")), 1, 1),
    # a control character: the line is reported and kept unparsed; the section's lines before and after it
    # are two spans of their own (parse.py reads around such lines before the grammar runs)
    "unreadable line": (lambda t: replaced(t, WORD, WORD.replace("practical", "prac\x07tical")), 2, 1),
    # the same, a word of the same length: no span moves, and the section's tariffs are read again all the same
    "penalty amount, same length": (lambda t: replaced(t, PENALTY, PENALTY.replace("one hundred", "six hundred")), 1, 1),
    # a rate in a section a route prices: its tariffs are read by the priced forms (never from the memo)
    "priced rate": (lambda t: replaced(t, "All vessels shall pay five dollars and thirty cents per pilotage unit",
                                       "All vessels shall pay five dollars and forty-five cents per pilotage unit"), 1, 0),
    # the same, a word of the same length; and a rate table's cell: the priced part is read again
    "priced rate, same length": (lambda t: replaced(t, "five dollars and thirty cents per pilotage unit",
                                                    "five dollars and ninety cents per pilotage unit"), 1, 0),
    "rate table cell": (lambda t: replaced(t, "25 to 49.99\t$499.00", "25 to 49.99\t$498.00"), 1, 0),
    # the heading is the article's, not a section's: no section's tariffs are read again
    "article heading": (lambda t: replaced(t, "Article 2 - ADMINISTRATION", "Article 2 - ADMINISTRATION OF LAW"), 1, 0),
}


# the edits after which the priced part (rate tables, sections a route prices: tariffs/priced_memo.py) is read
# again: it changed, or a line was added or removed above a rate table (its schedule's id names its line)
PRICED_READ = {"priced rate", "priced rate, same length", "rate table cell", "section added", "section removed"}


@pytest.mark.parametrize("name", sorted(NAV_EDITS))
def test_consolidated_edit_equals_clean_build(name: str) -> None:
    edit, parsed, read = NAV_EDITS[name]
    after = edit(NAV)
    assert after != NAV
    clean, again, n = clean_and_after_edit(NAV, after, str(CORPUS / CONSOLIDATED), ENTRY)
    assert again == clean
    assert n == parsed
    # the lines' roles read again in the one changed chunk (the unreadable line's chunk is parsed in two spans)
    assert chunks.STATS["copied-roles found"] == min(parsed, 1)
    assert by_section.STATS["sections read"] == read
    assert by_section.STATS["sections reused"] > 100
    assert by_section.STATS["groups read" if name in PRICED_READ else "groups reused"] == 1


def test_unreadable_line_is_reported_as_in_a_clean_build() -> None:
    after = NAV_EDITS["unreadable line"][0](NAV)
    clean, again, _ = clean_and_after_edit(NAV, after, str(CORPUS / CONSOLIDATED), ENTRY)
    assert any("U+0007" in f for f in again["findings"])
    assert again["findings"] == clean["findings"]


def test_memo_keeps_only_the_last_text() -> None:
    chunks.forget()
    path = str(CORPUS / CONSOLIDATED)
    results(NAV, path, ENTRY)
    size = len(chunks._MEMO[path])
    for word in ("thorough", "sound", "fair"):
        results(replaced(NAV, WORD, WORD.replace("practical", word)), path, ENTRY)
    assert len(chunks._MEMO[path]) == size


LBDC_EDITS = {
    "word": (lambda t: replaced(t, "serious public emergency", "grave public emergency"), 1),
    "record added": (lambda t: replaced(t, "..SO DOC ETP2 ", "..SO DOC ETP1A                                    "
                                        "LAWS(UNCONSOLIDATED)\n  Section 1-a. Note. A note.\n..SO DOC ETP2 "), 2),  # record line, section
    "record removed": (lambda t: t[: t.index("..SO DOC ETP1 ")] + t[t.index("..SO DOC ETP2 "):], 0),
}


@pytest.mark.skipif(not LBDC.exists(), reason="the outside texts are not here")
@pytest.mark.parametrize("name", sorted(LBDC_EDITS))
def test_lbdc_edit_equals_clean_build(name: str) -> None:
    from navlaw.frontend.load import load
    before = load(LBDC).text
    edit, parsed = LBDC_EDITS[name]
    after = edit(before)
    clean, again, n = clean_and_after_edit(before, after, str(LBDC), None)
    assert again == clean
    assert n == parsed


def test_grammar_terminals_kept_sealed_in_the_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminals the tree builder reads labels and headings with come from the user cache in a fresh
    process (not from a lexer-only Lark built from the grammar), and are those that Lark gives."""
    from lark import Lark

    from navlaw.frontend import terminals
    from navlaw.frontend.parse import GRAMMAR

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar = GRAMMAR.read_text(encoding="utf-8")
    lexer = Lark(grammar, parser=None, lexer="basic")
    want = {t.name: str(t.pattern.to_regexp()) for t in lexer.terminals}
    assert "LABEL" in want and "SECTION_NUMBER" in want
    assert terminals.lark_terminals("statute", grammar) == want
    [sealed] = (tmp_path / "navlaw").glob("lark-statute-terminals.sealed")
    sealed.write_bytes(sealed.read_bytes().replace(b"LABEL", b"LABEX"))  # tampered: not used, made again
    assert terminals.lark_terminals("statute", grammar) == want
    assert terminals.lark_terminals("statute", grammar) == want  # from the file made again


def test_a_fresh_process_after_an_edit_parses_only_the_changed_section(tmp_path: Path) -> None:
    """The build cache keeps each document's parse chunks and its sections' tariffs: a build in a new process
    (here: the memos of this one forgotten) after a one-word edit parses and reads one section, and writes
    what a build without the cache writes."""
    from navlaw.cli import main

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)

    def build(name: str, *extra: str) -> int:
        return main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / name),
                     "--module", str(tmp_path / f"{name}-fees"), *extra])

    assert build("out") == 0
    path = corpus / CONSOLIDATED
    path.write_text(replaced(NAV, WORD, WORD.replace("practical", "thorough")), encoding="utf-8")
    chunks.forget()
    by_section.forget()
    chunks.STATS.clear()
    by_section.STATS.clear()
    assert build("out") == 0
    assert chunks.STATS[f"chunks parsed: {CONSOLIDATED}"] == 1 and chunks.STATS["chunks reused"] > 100
    assert by_section.STATS["sections read"] == 1 and by_section.STATS["sections reused"] > 100
    assert by_section.STATS["groups reused"] == 1 and by_section.STATS["groups read"] == 0  # the priced part kept
    assert build("clean", "--no-cache") == 0
    made = {p.relative_to(tmp_path / "out"): p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    clean = {p.relative_to(tmp_path / "clean"): p.read_bytes() for p in (tmp_path / "clean").rglob("*") if p.is_file()}
    assert made == clean


@pytest.mark.parametrize("cached", [True, False], ids=["cache", "no-cache"])
def test_a_one_off_build_holds_no_memo_and_a_rebuild_keeps_one(tmp_path: Path, cached: bool) -> None:
    """A one-off `navlaw build` lets go of the parse, line-role and tariff memos once each document is read
    (the build cache keeps them for the next process; held, they grew a 500x build's peak by ~60 MiB), and
    with --no-cache makes none; a second build in the same process (`navlaw serve`) keeps them for the next
    edit. Texts read once (an act's new matter) are never kept."""
    from navlaw.cli import main

    def build(corpus: Path = CORPUS) -> None:
        extra = [] if cached else ["--no-cache"]
        assert main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / "out"),
                     "--module", str(tmp_path / "fees"), *extra]) == 0

    chunks.forget()
    by_section.forget()
    build()
    assert not chunks._MEMO and not chunks._LOCAL and not by_section._MEMO
    if not cached:  # --no-cache: nothing is kept for a next build, in memory or on disk
        return
    corpus = tmp_path / "corpus"  # a second build in the process after an edit keeps the memos for the next
    shutil.copytree(CORPUS, corpus)
    path = corpus / CONSOLIDATED
    path.write_text(replaced(NAV, WORD, WORD.replace("practical", "thorough")), encoding="utf-8")
    build(corpus)
    assert chunks._MEMO.get(str(CONSOLIDATED)) and by_section._MEMO.get(str(CONSOLIDATED))
