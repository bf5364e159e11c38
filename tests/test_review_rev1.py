"""Findings of the review of #25, #28 and #29 as merged: an amending act checked and built as legal staff would."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

from navlaw.cli import main

from .conftest import CORPUS, ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
ACT = OUTSIDE / "nylg.2023-A3380.md"  # one instruction for the Navigation Law, applies to the corpus


def test_act_check_with_a_fifo_and_a_link_loop_in_the_corpus_reviews_the_act(tmp_path, capsys):
    """A FIFO and a link back up the tree in the corpus folder (neither listed: a build never reads them) made
    `act check` crash with a shutil.Error traceback while copying the corpus; now they are left out of the copy."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    os.mkfifo(corpus / "stray.fifo")
    (corpus / "loop").symlink_to(corpus)
    code = main(["act", "check", str(ACT), "--became-law", "2024-06-01", "--corpus", str(corpus)])
    out = capsys.readouterr().out
    assert code == 0
    assert "1 instruction(s) read: 1 applies, 0 reported, 0 refused — the act can be added to the corpus" in out


def test_act_check_of_a_directory_fifo_or_huge_file_says_what_it_is(tmp_path, capsys):
    """`act check DIR` or `act check FIFO` said 'no such file' of a path that exists; a file of any size was read
    whole and copied into the corpus copy before the front end refused it over 64 MB."""
    fifo = tmp_path / "act.fifo"
    os.mkfifo(fifo)
    assert main(["act", "check", str(tmp_path), "--corpus", str(CORPUS)]) == 1
    assert f"{tmp_path}: error: this is a directory, not a file" in capsys.readouterr().err
    assert main(["act", "check", str(fifo), "--corpus", str(CORPUS)]) == 1
    assert f"{fifo}: error: this is a FIFO (named pipe), not a file" in capsys.readouterr().err
    huge = tmp_path / "huge.md"
    with open(huge, "wb") as f:
        f.truncate((64 << 20) + 1)  # sparse: no disk used
    assert main(["act", "check", str(huge), "--corpus", str(CORPUS)]) == 1
    assert f"{huge}: error: the file is larger than 64 MB" in capsys.readouterr().err


def corpus_with_act(tmp_path: Path, source: Path, entry: str) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    shutil.copy(source, corpus / source.name)
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as m:
        m.write(f'\n[[document]]\nfile = "{source.name}"\nkind = "act"\n{entry}status = "in-force"\n')
    return corpus


def test_a_manifest_effective_the_acts_own_clause_contradicts_is_an_error_not_ignored(tmp_path, capsys):
    """A4677 'shall take effect immediately'; the manifest said became_law 2024-01-01 and effective 2023-06-01.
    The build applied it from 2024-01-01 and said nothing of the manifest's date (exit 0)."""
    corpus = corpus_with_act(tmp_path, OUTSIDE / "nylg.2023-A4677.md", "became_law = 2024-01-01\neffective = 2023-06-01\n")
    code = main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / "out"),
                 "--module", str(tmp_path / "mod")])
    err = capsys.readouterr().err
    assert code == 1
    assert ("error: the manifest gives effective = 2023-06-01 for this act, but the act's own clause dates it 2024-01-01 "
            "(immediately): navlaw does not choose between them") in err
    assert "nylg.2023-A4677.md:" in err.split("the manifest gives effective")[0].splitlines()[-1]


def test_a_manifest_effective_that_agrees_with_the_act_builds(tmp_path, capsys):
    corpus = corpus_with_act(tmp_path, OUTSIDE / "nylg.2023-A4677.md", "became_law = 2024-01-01\neffective = 2024-01-01\n")
    assert main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / "out"),
                 "--module", str(tmp_path / "mod")]) == 0


def test_act_check_of_a_file_whose_name_holds_a_quote_or_backslash(tmp_path, capsys):
    """The name went unescaped into the copy's manifest: 'manifest.toml is not valid TOML' at a line the user's
    manifest does not have."""
    for name in ('a"b.md', "a\\u.md"):
        act = tmp_path / name
        shutil.copy(ACT, act)
        assert main(["act", "check", str(act), "--became-law", "2024-06-01", "--corpus", str(CORPUS)]) == 0
        out = capsys.readouterr().out
        assert "1 instruction(s) read: 1 applies" in out


