"""The proof that every vessel size has exactly one rate on every date the corpus establishes (issue 33)."""

from __future__ import annotations

import shutil
from decimal import Decimal as D
from pathlib import Path

import pytest

from navlaw.build import compile_law
from navlaw.cli import main
from navlaw.tariffs import complete
from navlaw.tariffs.routes import RouteTable

from .conftest import CORPUS

TABLE = "088.fragments.2022.txt"


def test_the_corpus_is_complete_for_every_route_and_date(corpus, tariffs, tariff_findings):
    routes = RouteTable.of(corpus.manifest).ids()
    proofs = {r: complete.prove(tariffs, r) for r in routes}
    assert all(p.ok for p in proofs.values()), {r: p.summary() for r, p in proofs.items()}
    assert proofs["long-island-sound"].summary() == (
        "complete 2002-07-01 to 2006-01-01 and from 2022-07-21: every vessel size (0 to 100,000 pilotage units) "
        "has exactly one rate")
    assert proofs["hudson-lower"].summary().startswith("complete from 2022-01-01: every vessel size")
    # § 88's tables (iv) and (vi) end "100 to 499.99" at 12.81 × 500 = $6,405 and start "500 to 1649.99" at
    # $6,403: the law's own figures, named (a warning), not a failure of completeness
    sandy = proofs["sandy-hook"]
    assert sandy.summary().startswith("complete 2002-07-01 to 2006-01-01 and from 2023-01-01: every vessel size")
    assert "2 fall(s) of the fee as the units grow, as the law's figures give them" in sandy.summary()
    # $2: the rounding of a table's constants, a note (lint's tariff-jump already says it), not a lint finding here
    assert [d for d in tariff_findings if d.code in ("tariff-incomplete", "tariff-decreasing")] == []
    falls = [p for s in sandy.spans for p in s.problems]
    assert [p.severity.name for p in falls] == ["INFO", "INFO"]
    assert falls[0].message == ('the fee falls at 500 pilotage units in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(iv): "100 to '
                                '499.99" gives $6,405.00 there, "500 to 1649.99" $6,403.00 (as the law\'s figures give it)')
    # every established range has exactly one schedule, and the ranges follow the schedules' own dates
    spans = proofs["long-island-sound"].spans
    assert [(str(s.start), str(s.end) if s.end else None) for s in spans][-2:] == [
        ("2026-01-01", "2027-01-01"), ("2027-01-01", None)]
    assert all(len(s.schedules) == 1 for p in proofs.values() for s in p.spans)


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    text = (copy / TABLE).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (copy / TABLE).write_text(text.replace(old, new), encoding="utf-8")
    return copy


def _incomplete(copy: Path):
    law = compile_law(str(copy))
    return [d for d in law.diagnostics if d.code == "tariff-incomplete"], law


def test_a_gap_in_a_table_fails_naming_the_boundary(tmp_path, capsys):
    # table (ii) of § 88 (in force 2023; (iii)–(vi) are amended by A.8982-A of 2024, whose old text must match
    # the law) with its "25 to 49.99 | $970" row starting at 30 (the manifest gives the fragments by line, so
    # the lines stay)
    copy = _copy_with(tmp_path, "0 to 24.99 | $824 |\n25 to 49.99 | $970 |\n", "0 to 24.99 | $824 |\n30 to 49.99 | $970 |\n")
    found, law = _incomplete(copy)
    assert len(found) == 1, [d.message for d in found]
    d = found[0]
    assert d.severity.name == "ERROR"
    # "0 to 24.99" is [0, 24.99] now that the next row does not start at 25
    assert d.message == ('sandy-hook: no rate for 24.99 < pilotage units < 30 in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(ii) '
                         '(2023-01-01 on): the brackets leave a gap above 24.99 ("0 to 24.99" ends at 24.99 and '
                         '"30 to 49.99" starts at 30)')
    assert (Path(d.file).name, d.line, d.column) == (TABLE, 10, 1) and d.source_line.startswith("30 to 49.99")
    proof = complete.prove(law.tariffs, "sandy-hook")
    assert not proof.ok and proof.summary().startswith("not complete 2023-01-01 to 2024-01-01: no rate for 24.99 < pilotage units < 30")
    assert "(complete 2002-07-01 to 2006-01-01 and from 2024-01-01)" in proof.summary()
    code = main(["lint", "--corpus", str(copy)])
    out = capsys.readouterr().out
    assert code == 1 and f"{TABLE}:10:1: error: sandy-hook: no rate for 24.99 < pilotage units < 30" in out


def test_a_table_that_stops_short_of_the_largest_vessel_fails(tmp_path):
    # the last row closed at 1999.99 (as written: no next row makes it half-open)
    copy = _copy_with(tmp_path, "1650 and up | $((P.U. - 1650) x 3.85) + 7986 |\n",
                      "1650 to 1999.99 | $((P.U. - 1650) x 3.85) + 7986 |\n")
    found, _ = _incomplete(copy)
    assert [d.message.split(":")[1].strip() for d in found] == [
        "no rate for 1999.99 < pilotage units ≤ 100000 in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(ii) (2023-01-01 on)"]


def test_two_rates_for_one_size_fail_naming_both_brackets(tmp_path):
    # "25 to 49.99" is [25, 49.99] here: the next row does not start at 50 ("25 to 49.99" is [25, 50) only then)
    copy = _copy_with(tmp_path, "25 to 49.99 | $970 |\n50 to 99.99 | $1198 |", "25 to 49.99 | $970 |\n45 to 99.99 | $1198 |")
    found, _ = _incomplete(copy)
    assert [d.message for d in found] == [
        'sandy-hook: two rates for 45 ≤ pilotage units ≤ 49.99 in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(ii) (2023-01-01 on): '
        '"25 to 49.99" and "45 to 99.99" both include it']


@pytest.mark.parametrize("units", ["0", "24.99", "25", "499.995", "1650", "100000"])
def test_the_proof_agrees_with_the_fee_module_at_the_boundaries(units):
    """Where the proof says a schedule is complete, the module quotes every boundary (and nothing fails)."""
    import datetime as dt

    import navlaw_fees as nf
    for on in (dt.date(2004, 6, 1), dt.date(2024, 6, 1), dt.date(2027, 6, 1)):
        q = nf.quote("sandy-hook", units=D(units) if D(units) > 0 else D("0.01"), on=on)
        assert q.total > 0


def test_the_tariffs_page_says_each_route_is_complete():
    import datetime as dt

    from navlaw.build import site_pages
    page = site_pages(compile_law(str(CORPUS)), dt.date(2026, 6, 1))["tariffs.md"]
    assert ('<p class="complete">Complete 2002-07-01 to 2006-01-01 and from 2022-07-21: every vessel size (0 to 100,000 '
            'pilotage units) has exactly one rate (proven') in page
    assert page.count('<p class="complete">Complete ') == 4 and "incomplete" not in page


def test_a_fee_that_falls_as_the_units_grow_is_named(tmp_path):
    copy = _copy_with(tmp_path, "50 to 99.99 | $1198 |", "50 to 99.99 | $134 |")  # table (ii): $970 then $134
    law = compile_law(str(copy))
    falls = [d for d in law.diagnostics if d.code == "tariff-decreasing"]
    assert [(d.severity.name, Path(d.file).name, d.line) for d in falls] == [("WARNING", TABLE, 11)]
    assert 'the fee falls at 50 pilotage units in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(ii): "25 to 49.99" gives $970.00 ' \
           'there, "50 to 99.99" $134.00' in falls[0].message
    assert complete.prove(law.tariffs, "sandy-hook").ok  # a fall is not a gap: every size still has one rate
