"""Tariffs follow provisions, not sections (issues 27 item 5, 28 item 3, 34): a schedule lives while the provision
it was read from is in force with that text. An act adding a clause beside it does not end it; an act giving
its own provision a new text ends it that day, and a new text in which no rate can be read is an error naming
the provision, never the old rate carried on."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS, HUDSON, load_module

ACTS = Path(__file__).parent / "acts"


def corpus_with(tmp_path: Path, name: str, text: str, became_law: str) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    (root / name).write_text(text, encoding="utf-8")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write(f'\n[[document]]\nfile = "{name}"\nkind = "act"\nbecame_law = {became_law}\nstatus = "in-force"\n'
                f'source = "test act"\nconfidence = "verified"\n')
    return root


def build(tmp_path: Path, root: Path, capsys, module: str) -> tuple[int, str]:
    code = main(["build", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module", str(tmp_path / module),
                 "--no-site", "--no-cache"])
    out, err = capsys.readouterr()
    return code, out + err


def test_an_added_clause_leaves_its_siblings_fees_in_force_until_its_own_date(tmp_path, capsys):
    """hudson-clause-viii.txt adds § 89-a(4)(b)(1)(viii), "effective January first, two thousand twenty-eight", by
    an act in force on 2025-06-01: schedule (vii) stays in force until 2028-01-01."""
    root = corpus_with(tmp_path, "viii.txt", (ACTS / "hudson-clause-viii.txt").read_text(encoding="utf-8"), "2025-06-01")
    code, said = build(tmp_path, root, capsys, "viii_fees")
    assert code == 0, said
    assert "applied: § 1 adds § 89-a(4)(b)(1)(viii), from 2025-06-01" in said
    try:
        fees = load_module(tmp_path / "viii_fees", "viii_fees")
        for day in (dt.date(2025, 5, 31), dt.date(2025, 6, 1), dt.date(2026, 6, 1), dt.date(2027, 12, 31)):
            q = fees.quote("hudson-lower", units=300, on=day)  # (vii): 300 x 13.61, not a FeeError
            assert q.total == D("4083.00") and q.lines[0].citation == "Nav. Law § 89-a(4)(b)(1)(vii)", day
        new = fees.quote("hudson-lower", units=300, on=dt.date(2028, 1, 1))  # (viii): 300 x 20.00
        assert new.total == D("6000.00")
        assert new.lines[0].citation == "Nav. Law § 89-a(4)(b)(1)(viii), as amended by viii.txt"
        assert fees.quote("hudson-upper", units=300, on=dt.date(2026, 6, 1)).total == D("5751.00")  # 300 x 19.17
    finally:
        sys.modules.pop("viii_fees", None)


def _vii_rewritten(new: str = "", rate: str = "") -> str:
    """An act giving § 89-a(4)(b)(1)(vii) a new text: its whole old text in [brackets] and the new in CAPITALS,
    or (``rate``) the old text with its Section 1 rate replaced ("$[13.61] 14.00", as bills print it)."""
    line = (CORPUS / HUDSON).read_text(encoding="utf-8").split("\n")[14]
    old = line.split("(vii) ", 1)[1].strip()
    text = old.replace("$13.61", f"$[13.61] {rate}", 1) if rate else f"[{old}] {new}"
    return ("AN ACT to amend the navigation law, in relation to Hudson river base\n  pilotage rates\n\n"
            "  THE PEOPLE OF THE STATE OF NEW YORK, REPRESENTED IN SENATE AND  ASSEM-\nBLY, DO ENACT AS FOLLOWS:\n\n"
            "  Section 1. Clause (vii) of subparagraph 1 of paragraph (b) of subdivision\n4 of section 89-a of the "
            f"navigation law is amended to read as follows:\n  (vii) {text}\n"
            "  § 2. This act shall take effect immediately.\n")


def test_a_new_text_without_a_readable_rate_is_an_error_naming_the_provision(tmp_path, capsys):
    root = corpus_with(tmp_path, "vii.txt", _vii_rewritten(
        "EFFECTIVE JANUARY FIRST, TWO THOUSAND TWENTY-SIX, THE BASE PILOTAGE RATES SHALL BE THOSE THE BOARD OF "
        "COMMISSIONERS OF PILOTS PUBLISHES."), "2025-06-01")
    code, said = build(tmp_path, root, capsys, "vii_fees")
    assert code == 1 and not (tmp_path / "vii_fees").exists()
    assert ("error: the law at Nav. Law § 89-a(4)(b)(1)(vii) changed on 2025-06-01 and its new rate could not be "
            "read: § 1 of vii.txt gives it a new text") in said
    assert "no hudson-lower/base fee" in said and "no hudson-upper/base fee" in said


def test_a_new_text_of_the_provision_ends_its_old_schedule_that_day(tmp_path, capsys):
    root = corpus_with(tmp_path, "vii2.txt", _vii_rewritten(rate="14.00"), "2025-06-01")
    code, said = build(tmp_path, root, capsys, "vii2_fees")
    assert code == 0, said
    try:
        fees = load_module(tmp_path / "vii2_fees", "vii2_fees")
        assert fees.quote("hudson-lower", units=300, on=dt.date(2025, 5, 31)).total == D("4083.00")  # old (vii)
        assert fees.quote("hudson-lower", units=300, on=dt.date(2025, 6, 1)).total == D("4200.00")  # 300 x 14.00
        q = fees.quote("hudson-upper", units=300, on=dt.date(2025, 6, 1))  # Section 2 unchanged: 300 x 19.17, now
        assert q.total == D("5751.00") and q.lines[0].citation.endswith("(vii), as amended by vii2.txt")  # the act's text
    finally:
        sys.modules.pop("vii2_fees", None)
