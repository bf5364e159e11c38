"""The command line: outputs, exit codes, and one clear diagnostic (never a traceback) for bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS, ROOT


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_json_nodes_carry_the_contract_keys(capsys):
    code, out, err = run(capsys, "parse", str(CORPUS / "089-b.2022.txt"), "--format", "json")
    assert code == 0
    doc = json.loads(out)["document"]
    section = next(c for c in doc["children"] if c["kind"] == "section")
    for key in ("id", "kind", "label", "heading", "text", "line", "column", "children"):
        assert key in section
    assert section["id"] == "89-b"
    assert section["heading"] == "Pilotage on Long Island Sound and Block Island Sound; rates"


def test_parse_text_outline(capsys):
    code, out, _ = run(capsys, "parse", str(CORPUS / "089-a.4-7-8.txt"))
    assert code == 0
    assert "\n  (a) Every foreign vessel" in out
    assert "\n    (1-c)\n      (i) In addition to the base pilotage charge" in out


def test_show_section_from_corpus(capsys):
    code, out, _ = run(capsys, "show", "89-b", "--corpus", str(CORPUS), "--format", "json", "--on", "2026-06-01")
    assert code == 0
    data = json.loads(out)
    assert data["section"]["id"] == "89-b"
    assert data["sources"] == [{"id": "89-b", "file": "089-b.2022.txt", "from": "2022-07-21",
                                "note": "effective 2022-07-21 (inferred; L.2022, ch. 427 (signed 2022-07-21))"}]
    b2 = data["section"]["children"][3]["children"][1]["children"][1]
    assert b2["id"] == "89-b/4/b/2" and b2["text"].startswith("A minimum charge calculated on two hundred")


def test_show_partial_text_replaces_only_what_it_covers(capsys):
    code, out, _ = run(capsys, "show", "89-a", "--corpus", str(CORPUS), "--format", "json", "--on", "2026-06-01")
    data = json.loads(out)
    ids = [c["id"] for c in data["section"]["children"]]
    assert ids == ["89-a/1", "89-a/2", "89-a/3", "89-a/4", "89-a/7", "89-a/8"]
    sub4 = data["section"]["children"][3]
    assert sub4["line"] == 1  # subdivision 4 now comes from the newer file


def test_show_unknown_section(capsys):
    code, _, err = run(capsys, "show", "999", "--corpus", str(CORPUS))
    assert code == 1 and "no section '999'" in err


def test_lint_corpus(capsys):
    code, out, _ = run(capsys, "lint", "--corpus", str(CORPUS))
    assert code == 0
    assert "nav-law.consolidated.txt:324:1: warning: section 74 appears 2 times" in out
    assert "\n      ｧ 74. Service of summons" in out and "\n      ^" in out
    assert out.rstrip().endswith("note(s)")


BAD_INPUTS = {
    "empty": (b"", "the file is empty"),
    "blank": (b"  \n\n", "holds only white space"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "the file is binary"),
    "latin1": ("§ 88. Pilotage.\n1. Every vessel.\n".encode("latin-1"), "not UTF-8"),
    "stray-control": (b"\xc2\xa7 5. Test.\n1. Good.\n2. Bad \x1b line.\n", "the grammar cannot place this line"),
    "malformed-row": (b"\xc2\xa7 88. Rates.\n(b) Scale:\nPILOTAGE UNITS\tFACTOR\tADJUSTMENT\n0 to 24.99\t0\t+455\n"
                      b"25 to 49.99\t+568\n", "malformed table row: 2 cell(s) where the table has 3"),
    "label-backwards": (b"\xc2\xa7 9. Test.\n(a) first.\n(c) third.\n(b) second.\n", "label (b) is out of sequence"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_one_clear_diagnostic_exit_1(case, tmp_path, capsys):
    data, expected = BAD_INPUTS[case]
    f = tmp_path / f"{case}.txt"
    f.write_bytes(data)
    code, out, err = run(capsys, "parse", str(f))
    assert code == 1
    errors = [l for l in err.splitlines() if ": error: " in l]
    assert len(errors) == 1, err
    assert expected in errors[0]
    assert errors[0].startswith(str(f))
    assert "Traceback" not in err + out


def test_cp850_as_lbdc_sends_it_is_decoded_and_said(tmp_path, capsys):
    """Issue 15: LBDC law files come in CP850, where § is byte 0xF5; navlaw reads them (and says so)
    instead of refusing them. Latin-1 with § as 0xA7 is still refused with a hint."""
    f = tmp_path / "lbdc.txt"
    f.write_bytes("§ 88. Pilotage.\n1. Every vessel.\n".encode("cp850"))
    code, out, err = run(capsys, "parse", str(f))
    assert code == 0
    assert f"{f}:1:1: info: decoded as CP850, the encoding of LBDC law files (byte 0xF5 is §)" in err
    assert "§ 88. Pilotage" in out and "1. Every vessel." in out
    g = tmp_path / "latin.txt"
    g.write_bytes("§ 88. Pilotage.\n1. Every vessel.\n".encode("latin-1"))
    code, _, err = run(capsys, "parse", str(g))
    assert code == 1 and "not UTF-8" in err and "^" in err


def test_missing_file_and_usage(tmp_path, capsys):
    code, _, err = run(capsys, "parse", str(tmp_path / "nope.txt"))
    assert code == 1 and "no such file" in err
    with pytest.raises(SystemExit) as exc:
        main(["parse"])
    assert exc.value.code == 2


def corpus_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "corpus"
    shutil.copytree(CORPUS, dst)
    return dst


@pytest.mark.parametrize("edit,expected,marker", [
    (('file = "089-b.2022.txt"', 'file = "089-b.2099.txt"'), "'089-b.2099.txt' named here does not exist", "2099"),
    (("effective = 2022-07-21\nbecame_law", 'effective = "July 2022"\nbecame_law'), "effective must be a date", "July 2022"),
    (('kind = "proposed-rule"', 'kind = "notice"'), "unknown kind 'notice'", "notice"),
    (('covers = ["89-b"]', 'covers = ["89-z"]'), "said to cover '89-z', but its text has no such provision", "89-z"),
    (('status = "adopted"', 'status = "adopted"\ncolour = "red"'), "unknown key 'colour'", "colour"),
])
def test_manifest_errors_point_at_the_manifest_line(tmp_path, capsys, edit, expected, marker):
    root = corpus_copy(tmp_path)
    m = root / "manifest.toml"
    text = m.read_text()
    assert edit[0] in text
    text = text.replace(edit[0], edit[1], 1)
    m.write_text(text)
    line = next(k + 1 for k, l in enumerate(text.split("\n")) if marker in l)
    code, out, err = run(capsys, "lint", "--corpus", str(root))
    assert code == 1
    shown = out + err
    hit = [l for l in shown.splitlines() if expected in l]
    assert hit, shown
    assert hit[0].startswith(f"{m}:{line}:")


def test_console_script_runs_as_a_new_user_would(tmp_path):
    exe = Path(sys.executable).parent / "navlaw"
    out = tmp_path / "out"
    r = subprocess.run([str(exe), "build", "--corpus", str(CORPUS), "--out", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    tree = json.loads((out / "tree" / "089-b.2022.txt.json").read_text())
    assert tree["file"].endswith("089-b.2022.txt")
    r = subprocess.run([str(exe), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "build" in r.stdout
