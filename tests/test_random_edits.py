"""Edits of real texts in one process (`navlaw serve`): with the parser's memo by section (frontend/chunks.py)
the tree, its positions and the findings after each edit are exactly those of a clean build of the edited
text, for random edits of every outside text (tests/test_frontend_delta.py tests chosen edits of the corpus)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import pytest

from navlaw.frontend.load import load

from .test_frontend_delta import OUTSIDE, clean_and_after_edit

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
