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
from compiler.cli import main

from .conftest import CORPUS

RUNNER = """
globalThis.window = globalThis;
require(process.argv[2]);
const calc = require(process.argv[3]);
const cases = JSON.parse(require("fs").readFileSync(process.argv[4], "utf8"));
const out = cases.map((c) => {
  try { return calc.quote(c.route, c.units, c.on, c.options).total; }
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