def test_act_check_with_a_became_law_navlaw_cannot_take_says_the_option_not_a_manifest_line(tmp_path, capsys):
    """--became-law 0001-01-01 was said as 'corpus/manifest.toml:228:1: error: became_law = …' (the manifest has
    223 lines: 228 was a line of the copy's)."""
    assert main(["act", "check", str(ACT), "--became-law", "0001-01-01", "--corpus", str(CORPUS)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"navlaw act check: {ACT} with --became-law 0001-01-01: became_law = 0001-01-01 has no day "
                          "before it")
    assert "manifest.toml:" not in err


def test_the_redline_of_a_rate_act_shows_the_rate_it_changes(capsys):
    """S8469A changes one rate in each of four tables; the redline of act check (and of the change report and the
    site, which use the same comparison) showed only the tables' headings and never a cell: the rate change was
    in no redline."""
    assert main(["act", "check", str(OUTSIDE / "nylg.2024-S8469A.md"), "--became-law", "2024-12-20",
                 "--corpus", str(CORPUS)]) == 0
    redlines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("    88/4/b/1/ii/1/A/")]
    assert len(redlines) == 4
    for line, (old, new) in zip(redlines, [("3.97", "4.70"), ("4.09", "4.85"), ("4.21", "5.00"), ("4.34", "5.15")]):
        assert f"1650 and up $((P.U. - 1650) x [-{old})-] {{+{new})+}}" in line


def test_words_after_immediately_are_not_dropped_for_the_day_it_became_law():
    """'take effect immediately for contracts entered into on or after January 1, 2026' was dated the day the act
    became law, the rest dropped without a word (a date phrase with words after it is an error, #29)."""
    import datetime as dt

    from navlaw.frontend import effective as E

    for clause in ("This act shall take effect immediately for contracts entered into on or after January 1, 2026.",
                   "This act shall take effect immediately upon the enactment of chapter 12 of the laws of 2025."):
        errors: list[str] = []
        assert E.read(clause, dt.date(2024, 6, 1), errors.append).date is None
        assert errors and errors[0].startswith("cannot read the effective date 'immediately ")
    # A4867A § 11: what the act applies to, after "except as otherwise expressly provided in this act", is no proviso
    errors = []
    e = E.read("This act shall take effect immediately and, except as otherwise expressly provided in this act, shall "
               "apply to convictions entered before, on or after such effective date.", dt.date(2024, 6, 1), errors.append)
    assert (e.date, errors) == (dt.date(2024, 6, 1), [])
    assert e.unread == ["and shall apply to convictions entered before, on or after such effective date"]


def test_an_lbdc_update_file_named_by_no_date_is_an_error_not_a_traceback(tmp_path, capsys):
    """20270230.UPDATE (ValueError), 00000000.UPDATE (ValueError), 00010101.UPDATE (OverflowError taking the day
    before): each was a traceback out of `navlaw build`."""
    record = (ROOT / "tests" / "acts" / "lbdc" / "20140923.UPDATE").read_text(encoding="utf-8").replace("ABC4", "NAV88-A")
    for name, why in [("20270230.UPDATE", "its file is named by 20270230, which is not a date"),
                      ("00000000.UPDATE", "its file is named by 00000000, which is not a date"),
                      ("00010101.UPDATE", "its file is named by 0001-01-01, which has no day before it")]:
        corpus = tmp_path / name / "corpus"
        shutil.copytree(CORPUS, corpus)
        (corpus / name).write_text(record, encoding="utf-8")
        with open(corpus / "manifest.toml", "a", encoding="utf-8") as m:
            m.write(f'\n[[document]]\nfile = "{name}"\nkind = "consolidated"\nstatus = "in-force"\n')
        assert main(["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / name / "out"),
                     "--module", str(tmp_path / name / "mod")]) == 1
        assert (f"{name}:1:1: error: the LBDC update record `..SO DOC NAV88-A *REPEAL* LAWS(CONSOLIDATED)` has no date: "
                f"{why}: not applied") in capsys.readouterr().err


