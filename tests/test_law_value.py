"""The law stage's result is a value of its own (issue 26): ``navlaw.law.compile_law(corpus) -> Law`` holds the
timeline, what each act did and the references, and sets nothing on the corpus or its acts; every command goes
through the pipeline's front end and law stage, so a conflict or an act that does not apply stops `navlaw show`
as it stops `navlaw build`; and an act amends whatever code its instruction names (a rule of the NYCRR too)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from pathlib import Path

import pytest

from navlaw.cli import main
from navlaw.diagnostics import Severity
from navlaw.frontend.corpus import compile_corpus
from navlaw.law import Law, compile_law

from .conftest import CORPUS, ROOT

NYLG = ROOT / "tests" / "acts" / "nylg"


def copy_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def add_entry(root: Path, entry: str) -> None:
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write("\n[[document]]\n" + entry)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    """The exit status and the error lines (file:line:col: error: …) a command printed."""
    code = main(list(argv))
    err = capsys.readouterr().err
    return code, [line for line in err.splitlines() if ": error: " in line]


def build_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str], root: Path, section: str
                   ) -> dict[str, tuple[int, list[str]]]:
    out = {"build": run(capsys, "build", "--no-site", "--no-cache", "--corpus", str(root),
                        "--out", str(tmp_path / "out"), "--module", str(tmp_path / "fees"))}
    out["show"] = run(capsys, "show", section, "--corpus", str(root))
    out["diff"] = run(capsys, "diff", section, "--from", "2023-01-01", "--to", "2025-01-01", "--corpus", str(root))
    out["export"] = run(capsys, "export", "akn", "--corpus", str(root), "--out", str(tmp_path / "akn"))
    out["changes"] = run(capsys, "changes", "--from", "2023-01-01", "--to", "2025-01-01", "--corpus", str(root))
    return out


def test_two_texts_in_force_on_one_day_stop_show_as_they_stop_build(tmp_path, capsys):
    """A second text of § 89-b taking effect the day the corpus's does: `navlaw show 89-b` printed one of them as
    the law (it built its own timeline and skipped the conflict check); now every command reports the conflict
    as `navlaw build` does, with the same line, and exits 1."""
    root = copy_corpus(tmp_path)
    shutil.copy(root / "089-b.2022.txt", root / "089-b.again.txt")
    add_entry(root, 'file = "089-b.again.txt"\nkind = "section-text"\ncovers = ["89-b"]\neffective = 2022-07-21\n'
                    'status = "in-force"\nsource = "test: a second text"\nconfidence = "verified"\n')
    said = build_and_show(tmp_path, capsys, root, "89-b")
    conflict = [line for line in said["build"][1] if "two texts of 89-b take effect on 2022-07-21" in line]
    assert said["build"][0] == 1 and len(conflict) == 1, said["build"]
    for command, (code, errors) in said.items():
        assert code == 1 and errors == said["build"][1], command  # the same diagnostics, the same exit status
    assert not (tmp_path / "akn").exists()


@pytest.mark.skipif(not NYLG.is_dir(), reason="tests/acts/nylg/ is not there")
def test_an_act_that_does_not_apply_stops_show_as_it_stops_build(tmp_path, capsys):
    """A3096 against a corpus whose § 50 reads otherwise: the act does not apply (an error naming the word), and
    show, diff, export and changes say so as build does instead of showing the law without it."""
    root = copy_corpus(tmp_path)
    shutil.copy(NYLG / "2023-A3096.md", root / "2023-A3096.md")
    add_entry(root, 'file = "2023-A3096.md"\nkind = "act"\nbecame_law = 2024-06-01\nstatus = "in-force"\n')
    law = root / "nav-law.consolidated.txt"
    law.write_bytes(law.read_bytes().replace(b"at least one month before it is desired",
                                             b"at least two months before it is desired"))
    said = build_and_show(tmp_path, capsys, root, "50")
    refused = [line for line in said["build"][1] if "does not apply to 50 as in force on 2024-08-29" in line]
    assert said["build"][0] == 1 and len(refused) == 1, said["build"]
    for command, (code, errors) in said.items():
        assert code == 1 and errors == said["build"][1], command


def test_the_law_stage_returns_a_new_value_and_sets_nothing_on_the_corpus_or_its_acts():
    corpus = compile_corpus(CORPUS)
    before = [dataclasses.asdict(a) for a in corpus.acts]
    front = list(corpus.diagnostics)
    law = compile_law(corpus)
    assert isinstance(law, Law) and law.corpus is corpus
    with pytest.raises(dataclasses.FrozenInstanceError):
        law.timeline = law.timeline  # type: ignore[misc]
    assert [dataclasses.asdict(a) for a in corpus.acts] == before  # the acts as read, untouched
    assert list(corpus.diagnostics) == front  # the corpus's findings are the front end's; the law's are its own
    assert list(law.diagnostics)[:len(front)] == front
    act = corpus.acts[0]
    outcome = law.outcome(act)
    assert outcome.file == act.file and not outcome.rejected
    assert [k for k, _ in outcome.results] == ["applied"] * len(act.instructions)
    assert set(outcome.made) == {(i.number, i.target) for i in act.instructions}
    with pytest.raises(TypeError):
        outcome.made[(9, "x")] = ("", "")  # type: ignore[index]
    assert law.references and all(r.file for r in law.references)


RULE_ACT = """\
                 S T A T E   O F   N E W   Y O R K
