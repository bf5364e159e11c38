"""Hardening: adversarial and random input never crashes and stays linear; builds are atomic and
deterministic; nothing from the corpus escapes into code or out of the output directory."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from navlaw import build as cli_build
from navlaw.cli import main

from .conftest import CORPUS, ROOT
from .fuzz.pipeline import check

MB = 1_000_000


front_and_tariffs = check  # the per-document pipeline (tests/fuzz/pipeline.py), shared with the atheris target


ADVERSARIAL = {
    "one line of labels": "(a) (b) (c) " * 90000,
    "label lines": "(a) x\n(b) y\n(c) z\n" * 60000,
    "open parentheses": "(" * MB,
    "dot leaders": ("Up to 50 pilotage units " + "." * 1000 + " $1.00 ") * 900,
    "pipes": "| " * 500000,
    "one long line": "x" * MB,
    "formula soup": "$((((P.U. - 500 x 1.57" * 40000,
    "tab rows": "0 to 24.99\t$800\n" * 60000,
    "pipe rows": "0 to 24.99 | $((P.U. - 500) x 1.57) + 5860 |\n" * 20000,
    "section headings": "§ 1.\n" * 200000,
    "fines in words": "a fine of not less than twenty-five nor more than one hundred dollars; " * 14000,
    "roman labels": "(i) (ii) (iii) (iv)\n" * 50000,
    "number words": "one " * 250000,
    "brackets": "[(b)] (c) [$50] " * 60000,
    "escaped newlines": "\\n(1) x" * 150000,
    # the layouts of published law (issue 15): LBDC records, contents, headings that run on, labels inside lines
    "lbdc section records": "..SO DOC NAV89-B                 LAWS(CONSOLIDATED)\n  § 89-b. Rates. 1. Every vessel\n" * 12000,
    "lbdc article records": "..SO DOC NAVA6       LAWS(CONSOLIDATED)\n       ARTICLE 6\n    PILOTAGE\nSection 1. Short.\n" * 12000,
    "lbdc chapter record": "..SO DOC NAV-CH37   LAWS(CONSOLIDATED)\n" + "Article  1.   Short title. (§§ 1-3.)\n" * 25000,
    "contents entries": "Section 1. Short title.\n" + "        2. Policy of state and purpose.\n" * 25000,
    "labels inside one line": "§ 1. Heading. " + "It is so. (a) A rule: 1. One. (b) Two. a. Three. " * 20000,
    "labels inside wrapped lines": "  § 1. Heading. Text:\n" + "  (a) A rule. (1) Sub. (i) Clause\nmore words. (2) x\n" * 20000,
    "wrapped headings": ("  § 1. Application for adjustment of initial legal regulated\nrent. The text of it is\n"
                         "here and it goes on for a while so the line is long enough.\n") * 6000,
    "headings of periods": "§ 1. " + "A. B. c. d. " * 80000,
    "rules and roman articles": "RULE IV\nTHE PRESIDENT\n  Section  1. The text.\nARTICLE XII\n" * 20000,
}
# Key phrases of the tariff forms, repeated inside a priced section so the extractors read them
# ("shall pay " x 100,000 stalled a build for minutes with a lazy scan between "shall pay" and "per").
RATES = "§ 89-b. Pilotage on Long Island Sound; rates.\n4. (b) (1) "  # priced: the route forms read it
FEES = "§ 65. Inspection of vessels.\n1. "  # not priced: the prose fee forms read it
for phrase in ("shall pay ", "per pilotage unit ", "percent of ", "dollars and ", "charge calculated on ",
               "All vessels of 100 pilotage units and over shall pay $", "on and after January first, two thousand ",
               "per hour of the zone 2 base rate up to ", "tons burden ", "set by the board ",
               "a fine of not less than ", "section eighty-eight of this article ", "paragraph (e) of this ",
               "more than two hours ", "pilotage units ", "Sandy Hook pilot ", "pilot carried off on board a vessel ",
               "for each vessel over ten tons burden, ", "tons burden, ", "when the Yonkers Station is closed "):
    ADVERSARIAL[f"repeated {phrase.strip()!r}"] = RATES + phrase * (MB // len(phrase))
    ADVERSARIAL[f"repeated {phrase.strip()!r} outside a route"] = FEES + phrase * (MB // len(phrase))


def cpu_seconds(data: bytes) -> float:
    """CPU time of this process (not the wall clock: another process on a busy machine does not count)."""
    t = time.process_time()
    front_and_tariffs(data)
    return time.process_time() - t


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_adversarial_text_stays_linear(name):
    """A megabyte of each pathological shape, and a quarter of it: work grows linearly (no quadratic
    path, no regex backtracking), as a same-run ratio of CPU time. Seconds themselves (the 5-second
    target) are measured by benchmarks/adversarial.py, never asserted here."""
    data = ADVERSARIAL[name].encode("utf-8")
    assert len(data) >= 0.8 * MB
    quarter = cpu_seconds(data[: len(data) // 4])
    full = cpu_seconds(data)
    # four times the input: linear is 4x the time, quadratic 16x; allow 10x for noise and GC
    assert full < 10 * max(quarter, 0.05), f"{name}: {quarter:.2f} s for 1/4, {full:.2f} s for all: not linear"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_random_bytes_give_diagnostics_not_exceptions(data):
    front_and_tariffs(data)


STATUTE_LINE = st.one_of(
    st.sampled_from(["§ 88. Pilotage.", "ARTICLE 6", "Part 2 - X", "4.", "(b) The following scale:",
                     "(1) All vessels shall pay ten dollars and eighty-nine cents per pilotage unit;",
                     "PILOTAGE UNITS\tTARIFF", "0 to 24.99\t$800", "100 to 499.99\t$(11.72 x P.U.)",
                     "0 to 24.99 | $800 |", "Up to 50 pilotage units ....... $852.97",
                     "a fine not exceeding one hundred dollars", "[(b)] (c) deleted [$50] 5 percent of the Zone 2 "
                     "Base Rate", "Effective January first, two thousand twenty-two, the following", "", "   ",
                     "1.(A)", "(1-c)", "(ii) Twelve months after the effective date of this clause",
                     "..SO DOC NAV89-B                 LAWS(CONSOLIDATED)", "..SO DOC NAVA6   LAWS(CONSOLIDATED)",
                     "..SO DOC NAV-CH37", "Section 1. Short title.", "        2. Policy of state.", "Sec.",
                     "  * § 2. Legislative finding. The legislature finds", "  * NB Expires June 16, 2015",
                     "ARTICLE I", "RULE II", "JOINT RULE I", "  a. take the chair;", "S 4. Text.", "3-A. x",
                     "Article  1.   Short title. (§§ 1-3.)", "§ 4. Short title.  This chapter shall be known",
                     "It is so. (a) A rule: 1. One.", "rent. The text"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STATUTE_LINE, max_size=40), st.sampled_from(["\n", "\r\n", "\\n"]))
# found by this test: an empty record's line inside an open article went after the article's text
@example(["ARTICLE 6", "..SO DOC NAV89-B                 LAWS(CONSOLIDATED)",
          "..SO DOC NAV89-B                 LAWS(CONSOLIDATED)", "§ 88. Pilotage."], "\n")
def test_statute_like_text_never_crashes_and_round_trips(lines, sep):
    front_and_tariffs(sep.join(lines).encode("utf-8"))


def test_atheris_fuzz_target_runs_briefly():
    pytest.importorskip("atheris")
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz" / "fuzz_frontend.py"), "-runs=1500",
                        "-max_len=2000", "-seed=1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Done 1500 runs" in r.stderr


# ---- builds -----------------------------------------------------------------------------------------------

def build(out: Path, module: Path, corpus: Path = CORPUS, *extra: str) -> int:
    return main(["build", "--corpus", str(corpus), "--out", str(out), "--module", str(module), *extra])


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_two_builds_are_byte_identical(tmp_path, capsys):
    assert build(tmp_path / "a", tmp_path / "ma") == 0
    assert build(tmp_path / "b", tmp_path / "mb") == 0
    a, b = tree_bytes(tmp_path / "a"), tree_bytes(tmp_path / "b")
    assert a.keys() == b.keys() and a == b
    assert {"tariffs.json", "diagnostics.json", "changes.md"} <= set(a)
    assert tree_bytes(tmp_path / "ma") == tree_bytes(tmp_path / "mb")


def test_a_build_that_fails_midway_leaves_the_previous_output(tmp_path, monkeypatch, capsys):
    out, module = tmp_path / "out", tmp_path / "module"
    assert build(out, module) == 0
    before, before_mod = tree_bytes(out), tree_bytes(module)
    calls = {"n": 0}
    real = cli_build.dump

    def failing_dump(obj):  # fail while the tree files are being written
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full (simulated)")
        return real(obj)

    monkeypatch.setattr(cli_build, "dump", failing_dump)
    assert build(out, module, CORPUS, "--no-cache") == 1  # the cache would hand over the rendered files
    assert "disk full (simulated); the previous output is unchanged" in capsys.readouterr().err
    assert tree_bytes(out) == before and tree_bytes(module) == before_mod
    monkeypatch.setattr(cli_build, "dump", real)
    real_write = cli_build.write_files

    def failing_module(target, files, *rest):  # fail while the module is being written, after the rest
        if target.name.startswith(".module.new-"):
            raise OSError("disk full (simulated)")
        return real_write(target, files, *rest)

    monkeypatch.setattr(cli_build, "write_files", failing_module)
    assert build(out, module, CORPUS, "--no-cache") == 1  # (a cached build finds the output up to date)
    assert tree_bytes(out) == before and tree_bytes(module) == before_mod
    # no temporary left behind (the cache, .out-cache/, and the lock files .out.lock are not ones)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".") and not p.name.endswith(("-cache", ".lock"))]


def test_manifest_file_outside_the_corpus_is_refused(tmp_path, capsys):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    (tmp_path / "outside.txt").write_text("§ 1. Outside.\n")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write('\n[[document]]\nfile = "../outside.txt"\nkind = "section-text"\nstatus = "in-force"\n')
    assert main(["lint", "--corpus", str(root)]) == 1
    assert "must be inside the corpus directory" in capsys.readouterr().err


def test_output_file_names_come_from_corpus_file_names_only(tmp_path, capsys):
    assert build(tmp_path / "out", tmp_path / "m") == 0
    names = sorted(p.name for p in (tmp_path / "out" / "tree").iterdir())
    assert names == sorted(f"{p.name}.json" for p in CORPUS.glob("*.txt"))


def test_a_build_on_a_terminal_shows_each_stage_and_is_quiet_in_a_pipe(tmp_path, capsys, monkeypatch):
    """Issue 18, item 5: progress per stage with its time on a terminal (Rich, on stderr); nothing of it
    when stderr is a pipe or CI is set (what CI and scripts see stays as before)."""
    args = ["build", "--out", str(tmp_path / "b"), "--module", str(tmp_path / "m"), "--no-site", "--no-cache"]
    monkeypatch.setenv("CI", "true")
    assert main(args) == 0
    assert "front end: reading and parsing the corpus" not in capsys.readouterr().err
    monkeypatch.delenv("CI")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(args) == 0
    err = capsys.readouterr().err
    for stage in ("front end: reading and parsing the corpus", "timeline: versions and amending acts",
                  "tariffs: extraction, dates and lint", "fee module and outputs", "writing the outputs"):
        assert re.search(re.escape(stage) + r": \d+\.\d\d s", err), (stage, err[-600:])
