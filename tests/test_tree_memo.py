"""The tree builder by section (compiler/frontend/tree_memo.py): after an edit of one document in one process
(`navlaw serve`), an unchanged section is taken whole from the last tree and only the changed ones are
built, and the tree, its positions and the findings are exactly those of a clean build of the edited text."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import pytest

from navlaw.frontend import tree_memo
from navlaw.frontend.load import load

from .test_frontend_delta import CONSOLIDATED, CORPUS, ENTRY, NAV, OUTSIDE, WORD, clean_and_after_edit, replaced

TEXTS = sorted(p for p in OUTSIDE.glob("*") if p.suffix in (".txt", ".md") and p.name != "README.md") \
    if OUTSIDE.is_dir() else []


def _line_bounds(text: str, rng: random.Random) -> tuple[int, int]:
    """A random line's start and end (its newline excluded)."""
    at = rng.randrange(len(text))
    a = text.rfind("\n", 0, at) + 1
    b = text.find("\n", at)
    return a, b if b >= 0 else len(text)


def _word(text: str, rng: random.Random) -> str:
    a, b = _line_bounds(text, rng)
    words = text[a:b].split(" ")
    k = rng.randrange(len(words))
    words[k] = rng.choice(["thorough", "x", "", "(b)", "§ 3.", "1.", "shall not", words[k] * 2])
    return text[:a] + " ".join(words) + text[b:]


def _drop_line(text: str, rng: random.Random) -> str:
    a, b = _line_bounds(text, rng)
    return text[:a] + text[b + 1:]


def _copy_line(text: str, rng: random.Random) -> str:
    a, b = _line_bounds(text, rng)
    return text[:b] + "\n" + text[a:b] + text[b:]


def _blank(text: str, rng: random.Random) -> str:
    a, _ = _line_bounds(text, rng)
    return text[:a] + "\n" + text[a:]


def _new_section(text: str, rng: random.Random) -> str:
    a, _ = _line_bounds(text, rng)
    return text[:a] + rng.choice(["§ 7-z. Added section.\n\n", "Section 12. Added.\n", "ARTICLE 9\nADDED\n\n",
                                  "  (c) An added provision.\n"]) + text[a:]


def _join(text: str, rng: random.Random) -> str:
    _, b = _line_bounds(text, rng)
    return text[:b] + " " + text[b + 1:] if b < len(text) else text + " end"


def _digit(text: str, rng: random.Random) -> str:
    digits = [k for k in range(0, len(text), max(1, len(text) // 2000)) if text[k].isdigit()]
    if not digits:
        return _word(text, rng)
    k = rng.choice(digits)
    return text[:k] + str((int(text[k]) + 1) % 10) + text[k + 1:]


EDITS: list[Callable[[str, random.Random], str]] = [_word, _drop_line, _copy_line, _blank, _new_section, _join, _digit]


@pytest.mark.skipif(not TEXTS, reason="the outside texts are not here")
@pytest.mark.parametrize("path", TEXTS, ids=[p.name for p in TEXTS])
def test_random_edits_of_real_texts_build_as_a_clean_build(path: Path) -> None:
    """Edit after edit (as someone keeps `navlaw serve` open), each of a random kind at a random place: the tree
    (JSON with positions) and the findings are those of a clean build of the edited text."""
    rng = random.Random(path.name)
    text = load(path).text
    for _ in range(3):
        after = rng.choice(EDITS)(text, rng)
        if after == text:
            continue
        clean, again, _ = clean_and_after_edit(text, after, str(path), None)
        assert again == clean
        text = after


def test_a_word_edit_builds_one_section() -> None:
    """A one-word edit of § 12 of the consolidated text builds that section again; every other is taken from
    the last tree but those holding a table (their rows carry positions of their own: always built)."""
    from navlaw.frontend.corpus import compile_text
    from navlaw.model.nodes import Section, Table

    after = replaced(NAV, WORD, WORD.replace("practical", "thorough"))
    doc = compile_text(after)
    sections = [n for n in doc.walk() if isinstance(n, Section)]
    tabled = sum(1 for s in sections if any(isinstance(n, Table) for n in s.walk()))
    assert len(sections) > 100 and 0 < tabled < 10
    tree_memo.STATS.clear()
    clean, again, _ = clean_and_after_edit(NAV, after, str(CORPUS / CONSOLIDATED), ENTRY)
    assert again == clean
    # the clean build of the edited text and the build of the text before build every section
    assert tree_memo.STATS["sections built"] - 2 * len(sections) == 1 + tabled
    assert tree_memo.STATS["sections reused"] == len(sections) - 1 - tabled


def test_a_change_of_the_findings_cap_is_not_replayed() -> None:
    """Findings are capped per kind (200 listed, the rest counted): an edit that adds findings above sections
    whose findings were listed before makes them counted now, and sections asked whether the cap was reached
    (the ambiguous-label notes) get another answer: those are built again, and the findings are as clean."""
    sections = "".join(f"§ {n}. Section {n}.\n\n(a) first.\n(h) eighth.\n(i) ninth.\n\n" for n in range(1, 260))
    top = "§ 0. Start.\n\n(a) one.\n(h) two.\n(i) three.\n\n"
    for before, after in ((sections, top + sections), (top + sections, sections)):
        tree_memo.STATS.clear()
        clean, again, _ = clean_and_after_edit(before, after, "capped.txt", None)
        assert again == clean
        assert tree_memo.STATS["sections unfit"] == 1 and tree_memo.STATS["sections reused"] == 258
        listed = [f for f in clean["findings"] if "label-ambiguous" in f]
        assert len(listed) == 201 and "not listed" in listed[-1]
