"""The generated module's changelog for programmers (issue 33): api.json, CHANGES and README.md."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from decimal import Decimal as D

import navlaw_fees as nf
from navlaw.cli import main

from .conftest import ROOT
from .test_versions import corpus_with


def test_the_committed_module_carries_its_api_and_changes():
    module = ROOT / "navlaw_fees"
    api = json.loads((module / "api.json").read_text(encoding="utf-8"))
    assert sorted(api["routes"]) == sorted(nf.ROUTES)
    for route, r in api["routes"].items():
        assert r["options"] == list(nf.options(route))
        for day, units, total in r["quotes"]:  # the standard quotes are the module's own
            try:
                got = str(nf.quote(route, units=D(units), on=dt.date.fromisoformat(day)).total)
            except nf.FeeError:
                got = ""
            assert got == total, (route, day, units)
    changes = (module / "CHANGES").read_text(encoding="utf-8")
    readme = (module / "README.md").read_text(encoding="utf-8")
    assert changes.startswith("# Changes in navlaw_fees\n") and "## Changes\n" in readme
    assert changes.split("\n", 2)[2].strip().replace("\n## ", "\n### ") in readme  # its headings one level down


def test_a_build_that_changes_the_module_says_what_changed(tmp_path, capsys):
    root = corpus_with(tmp_path, "lis-rates-2028.txt")
    fees = tmp_path / "fees"
    shutil.copytree(ROOT / "navlaw_fees", fees, ignore=shutil.ignore_patterns("__pycache__"))  # the module it replaces
    args = ["build", "--no-site", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module", str(fees), "--no-cache"]
    assert main(args) == 0
    out = capsys.readouterr().out
    changes = (fees / "CHANGES").read_text(encoding="utf-8")
    old_version = json.loads((ROOT / "navlaw_fees" / "api.json").read_text(encoding="utf-8"))["version"]
    assert changes.startswith(f"# Changes in navlaw_fees\n\nFrom {old_version} to 2028.1.1+corpus.")
    assert ("- long-island-sound: added Nav. Law § 89-b(4)(b)(1) from 2028-01-01 (1 bracket(s); last: \"all vessels\": "
            "11.56 × PU)") in changes
    assert ("- long-island-sound: changed Nav. Law § 89-b(4)(b)(1) from 2027-01-01 (1 bracket(s); last: \"all vessels\": "
            "11.22 × PU) → Nav. Law § 89-b(4)(b)(1) 2027-01-01 to 2028-01-01") in changes
    # 11.22 → 11.56 per pilotage unit; 50 PU is charged on the minimum of 200
    assert ("- long-island-sound on 2028-01-01: 50 PU $2,244.00 → $2,312.00; 300 PU $3,366.00 → $3,468.00; "
            "1000 PU $5,610.00 → $5,780.00") in changes
    assert "## Routes\n- none added\n- none removed" in changes and "- no option added or removed" in changes
    assert changes.count("long-island-sound") == 3  # no other route's quotes differ
    assert "(the module's routes, options, schedules or quotes changed):" in out
    assert "    - long-island-sound on 2028-01-01: 50 PU $2,244.00 → $2,312.00" in out
    assert "### Base quotes that differ" in (fees / "README.md").read_text(encoding="utf-8")
    # built again from the same corpus: the same bytes, and nothing to announce
    before = {p.name: p.read_bytes() for p in fees.iterdir() if p.is_file()}
    assert main(args) == 0
    assert "CHANGES" not in capsys.readouterr().out
    assert {p.name: p.read_bytes() for p in fees.iterdir() if p.is_file()} == before
