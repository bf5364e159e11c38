"""Real amending acts (../shared/outside/, read in place) put into a copy of the corpus with a became_law
chosen for the test (issue 16, item 7). What each must do was written by hand from its text: which
instructions it holds, which apply, which are another law's (reported), and why the rest are refused
(the corpus lacks the text they amend)."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from navlaw.cli import main
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_corpus
from navlaw.law import compile_law

from .conftest import CORPUS, ROOT, load_module

OUTSIDE = ROOT.parent / "shared" / "outside"
pytestmark = pytest.mark.skipif(not OUTSIDE.is_dir(), reason="../shared/outside/ is not beside the repository")
BECAME_LAW = "2024-06-01"  # chosen for the tests: none of these bills is known here to have become law


def without_acts(root: Path) -> None:
    """The corpus's own amending acts taken out (A.8982-A of 2024 is S8469A's twin: both in one corpus would amend
    the same subitems twice), so that each outside act is applied to the law texts alone."""
    text = (root / "manifest.toml").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[document\]\]|# ---- routes)", text)
    for b in blocks:
        if re.search(r'(?m)^kind = "act"', b):
            (root / re.search(r'(?m)^file = "([^"]+)"', b).group(1)).unlink()  # type: ignore[union-attr]
    (root / "manifest.toml").write_text("".join(b for b in blocks if not re.search(r'(?m)^kind = "act"', b)),
                                        encoding="utf-8")


def corpus_with(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    without_acts(root)
    shutil.copy(OUTSIDE / name, root / name)
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write(f'\n[[document]]\nfile = "{name}"\nkind = "act"\nbecame_law = {BECAME_LAW}\nstatus = "in-force"\n'
                f'source = "test: {name}"\nconfidence = "verified"\n')
    return root


def outcome(tmp_path: Path, name: str):
    corpus = compile_corpus(corpus_with(tmp_path, name))
    law = compile_law(corpus)
    act = corpus.acts[0]
    errors = [d.message for d in law.diagnostics if d.file.endswith(name) and d.severity is Severity.ERROR]
    return act, list(law.outcome(act).results), errors


def kinds(out, kind: str) -> list[str]:
    return [w for k, w in out if k == kind]


@pytest.mark.parametrize("name", ["derived.S8469A-2024-fulltext.txt", "nylg.2024-S8469A.md"])
def test_s8469a_amends_the_four_1650_and_up_multipliers(tmp_path, name):
    act, out, errors = outcome(tmp_path, name)
    assert errors == [] and act.effective == dt.date(2024, 6, 1)  # "take effect immediately"
    assert kinds(out, "applied") == [f"§ 1 amends 88/4/b/1/ii/1/A/{s}, from 2024-06-01" for s in ("iii", "iv", "v", "vi")]
    assert act.removed[:1] == (["the Markdown header before `## Full Text`"] if name.endswith(".md") else ["the EXPLANATION footer"])


def test_s8469a_changes_the_quotes_from_its_effective_date(tmp_path, capsys):
    root = corpus_with(tmp_path, "derived.S8469A-2024-fulltext.txt")
    assert main(["build", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "s8_fees"),
                 "--no-site", "--no-cache"]) == 0
    said = capsys.readouterr().out
    assert "  § 1 in § 88(4)(b)(1)(ii)(1)(A)(v): 1650 and up: '4.21' becomes '5.00'" in said
    assert "4 instruction(s) applied, 0 reported (not this corpus's law), 0 refused" in said
    try:
        fees = load_module(tmp_path / "s8_fees", "s8_fees")
        # 2000 PU on 2026-06-01, table (v): (2000 - 1650) x 5.00 + 8726 = 10,476.00, plus 7.5% = 785.70
        assert fees.quote("sandy-hook", units=2000, on=dt.date(2026, 6, 1)).total == D("11261.70")
        # before the act: x 4.21 -> 350 x 4.21 + 8726 = 10,199.50, plus 764.96 (7.5%, to the cent)
        assert fees.quote("sandy-hook", units=2000, on=dt.date(2024, 5, 1)).total == D("10335.59")  # (iii): x 3.97
        # below 1650 PU nothing changes: 1000 PU in 2026: (1000 - 500) x 1.77 + 6595 = 7,480.00 + 561.00
        assert fees.quote("sandy-hook", units=1000, on=dt.date(2026, 6, 1)).total == D("8041.00")
    finally:
        sys.modules.pop("s8_fees", None)


def test_a3380_adds_subdivision_3_a_in_law_case_from_its_effective_date(tmp_path, capsys):
    act, out, errors = outcome(tmp_path, "nylg.2023-A3380.md")
    assert errors == [] and kinds(out, "applied") == ["§ 1 adds 49-a/3-a, from 2024-06-01"]
    root = tmp_path / "corpus"
    assert main(["show", "49-a", "--on", "2024-06-01", "--corpus", str(root)]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "3-a. Privilege to operate a motor vehicle; suspension. The court shall suspend a person's privilege" in shown
    assert "paragraph (a), (b), (d) or (e) of subdivision two of this section" in shown
    assert main(["show", "49-a", "--on", "2024-05-31", "--corpus", str(root)]) == 0
    assert "3-a." not in capsys.readouterr().out


def test_a29_repeals_49_a_and_49_b_and_adds_article_4_b_and_reports_the_other_laws(tmp_path):
    act, out, errors = outcome(tmp_path, "nylg.2023-A29.md")
    assert act.effective == dt.date(2024, 9, 29)  # "on the one hundred twentieth day after it shall have become a law"
    applied = kinds(out, "applied")
    assert applied[:2] == ["§ 1 repeals 49-a, from 2024-09-29", "§ 1 repeals 49-b, from 2024-09-29"]
    assert [a.split()[3].rstrip(",") for a in applied[2:]] == [f"79-{c}" for c in "defghijklmn"]
    reported = kinds(out, "reported")
    assert len(reported) == 8 and reported[0].startswith("§ 2 instructs the vehicle and traffic law (1196)")
    assert any("the penal law" in r for r in reported) and any("the criminal procedure law" in r for r in reported)
    assert errors == ["§ 6 of the act amends 49/4, which is not in force on 2024-09-28: the corpus has no dated text of 49"]


@pytest.mark.parametrize("name, applied, refused_because", [
    ("nylg.2023-A4677.md", ["§ 1 adds 176/9, from 2024-06-01"], []),
    ("nylg.2023-A5598.md", ["§ 1 adds 78/4, from 2025-06-01", "§ 2 adds 79/3, from 2025-06-01"], []),  # "one year after"
    ("nylg.2023-A5948.md", ["§ 3 adds 40/13, from 2024-01-01"],  # "take effect January 1, 2024", without "on"
     ["40/2, which is not in force on 2023-12-31: the corpus's text of § 40 has no numbered provisions",
      "40/6, which is not in force on 2023-12-31"]),
    ("nylg.2023-A3109.md", [], ["79-b/3, which is not in force on 2025-03-31: the corpus's text of § 79-b holds its "
                                "heading only"]),  # "on the first of April next succeeding …": 2025-04-01
    ("nylg.2023-S4753.md", [], ["174/4/a, which is not in force on 2024-05-31: the corpus's text of § 174 holds 174/1, "
                                "174/2, 174/3, 174/5", "adds 174/4/e to 174/4, which is not in force"]),
    ("nylg.2023-A5705.md", [], ["adds 33-c/1/k to 33-c/1, which is not in force", "adds 33-c/2/c to 33-c/2"]),
    ("nylg.2023-A8128.md", [], ["adds 49-a/6/c to 49-a/6", "amends 49-a/7/a", "amends 49-a/8/b/2"]),
    ("nylg.2023-S4277.md", [], []),  # the vehicle and traffic law only: three instructions reported
])
def test_each_navigation_law_act_applies_or_says_why_not(tmp_path, name, applied, refused_because):
    act, out, errors = outcome(tmp_path, name)
    assert kinds(out, "applied") == applied
    assert len(errors) == len(kinds(out, "refused")) >= len(refused_because)
    for why in refused_because:
        assert any(why in e for e in errors), (why, errors)


def test_a_multi_law_act_reports_the_other_laws_and_applies_nothing_wrongly(tmp_path):
    act, out, errors = outcome(tmp_path, "nylg.2023-A5705.md")  # ECL §§ 17-0105, 17-0508 and Nav. Law § 33-c
    assert [r for r in kinds(out, "reported")][:1] == [
        "§ 1 instructs the environmental conservation law (17-0105): not in this corpus, not applied"]


def test_the_budget_bill_amends_no_navigation_law_and_says_so(tmp_path):
    """A3007-A of 2017: 400 KB, line-numbered, in parts, no instruction for the Navigation Law."""
    act, out, errors = outcome(tmp_path, "ol.BudgetBill-A3007A-2017.txt")
    assert act.instructions == [] and len(kinds(out, "reported")) > 50 and errors == []
    assert any("chapter 639 of the laws of 1996" in r for r in kinds(out, "reported"))
    assert "line numbers" in act.removed and "page headers" in act.removed
