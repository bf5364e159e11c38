"""The case book's counts by paragraph (compiler/frontend/casecount.py): counted from the last count of the
process after an edit, they are those of counting the whole text afresh, and only the paragraphs an edit
touches are counted again (issue 32: a one-section edit re-reads only what depends on that section)."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from navlaw.frontend import casecount
from navlaw.frontend.newmatter import CaseBook, is_caps

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
OUTSIDE = ROOT.parent / "shared" / "outside"
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")


def reference(texts: list[str]) -> tuple[dict[str, Counter[str]], dict[tuple[str, str, str], Counter[str]]]:
    """The counts as the case book counted them before they were counted by paragraph: word by word over
    each whole text."""
    counts: dict[str, Counter[str]] = {}
    pairs: dict[tuple[str, str, str], Counter[str]] = {}
    for text in texts:
        words = list(_WORD.finditer(text))
        for k, m in enumerate(words):
            w = m.group(0)
            before = text[max(0, m.start() - 2):m.start()]
            if k == 0 or before.strip()[-1:] in ".:;" or "\n" in before or is_caps(w):
                continue
            counts.setdefault(w.lower(), Counter())[w] += 1
            pairs.setdefault(("after", words[k - 1].group(0).lower(), w.lower()), Counter())[w] += 1
            if k + 1 < len(words) and not is_caps(words[k + 1].group(0)):
                pairs.setdefault(("before", words[k + 1].group(0).lower(), w.lower()), Counter())[w] += 1
    return counts, pairs


@lru_cache(maxsize=1)
def _corpus_texts() -> tuple[str, ...]:
    from navlaw.frontend.corpus import compile_corpus

    return tuple(c.document.normal.text for c in compile_corpus(CORPUS).documents if c.document.normal is not None)


def corpus_texts() -> list[str]:
    return list(_corpus_texts())


def book_of(texts: list[str]) -> CaseBook:
    book = CaseBook()
    for t in texts:
        book.learn(t)
    return book


def same(book: CaseBook, texts: list[str]) -> None:
    counts, pairs = reference(texts)
    assert book.counts == counts
    assert book.pairs == pairs


def test_counts_are_the_whole_texts_counts_for_the_corpus_and_every_outside_text() -> None:
    texts = corpus_texts()
    same(book_of(texts), texts)
    outside = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(OUTSIDE.rglob("*"))
               if p.is_file() and p.suffix in (".txt", ".md", ".html", ".htm", ".json") and p.stat().st_size < 5_000_000]
    assert len(outside) > 10
    for t in outside:
        casecount._LAST.clear()
        same(book_of([t]), [t])


EDITS = [
    ("a word in one section", lambda t: t.replace("practical knowledge", "thorough knowledge", 1)),
    ("a word put in capitals", lambda t: t.replace("practical knowledge", "PRACTICAL knowledge", 1)),
    ("a blank line added inside a paragraph", lambda t: t.replace("practical knowledge", "practical\n\nknowledge", 1)),
    ("two paragraphs joined", lambda t: t.replace("\n\n", " ", 1)),
    ("the first word", lambda t: "Lead " + t),
    ("the last word", lambda t: t.rstrip() + " appended words\n"),
    ("a paragraph of numbers only", lambda t: t.replace("\n\n", "\n\n12. 34.\n\n", 1)),
    ("a paragraph deleted", lambda t: t[:t.index("\n\n", 5000)] + t[t.index("\n\n", t.index("\n\n", 5000) + 2):]),
]


@pytest.mark.parametrize("name,edit", EDITS, ids=[n for n, _ in EDITS])
def test_an_edit_counts_again_only_the_paragraphs_it_touches(name: str, edit) -> None:  # type: ignore[no-untyped-def]
    texts = corpus_texts()
    big = max(range(len(texts)), key=lambda i: len(texts[i]))
    book_of(texts).counts  # the process's last count: the corpus before the edit
    edited = list(texts)
    edited[big] = edit(texts[big])
    assert edited[big] != texts[big]
    casecount.STATS.clear()
    book = book_of(edited)
    same(book, edited)
    paragraphs = sum(len(casecount.paragraphs(t)) for t in edited)
    assert paragraphs > 300
    assert 1 <= casecount.STATS["paragraphs counted"] <= 8  # three old paragraphs and three new, at most
    assert casecount.STATS["paragraphs kept"] >= paragraphs - 4
    # and back again: the counts follow edit after edit, as in `navlaw serve`
    casecount.STATS.clear()
    same(book_of(texts), texts)
    assert casecount.STATS["paragraphs counted"] <= 8


def test_paragraphs_tile_the_text_and_each_holds_a_word() -> None:
    for t in corpus_texts() + ["", "12.\n\n", "\n\nword\n\n34\n\n", "a\n\n\n\nb"]:
        spans = casecount.paragraphs(t)
        if not _WORD.search(t):
            assert spans == []
            continue
        assert spans[0][0] == 0 and spans[-1][1] == len(t)
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        assert all(_WORD.search(t, a, b) for a, b in spans)


def test_a_build_after_a_one_section_edit_counts_that_section_s_paragraphs_only(tmp_path: Path) -> None:
    """Two builds in one process, as `navlaw serve` makes them, of the corpus with an act whose new matter is
    in CAPITALS (A4872 adds "2. UPON …" to § 175, so the case book is asked): after a word changed in § 12 of
    the consolidated document the case book counts a few paragraphs, not the corpus, and the outputs are
    those of a clean build."""
    from navlaw.cli import main

    from .test_acts_applied import NYLG, corpus_with

    corpus = corpus_with(tmp_path, NYLG / "2023-A4872.md")

    def build(name: str, *extra: str) -> None:
        assert main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / name),
                     "--module", str(tmp_path / f"{name}-fees"), *extra]) == 0

    build("build")
    path = corpus / "nav-law.consolidated.txt"
    text = path.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.replace("practical", "thorough")), encoding="utf-8")
    casecount.STATS.clear()
    build("build")
    assert 1 <= casecount.STATS["paragraphs counted"] <= 8
    assert casecount.STATS["paragraphs kept"] > 300
    casecount._LAST.clear()  # the clean build counts the whole corpus afresh
    build("clean", "--no-cache")

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(tmp_path / "build") == files(tmp_path / "clean")