________________________________________________________________________

                                  5120

                       2025-2026 Regular Sessions

                          I N  S E N A T E

                            January 8, 2025
                              ___________

Introduced  by  Sen. EXAMPLE -- read twice and ordered printed, and when
  printed to be committed to the Committee on Transportation

AN  ACT  to amend title 21 of the official compilation of codes, rules and
  regulations of the state of New York, in relation to launch fees on the
  Hudson river

  THE PEOPLE OF THE STATE OF NEW YORK, REPRESENTED IN SENATE AND  ASSEM-
BLY, DO ENACT AS FOLLOWS:

  Section  1.  Paragraph 1 of subdivision (b) of section 55.2 of title 21
of the official compilation of codes, rules and regulations of the state
of New York is amended to read as follows:
  (1) Zone 1 - Lower River - Yonkers to Hyde Park: Yonkers to Hyde Park:
Rate [$2.99] $3.10 per Pilotage Unit for the Yonkers Pilot Station, $1.495
per Pilotage Unit (computed as 50 percent of the per unit Zone 1 launch
fee) for Pilot Transport Fee at Yonkers Anchorage.
  § 2. This act shall take effect immediately.
"""


def test_an_act_amends_a_rule_through_the_table_of_codes(tmp_path, capsys):
    """An instruction for "title 21 of the official compilation of codes, rules and regulations" is for the
    corpus's 21 NYCRR (a code of the table of codes, held by the corpus), not reported as another law's: its
    target is 21nycrr/55.2/b/1, checked against the rule in force the day before, and cited as the rule is."""
    root = copy_corpus(tmp_path)
    (root / "s5120.txt").write_text(RULE_ACT, encoding="utf-8")
    add_entry(root, 'file = "s5120.txt"\nkind = "act"\nbecame_law = 2025-03-03\nstatus = "in-force"\n')
    corpus = compile_corpus(root)
    law = compile_law(corpus)
    act = next(a for a in corpus.acts if a.file.endswith("s5120.txt"))
    assert [d.message for d in law.diagnostics if d.severity is Severity.ERROR] == []
    assert act.reported == [] and [(i.target, i.action, i.code.cite) for i in act.instructions] == [
        ("21nycrr/55.2/b/1", "amend", "21 NYCRR")]
    assert law.outcome(act).results == (("applied", "§ 1 amends 21nycrr/55.2/b/1, from 2025-03-03"),)
    old = law.timeline.section_on("21nycrr/55.2", dt.date(2025, 3, 2)).section
    new = law.timeline.section_on("21nycrr/55.2", dt.date(2025, 3, 3)).section
    assert old is not None and new is not None
    node = new.find("21nycrr/55.2/b/1")
    assert node is not None and node.citation == "21 NYCRR § 55.2(b)(1)" and "$3.10 per Pilotage Unit" in node.text
    assert "$2.99 per Pilotage Unit for the Yonkers" in (old.find("21nycrr/55.2/b/1") or old).text
    assert new.find("21nycrr/55.2/b/2") == old.find("21nycrr/55.2/b/2")  # the rest of the rule as it was
    code, _ = run(capsys, "show", "55.2", "--on", "2025-03-03", "--corpus", str(root))
    assert code == 0
    assert main(["act", "check", str(root / "s5120.txt"), "--corpus", str(root)]) == 0
    said = capsys.readouterr().out
    assert "§ 1: 21 NYCRR, 21 NYCRR § 55.2(b)(1) [21nycrr/55.2/b/1]: amend, effective 2025-03-03" in said
    assert "changes: '$2.99' becomes '$3.10'" in said and "1 instruction(s) read: 1 applies" in said


def test_an_instruction_for_a_code_the_corpus_does_not_hold_is_reported(tmp_path):
    """The same act for title 19 (which the corpus holds no text of): reported, not applied."""
    root = copy_corpus(tmp_path)
    (root / "s5120.txt").write_text(RULE_ACT.replace("title 21\nof", "title 19\nof"), encoding="utf-8")
    add_entry(root, 'file = "s5120.txt"\nkind = "act"\nbecame_law = 2025-03-03\nstatus = "in-force"\n')
    corpus = compile_corpus(root)
    act = next(a for a in corpus.acts if a.file.endswith("s5120.txt"))
    assert act.instructions == [] and [(r.law, r.targets) for r in act.reported] == [("19 nycrr", ("55.2/b/1",))]
