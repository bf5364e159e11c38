"""Options the law makes impossible together are a FeeError naming both; others go together on a named reading
(issue 33). Which options conflict is read from the tariffs (a fee instead of pilotage, a share of the pilotage
fee, a fee for an act of pilotage), never listed in code."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

import navlaw_fees as nf
from navlaw.cli import main
from navlaw.fees.plans import build_plans
from navlaw.fees.reference import reference_quote
from navlaw.runtime import FeeError as ReferenceFeeError
from navlaw.tariffs.routes import RouteTable

ON = dt.date(2026, 6, 1)


@pytest.mark.parametrize("kw,words", [
    (dict(dismissed=True, second_pilot=True),
     'dismissed and second_pilot cannot both be charged: 21 NYCRR § 55.2(g)(2) ("dismissed without rendering '
     'services") is charged instead of the pilotage fee, and Nav. Law § 89-a(4)(b)(1-a) charges 50% of that pilotage '
     'fee, none being rendered'),
    (dict(dismissed=True, ice_second_pilot=True), "dismissed and ice_second_pilot cannot both be charged"),
    (dict(dismissed=True, cancellation="under-2-hours"),
     'dismissed and cancellation cannot both be charged: 21 NYCRR § 55.2(g)(2) ("dismissed without rendering services") '
     'is charged instead of the pilotage fee, and so is 21 NYCRR § 55.2(h)(2) ("arrival/departure of a vessel is '
     'cancelled"): one call is not both'),
    (dict(dismissed=True, docking="tug"), "21 NYCRR § 55.2(d)(1) pays for docking"),
    (dict(cancellation="under-6-hours", shifting=1), "cancellation and shifting cannot both be charged"),
    (dict(dismissed=True, stop_hours=[6]), "pays for cargo stops"),
])
def test_impossible_options_are_an_error_naming_both(kw, words, corpus, tariffs):
    for route in ("hudson-upper", "hudson-lower"):
        with pytest.raises(nf.FeeError) as e:
            nf.quote(route, units=300, on=ON, **kw)
        assert words in str(e.value)
        plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
        with pytest.raises(ReferenceFeeError) as r:
            reference_quote(plans, route, units=300, on=ON, **kw)
        assert str(r.value) == str(e.value)


def test_an_option_not_used_does_not_conflict():
    assert nf.quote("hudson-upper", units=300, on=ON, dismissed=False, second_pilot=True).total == D("8626.50")
    assert nf.quote("hudson-upper", units=300, on=ON, dismissed=True, stop_hours=0).total == D("862.65")


def test_a_dismissal_and_a_late_arrival_are_charged_on_a_named_reading():
    q = nf.quote("hudson-upper", units=300, on=ON, dismissed=True, late_arrival_hours=3)
    assert [x.amount for x in q.lines] == [D("862.65"), D("862.65")]  # 15% instead of pilotage; 5% × 3 h
    assert ("late_arrival_hours: charged beside dismissed (21 NYCRR § 55.2(h)(3) charges for the vessel's waiting, "
            "notice or delay, not for pilotage rendered; a reading: the law does not say whether it stands with a fee "
            "charged instead of pilotage).") in q.notes


def test_navlaw_fee_says_which_options_conflict(capsys):
    code = main(["fee", "hudson-upper", "--units", "300", "--on", "2026-06-01", "--dismissed", "--second-pilot"])
    err = capsys.readouterr().err
    assert code == 1 and "dismissed and second_pilot cannot both be charged" in err


def test_the_calculator_refuses_the_same_combinations(tmp_path):
    """The site's calculator reads the same conflicts from its plan data: the same error, the same reading."""
    import json
    import shutil
    import subprocess

    from .conftest import CORPUS
    from .test_calculator import RUNNER

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    assert main(["build", "--no-cache", "--corpus", str(CORPUS), "--out", str(tmp_path / "build"),
                 "--module", str(tmp_path / "fees")]) == 0
    cases = [{"route": "hudson-upper", "units": "300", "on": "2026-06-01", "options": o}
             for o in ({"dismissed": True, "second_pilot": True}, {"cancellation": "under-2-hours", "docking": "tug"},
                       {"dismissed": True, "late_arrival_hours": "3"}, {"dismissed": False, "second_pilot": True})]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "run.js").write_text(RUNNER)
    assets = tmp_path / "build" / "site" / "assets"
    r = subprocess.run(["node", str(tmp_path / "run.js"), str(assets / "plans.js"), str(assets / "calculator.js"),
                        str(tmp_path / "cases.json")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got[0].startswith("error") and "dismissed and second_pilot cannot both be charged" in got[0]
    assert got[1].startswith("error") and "cancellation and docking cannot both be charged" in got[1]
    assert got[2:] == ["1725.30", "8626.50"]  # as navlaw_fees: 862.65 + 862.65; 5,751.00 + 2,875.50
