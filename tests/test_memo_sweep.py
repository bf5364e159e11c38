"""Edits chosen to catch a memo of issue 32 keyed on too little (benchmarks/memo_sweep.py sweeps random ones):
after each edit of a chain, in one process as `navlaw serve` builds, the incremental build writes byte for
byte what a `--no-cache` build of the same corpus writes in a fresh process (whose memos hold nothing)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import shutil
import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from .conftest import CONSOLIDATED, CORPUS, HUDSON, LIS_2022, RULE, SANDY_HOOK
from .test_incremental import build, tree_bytes


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def clean(tmp: Path, corpus: Path, *extra: str) -> None:
    """A --no-cache build in a fresh process (no memo of this process can take part)."""
    shutil.rmtree(tmp / "clean", ignore_errors=True)
    shutil.rmtree(tmp / "clean-fees", ignore_errors=True)
    path = os.pathsep.join(p for p in sys.path if p)  # this process's navlaw (a worktree's, or the installed one)
    done = subprocess.run([sys.executable, "-m", "navlaw", "build", "--corpus", str(corpus), "--out", str(tmp / "clean"),
                           "--module", str(tmp / "clean-fees"), "--no-cache", *extra], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=path))
    assert done.returncode == 0, done.stderr[-2000:]


def same_as_clean(tmp: Path, corpus: Path, *extra: str) -> None:
    assert build(tmp, corpus, "build", *extra) == 0
    clean(tmp, corpus, *extra)
    history = ("CHANGES", "README.md")  # made of the module a build replaces (tests/test_changelog.py)
    a, b = tree_bytes(tmp / "build"), tree_bytes(tmp / "clean")
    assert sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k)) == []
    a, b = tree_bytes(tmp / "build-fees"), tree_bytes(tmp / "clean-fees")
    assert sorted(k for k in a.keys() | b.keys() if k not in history and a.get(k) != b.get(k)) == []


def swap(path: Path, old: str, new: str) -> None:
    """The first ``old`` of the file becomes ``new``."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")


def test_same_length_rate_cells_of_the_small_files_and_back_again(tmp_path, corpus):
    """A cell of a rate table changed for one of the same length (no span moves) in § 88's fragments, § 89-a
    and 21 NYCRR, then the corpus back to its first text (A -> B -> A: the memo of A's era must not be the one
    taken for B, nor B's for A) and on to B again."""
    assert build(tmp_path, corpus, "build", "--no-site") == 0
    originals = {n: (corpus / n).read_bytes() for n in (SANDY_HOOK, HUDSON, RULE, LIS_2022)}
    swap(corpus / SANDY_HOOK, "$942 |", "$947 |")
    same_as_clean(tmp_path, corpus, "--no-site")
    swap(corpus / HUDSON, "$852.97", "$853.97")
    swap(corpus / RULE, "$2.63 per", "$2.68 per")
    swap(corpus / LIS_2022, "twenty-two cents", "twenty-six cents")
    same_as_clean(tmp_path, corpus, "--no-site")
    amended = {n: (corpus / n).read_bytes() for n in originals}
    for name, text in originals.items():
        (corpus / name).write_bytes(text)
    same_as_clean(tmp_path, corpus, "--no-site")
    for name, text in amended.items():
        (corpus / name).write_bytes(text)
    same_as_clean(tmp_path, corpus, "--no-site")


def test_manifest_keys_that_change_how_a_text_is_read(tmp_path, corpus):
    """The consolidation's list numbering and its lost label, then both back: the text of no file changes."""
    assert build(tmp_path, corpus, "build", "--no-site") == 0
    manifest = corpus / "manifest.toml"
    swap(manifest, 'list_numbering = "real"', 'list_numbering = "artifact"')
    same_as_clean(tmp_path, corpus, "--no-site")
    swap(manifest, '"88/4/b/ii" = "88/4/b/1/ii"', '# "88/4/b/ii" = "88/4/b/1/ii"')
    same_as_clean(tmp_path, corpus, "--no-site")
    shutil.copy(CORPUS / "manifest.toml", manifest)
    same_as_clean(tmp_path, corpus, "--no-site")


def test_the_sites_date_and_address_change_between_builds(tmp_path, corpus):
    """`--on` (the law pages show the law in force that day; the default, today, changes at midnight in a
    `navlaw serve` left open) and `--site-url` change with the corpus unchanged, then with an edit."""
    assert build(tmp_path, corpus, "build", "--on", "2026-12-31") == 0
    same_as_clean(tmp_path, corpus, "--on", "2027-01-01", "--site-url", "https://b.example/navlaw/")
    swap(corpus / CONSOLIDATED, "practical knowledge", "thorough knowledge")
    same_as_clean(tmp_path, corpus, "--on", "2022-07-21", "--site-url", "https://b.example/navlaw/")


def test_a_cited_section_renumbered_and_back(tmp_path, corpus):
    """§ 192, which § 176's text cites ("the penalty provisions of section 192 of this article"), takes another
    number and then its own again: § 176's text is the same all along, its link to § 192 is not."""
    assert build(tmp_path, corpus) == 0
    swap(corpus / CONSOLIDATED, "ｧ 192. Enforcement", "ｧ 194. Enforcement")
    same_as_clean(tmp_path, corpus)
    swap(corpus / CONSOLIDATED, "ｧ 194. Enforcement", "ｧ 192. Enforcement")
    same_as_clean(tmp_path, corpus)


def test_a_new_text_that_changes_the_transporting_distance_is_a_new_constant(tmp_path, corpus):
    """§ 89-b(4)(b)(4)'s 2022 text says "less than twenty-four miles" where the consolidation's said "twenty-five"
    (found by benchmarks/memo_sweep.py, in a clean build too: the generator ended in a traceback, "generated
    constant NAV_89_B_4_B_4_MILES would hold two values"): each text's distance is its own constant, as each
    text's words are (fees/trace_gen.py), and a quote under the 2022 text uses 24 miles."""
    swap(corpus / LIS_2022, "less than twenty-five miles", "less than twenty-four miles")
    assert build(tmp_path, corpus, "build", "--no-site", "--no-cache") == 0
    code = (tmp_path / "build-fees" / "__init__.py").read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in (tmp_path / "build-fees").glob("*.py"))
    assert 'NAV_89_B_4_B_4_MILES = Decimal("25")' in code and 'NAV_89_B_4_B_4_MILES_2 = Decimal("24")' in code
    assert "< NAV_89_B_4_B_4_MILES_2:" in code
    spec = importlib.util.spec_from_file_location("nf_miles_24", tmp_path / "build-fees" / "__init__.py",
                                                  submodule_search_locations=[str(tmp_path / "build-fees")])
    assert spec is not None and spec.loader is not None
    nf = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = nf
    try:
        spec.loader.exec_module(nf)
        on = dt.date(2026, 6, 1)
        full = nf.quote("long-island-sound", units=300, on=on).total
        assert nf.quote("long-island-sound", units=300, on=on, miles=D("24.5")).total == full  # 25 before
        assert nf.quote("long-island-sound", units=300, on=on, miles=D("23.5")).total == (full * 2 / 3).quantize(D("0.01"))
    finally:
        del sys.modules[spec.name]
