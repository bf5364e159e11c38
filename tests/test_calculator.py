"""The site's calculator (JavaScript, generated data) gives the same cents as navlaw_fees.quote.

Run with Node.js (the machine's node); the same scripts run in the browser page."""

from __future__ import annotations

import datetime as dt
import json
import random
import shutil
import subprocess
from decimal import Decimal

import pytest

import navlaw_fees as nf
from navlaw.cli import main

from .conftest import CORPUS

RUNNER = """
globalThis.window = globalThis;
require(process.argv[2]);
const calc = require(process.argv[3]);
const cases = JSON.parse(require("fs").readFileSync(process.argv[4], "utf8"));
const out = cases.map((c) => {
  try { const q = calc.quote(c.route, c.units, c.on, c.options); return c.lines ? { total: q.total, lines: q.lines.map((l) => [l.description, l.amount, l.citation]) } : q.total; }
  catch (e) { return "error: " + e.message; }
});
console.log(JSON.stringify(out));
"""


def cases(n: int, seed: int = 4) -> list[dict[str, object]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        route = rnd.choice(nf.ROUTES)
        units = str(Decimal(rnd.randint(100, 250000)) / 100)
        on = (dt.date(2021, 6, 1) + dt.timedelta(days=rnd.randint(0, 7 * 365))).isoformat()
        opts: dict[str, object] = {}
        if route.startswith("hudson") and rnd.random() < 0.6:
            opts = rnd.choice([{"second_pilot": True}, {"shifting": True, "docking": "tug"},
                               {"stop_hours": str(rnd.choice([1, 3, 9]))}, {"detained_hours": "30"},
                               {"launch": "yonkers-pilot-station"}, {"cancellation": "under-2-hours"},
                               {"delay_hours": "1"}, {"ice_detention_hours": "25", "ice_second_pilot": True},
                               {"stop_hours": ["6", "9"]}, {"shifting": 2, "anchoring": 3},
                               {"delay_hours": ["0.5", "2", "12"]}])
            if rnd.random() < 0.15:
                opts = {"communication_fee": str(rnd.choice([0, 12, "35.505"]))}
            if route == "hudson-upper" and rnd.random() < 0.2:
                opts = {"launch": ["yonkers-pilot-station", "norrie-point-pilot-station"]}
        if route == "sandy-hook" and rnd.random() < 0.4:
            opts = {"capital_expense_fund_surcharge": str(rnd.choice([0, 125, "299.995", 300, 301]))}
        if route == "long-island-sound" and rnd.random() < 0.6:
            opts = rnd.choice([{"miles": "10"}, {"detention_hours": "3.5"}, {"carried_off_days": "2"},
                               {"miles": "30", "detention_hours": "1"}])
        out.append({"route": route, "units": units, "on": on, "options": opts})
    return out


def expected(c: dict[str, object]) -> str:
    opts = {k: (v if isinstance(v, bool) else v) for k, v in c["options"].items()}  # type: ignore[union-attr]
    try:
        return str(nf.quote(c["route"], units=c["units"], on=dt.date.fromisoformat(c["on"]), **opts).total)
    except nf.FeeError:
        return "error"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_calculator_gives_the_same_cents_as_the_fee_module(tmp_path):
    assert main(["build", "--corpus", str(CORPUS), "--out", str(tmp_path / "build"),
                 "--module", str(tmp_path / "fees")]) == 0
    assets = tmp_path / "build" / "site" / "assets"
    all_cases = cases(300)
    (tmp_path / "cases.json").write_text(json.dumps(all_cases))
    (tmp_path / "run.js").write_text(RUNNER)
    r = subprocess.run(["node", str(tmp_path / "run.js"), str(assets / "plans.js"), str(assets / "calculator.js"),
                        str(tmp_path / "cases.json")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    compared = 0
    for c, js in zip(all_cases, got):
        want = expected(c)
        if want == "error":
            assert js.startswith("error"), (c, js)
        else:
            assert js == want, (c, js, want)
            compared += 1
    assert compared >= 150  # at least 150 priced quotes agree to the cent (the rest: dates with no schedule)


def _run_js(tmp_path, all_cases):  # type: ignore[no-untyped-def]
    assert main(["build", "--corpus", str(CORPUS), "--out", str(tmp_path / "build"),
                 "--module", str(tmp_path / "fees")]) == 0
    assets = tmp_path / "build" / "site" / "assets"
    (tmp_path / "cases.json").write_text(json.dumps(all_cases))
    (tmp_path / "run.js").write_text(RUNNER)
    r = subprocess.run(["node", str(tmp_path / "run.js"), str(assets / "plans.js"), str(assets / "calculator.js"),
                        str(tmp_path / "cases.json")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_calculator_lines_say_what_the_module_lines_say(tmp_path):
    """Issue 30: each line of the calculator is the module's line, its working included (the units charged,
    the bracket and its rate, the percentage and hours): same words, same cents, same citation; a vessel
    whose measurements are not provided is charged the maximum, as ``measurements_provided=False``."""
    all_cases = [dict(c, lines=True) for c in cases(200, seed=9)]
    for route in nf.ROUTES:
        for on in ("2023-06-01", "2026-01-01", "2027-03-01"):
            all_cases.append({"route": route, "units": None, "on": on, "options": {}, "lines": True})
            all_cases.append({"route": route, "units": "3", "on": on, "options": {}, "lines": True})  # a minimum
    got = _run_js(tmp_path, all_cases)
    compared = unmeasured = 0
    for c, js in zip(all_cases, got):
        opts = dict(c["options"])  # type: ignore[arg-type]
        kw = {"measurements_provided": False} if c["units"] is None else {"units": c["units"]}
        try:
            q = nf.quote(c["route"], on=dt.date.fromisoformat(c["on"]), **kw, **opts)  # type: ignore[arg-type]
        except nf.FeeError:
            assert isinstance(js, str) and js.startswith("error"), (c, js)
            continue
        assert not isinstance(js, str), (c, js)
        want = [[ln.description, str(ln.amount), ln.citation] for ln in q.lines]
        assert js["lines"] == want, (c, js["lines"], want)
        assert js["total"] == str(q.total)
        compared += 1
        unmeasured += c["units"] is None
    assert compared >= 100 and unmeasured >= 2, (compared, unmeasured)