def test_changes_over_a_period_that_ends_before_it_begins_is_a_usage_error(capsys):
    """`navlaw changes --from 2025-01-01 --to 2024-01-01` said 'No provision or fee of the corpus changes in this
    period', exit 0, over a year in which the § 88 and § 89-b rates change."""
    assert main(["changes", "--from", "2025-01-01", "--to", "2024-01-01", "--corpus", str(CORPUS)]) == 2
    assert capsys.readouterr().err == ("navlaw changes: --to 2024-01-01 is before --from 2025-01-01; give the earlier "
                                       "date as --from\n")


def test_parse_of_a_directory_is_one_line_not_a_traceback(tmp_path, capsys):
    """`navlaw parse DIR`: os.fdopen raised IsADirectoryError before the file's kind was looked at."""
    assert main(["parse", str(tmp_path)]) == 1
    assert f"{tmp_path}: error: this is a directory, not a file: navlaw reads law texts from regular files" in \
        capsys.readouterr().err


def test_an_act_is_applied_from_its_first_section_date_not_after_acts_dated_before_its_own(tmp_path):
    """Act X takes effect 2029-01-01 but its § 1 on 2025-01-01; act Y (2026-01-01) amends the text X's § 1 made.
    Acts were applied in the order of their own dates, so Y was checked against a law without X's § 1 and refused
    ('"from" where the law has "on"'), though the law on 2025-12-31 is X's text."""
    import re

    from navlaw.frontend.corpus import compile_corpus
    from navlaw.diagnostics import Diagnostics, Severity
    from navlaw.law import compile_law

    x = (ROOT / "tests" / "acts" / "lis-rates-2028.txt").read_text(encoding="utf-8").replace(
        "  § 2. This act shall take effect on January 1, 2028.",
        "  § 2. This act shall take effect January 1, 2029; provided, however, that section one of this act\n"
        "shall take effect January 1, 2025.")
    head, rest = x.split("  Section  1.", 1)
    law = re.sub(r"\[[^\]]*\]\s*", "", rest.split("is amended to read as follows:\n", 1)[1].split("  § 2.")[0])
    law = re.sub(r"\b[A-Z][A-Z-]+\b", lambda m: m.group(0).lower(), law)  # X's new matter, as the law now reads
    law = law.replace("upon", "Upon").replace("january", "January").replace("janu-\n", "Janu-\n")
    law = law.replace("eleven dollars\nand fifty-six", "eleven dollars\nand [fifty-six] SIXTY")
    y = (head + "  Section  1.  Subparagraph 1 of paragraph (b) of subdivision 4 of section\n89-b of the navigation "
         "law, as amended by chapter 1 of the laws of 2025,\nis amended to read as follows:\n" + law
         + "  § 2. This act shall take effect January 1, 2026.\n")
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    (corpus / "x.txt").write_text(x, encoding="utf-8")
    (corpus / "y.txt").write_text(y, encoding="utf-8")
    with open(corpus / "manifest.toml", "a", encoding="utf-8") as m:
        for f in ("x.txt", "y.txt"):
            m.write(f'\n[[document]]\nfile = "{f}"\nkind = "act"\nbecame_law = 2024-06-01\nstatus = "in-force"\n')
    compiled = compile_corpus(corpus)
    law = compile_law(compiled)
    timeline = law.timeline
    assert [d.message for d in law.diagnostics if d.severity is Severity.ERROR] == []
    assert [law.outcome(a).results for a in sorted(compiled.acts, key=lambda a: a.file)
            if a.file.endswith(("x.txt", "y.txt"))] == [
        (("applied", "§ 1 amends 89-b/4/b/1, from 2025-01-01"),), (("applied", "§ 1 amends 89-b/4/b/1, from 2026-01-01"),)]
    text = timeline.section_on("89-b", dt.date(2026, 1, 1)).section.full_text()
    assert "eleven dollars and sixty cents" in text and "until January first, two thousand twenty-eight" in text
