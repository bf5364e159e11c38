"""Real New York texts navlaw was not written against (../shared/outside/, read in place, never copied):
each is read or refused with a clear message, never a traceback and never silent on what navlaw did
not understand (issue 15, item 3; the rest of issue 15 — LBDC records as documents, published layouts
— is not built yet, and the warnings below say so to the user)."""

from __future__ import annotations

import pytest

from navlaw.cli import main

from .conftest import ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
pytestmark = pytest.mark.skipif(not OUTSIDE.is_dir(), reason="../shared/outside/ is not beside the repository")


def parse(capsys, name: str) -> tuple[int, str, str]:
    code = main(["parse", str(OUTSIDE / name)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(p.name for p in OUTSIDE.glob("*") if p.name != "README.md")
                         if OUTSIDE.is_dir() else [])
def test_every_outside_text_is_read_or_refused_without_a_traceback_and_says_what_it_found(capsys, name):
    code, out, err = parse(capsys, name)
    assert "Traceback" not in out + err
    last = err.strip().splitlines()[-1]
    refused = ": error: the file is " in err
    assert refused or (last.startswith(str(OUTSIDE / name) + ": ") and " section(s), " in last), last
    if code == 0 and not refused:  # exit 0 only with a summary, and a warning wherever the layout is not law text
        assert " provision(s)" in last


def test_json_is_refused_naming_the_fields_and_what_to_do(capsys):
    code, out, err = parse(capsys, "ol.senate-site-law_dump-ABP.json")
    assert code == 1 and out == ""
    assert "ol.senate-site-law_dump-ABP.json:1:1: error: the file is JSON, not law text" in err
    assert "extract the law text from the field that holds it (e.g. each node's field_text, in order)" in err


def test_lbdc_xml_bill_text_is_refused_as_markup(capsys):
    code, _, err = parse(capsys, "ol.BILLTEXT-A05464-2017.xml")
    assert code == 1 and "error: the file is HTML or XML, not law text" in err and "the <PRE> block" in err


@pytest.mark.parametrize("name", ["nylg.2024-S8469A.md", "derived.S8469A-2024-fulltext.txt", "ol.BudgetBill-A3007A-2017.txt"])
def test_a_bill_given_as_law_text_is_a_warning_that_says_kind_act(capsys, name):
    _, _, err = parse(capsys, name)
    assert "warning: this looks like a bill or an amending act, not the text of the law" in err
    assert 'give it kind = "act" in corpus/manifest.toml' in err


def test_an_lbdc_dump_says_it_was_read_as_one(capsys):
    _, _, err = parse(capsys, "ol.DATABASE.LAW.ABC.head.txt")
    assert "ol.DATABASE.LAW.ABC.head.txt:1:1: info: read as an LBDC law dump: 8 record(s) (`..SO DOC`)" in err


def test_the_cp850_bytes_and_the_o_tilde_text_give_one_tree(capsys):
    """derived.…cp850.txt is ol.DATABASE.LAW.ABC.2020.txt with õ written back as byte 0xF5: LBDC's §."""
    code_a, out_a, err_a = parse(capsys, "derived.DATABASE.LAW.ABC.2020.cp850.txt")
    code_b, out_b, _ = parse(capsys, "ol.DATABASE.LAW.ABC.2020.txt")
    assert out_a.split("\n", 1)[1] == out_b.split("\n", 1)[1]
    assert "info: decoded as CP850" in err_a
    assert "  § 1. Short title   <1>" in out_b and "õ" not in out_b  # "õ 1." read as "§ 1."


def test_double_letter_subdivisions_continue_the_list(capsys):
    """ABC Law § 3 numbers its definitions 12, 12-a, 12-aa, 12-aaa, 13 …: no traceback (it was one), and
    12-aa is a sibling of 12-a, not a gap or a child."""
    code, out, err = parse(capsys, "ol.DATABASE.LAW.ABC.2020.txt")
    lines = out.splitlines()
    aa = next(l for l in lines if l.lstrip().startswith("12-aa."))
    a = next(l for l in lines if l.lstrip().startswith("12-a."))
    assert len(aa) - len(aa.lstrip()) == len(a) - len(a.lstrip())
    assert "label 12-aa. skips ahead" not in err
