"""q.trace(): each line's working reproduces its amount, and every word it quotes is where it says (issue 33)."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import ROUND_HALF_UP, Decimal as D

import pytest

import navlaw_fees as nf
from navlaw.cli import main

from .conftest import CORPUS

ON = dt.date(2026, 6, 1)
# quotes over every route, several dates and the options that make each kind of line
CASES = [
    ("sandy-hook", dict(units=300, on=ON)),
    ("sandy-hook", dict(units=D("24.99"), on=dt.date(2024, 6, 1))),
    ("sandy-hook", dict(units=2000, on=dt.date(2027, 3, 1))),
    ("sandy-hook", dict(units=300, on=dt.date(2004, 6, 1))),
    ("sandy-hook", dict(length_ft="600.5", breadth_ft=90, depth_ft=40, on=ON, capital_expense_fund_surcharge="299.995")),
    ("hudson-upper", dict(units=300, on=ON, second_pilot=True, docking="tug", undocking="thruster", shifting=2,
                          anchoring=True, stop_hours=[6, 9], launch=["yonkers-pilot-station", "norrie-point-pilot-station"])),
    ("hudson-upper", dict(units=40, on=ON, station_closed="yonkers", ice_detention_hours=30, delay_hours="2.5",
                          detained_hours=3, standby_hours=1, departure_delay_hours=2, no_notice=True)),
    ("hudson-upper", dict(on=ON, measurements_provided=False, cancellation="under-2-hours")),
    ("hudson-upper", dict(units=300, on=ON, dismissed=True)),
    ("hudson-lower", dict(units=D("77.7"), on=ON, late_arrival_hours=3, late_order=True, ice_second_pilot=True)),
    ("hudson-upper", dict(units=300, on=dt.date(2004, 6, 1))),
    ("long-island-sound", dict(units=350, on=ON)),
    ("long-island-sound", dict(units=150, on=ON, miles=10, detention_hours="3.5", carried_off_days=2)),
    ("long-island-sound", dict(units=80, on=dt.date(2004, 6, 1))),
]


def _quote(route, kw):
    try:
        return nf.quote(route, **kw)
    except nf.FeeError as e:  # an option the corpus does not price on that route: the case is wrong, say so
        pytest.fail(f"{route} {kw}: {e}")


def evaluate(expression: str) -> D:
    """The exact value of a trace's expression: numbers, + − × /, parentheses (nothing else is allowed)."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[-+×*/()]|\S", expression)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom() -> D:
        t = take()
        if t == "(":
            v = expr()
            assert take() == ")"
            return v
        assert re.fullmatch(r"\d+(?:\.\d+)?", t), f"not a number: {t!r} in {expression!r}"
        return D(t)

    def term() -> D:
        v = atom()
        while peek() in ("×", "*", "/"):
            op, rhs = take(), atom()
            v = v / rhs if op == "/" else v * rhs
        return v

    def expr() -> D:
        v = term()
        while peek() in ("+", "-"):
            op, rhs = take(), term()
            v = v + rhs if op == "+" else v - rhs
        return v

    value = expr()
    assert pos == len(tokens), f"left over in {expression!r}: {tokens[pos:]}"
    return value


def _corpus_file(name: str) -> str:
    with open(CORPUS / name, encoding="utf-8", newline="") as f:
        return f.read()


@pytest.mark.parametrize("route,kw", CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CASES)])
def test_a_trace_reproduces_the_total_from_its_steps(route, kw):
    q = _quote(route, kw)
    t = q.trace()
    assert [x.amount for x in t.lines] == [x.amount for x in q.lines] and t.total == q.total
    recomputed = D("0.00")
    for line in t.lines:
        assert line.where is not None and line.steps, line.description  # every line of the module is traced
        exact = evaluate(line.expression)
        assert exact == line.exact, (line.description, line.expression)
        amount = exact.quantize(D("0.01"), rounding=ROUND_HALF_UP)
        assert amount == line.amount, (line.description, line.expression, exact)
        recomputed += amount
        # the numbers of the law the line's arithmetic uses are the numbers its words were read as
        used = {D(n) for n in re.findall(r"\d+(?:\.\d+)?", line.expression)}
        for w in line.words:
            if w.what in ("amount", "rate per pilotage unit", "percentage", "amount per hour", "amount per day"):
                assert D(w.value) in used, (line.description, w, line.expression)
    assert recomputed == q.total


@pytest.mark.parametrize("route,kw", CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CASES)])
def test_every_quoted_word_is_found_at_its_file_and_line(route, kw):
    t = _quote(route, kw).trace()
    words = [w for line in t.lines for w in line.words]
    assert words
    for w in words:
        text = _corpus_file(w.file)
        lines = text.splitlines(keepends=True)
        assert 1 <= w.line <= len(lines), w
        at = "".join(lines[w.line - 1:])[w.column - 1:]
        assert at.startswith(w.words), (w, at[:80])
        if w.value and w.what != "fraction":
            assert re.sub(r"\D", "", w.value.rstrip("0").rstrip(".")) != ""  # a number, read from those words


def test_a_trace_names_the_provision_its_version_and_its_pages():
    from navlaw.site.render import anchor, section_slug
    from navlaw.fees.trace_gen import site_anchor, site_slug
    t = nf.quote("long-island-sound", units=350, on=ON).trace()
    (line,) = t.lines
    assert line.where is not None
    assert (line.where.citation, line.where.start, line.where.end) == ("Nav. Law § 89-b(4)(b)(1)", "2026-01-01", "2027-01-01")
    assert line.where.version == "2022-07-21"  # the text of § 89-b the rate is read from (file 089-b.2022.txt)
    assert line.where.link == "law/89-b/#p-89-b-4-b-1" and line.where.history == "history/89-b/#v2022-07-21"
    rate = [w for w in line.words if w.what == "amount"]
    assert [(w.value, w.file) for w in rate] == [("10.89", "089-b.2022.txt")]
    assert rate[0].words == "ten\\ndollars and eighty-nine cents"  # the text's own characters: a literal "\\n" there
    for pid in ("89-b/4/b/1", "21nycrr/55.2/d/3", "88/4/b/1/ii/1/A/v", "45-aaaa*2/1"):
        from navlaw.model.nodes import section_of
        assert site_anchor(pid) == anchor(pid) and site_slug(section_of(pid)) == section_slug(section_of(pid))


def test_a_trace_says_how_the_units_were_computed_and_which_bracket_applies():
    t = nf.quote("sandy-hook", length_ft="600.5", breadth_ft=90, depth_ft=40, on=ON).trace()
    assert t.units_steps == ("pilotage units = length × breadth × depth / 10,000 = 600.5 × 90 × 40 / 10000 = 216.18 "
                             "(exact, not rounded)",)
    base = t.lines[0]
    assert base.steps[0] == 'bracket "100 to 499.99" applies to 216.18 PU (100 ≤ 216.18 < 500)'
    assert base.expression == "13.19 × 216.18" and base.exact == D("2851.4142") and base.amount == D("2851.41")
    assert base.words[0].what == "bracket" and base.words[0].words == "100 to 499.99"
    # the minimum applied is said, with the words it was read from
    lis = nf.quote("long-island-sound", units=80, on=ON).trace().lines[0]
    assert any("the vessel's 80 pilotage units are charged as 200" in s for s in lis.steps)
    assert [w.value for w in lis.words if w.what == "minimum units"] == ["200"]


def test_a_trace_says_when_the_law_charges_the_maximum_for_want_of_measurements():
    t = nf.quote("hudson-upper", on=ON, measurements_provided=False).trace()
    assert t.units_steps == ("measurements not provided: 500 pilotage units, the schedule's maximum, charged as "
                             "Nav. Law § 89-a(4)(d) says",)
    assert [(w.what, w.value) for w in t.lines[0].words if w.what == "maximum units"] == [("maximum units", "500")]
    assert nf.quote("hudson-upper", units=500, on=ON).trace().units_steps == ("500 pilotage units, as given",)


def test_trace_text_and_json_are_deterministic():
    kw = dict(units=300, on=ON, second_pilot=True, stop_hours=[6, 9])
    a, b = nf.quote("hudson-upper", **kw).trace(), nf.quote("hudson-upper", **kw).trace()
    assert a.text() == b.text() and json.dumps(a.to_json()) == json.dumps(b.to_json()) and a.as_dict() == a.to_json()
    data = json.loads(json.dumps(a.to_json()))
    assert data["total"] == "12364.65" and data["lines"][0]["expression"] == "19.17 × 300"
    assert data["lines"][0]["provision"]["link"] == "law/89-a/#p-89-a-4-b-1-vii"
    text = a.text()
    assert "= 19.17 × 300 = 5751.00 → $5,751.00" in text and '(089-a.4-7-8.txt:15:' in text
    assert "\nTotal: 5751.00 + 2875.50 + 1725.30 + 2012.85 = $12,364.65\n" in text


def test_a_trace_leaves_the_quote_as_it_was():
    by_units = nf.quote("sandy-hook", units=D("216.18"), on=ON)
    by_dims = nf.quote("sandy-hook", length_ft="600.5", breadth_ft=90, depth_ft=40, on=ON)
    assert by_units == by_dims and by_dims.dimensions == (D("600.5"), D(90), D(40)) and by_units.dimensions is None
    description, amount, citation = by_units.lines[0]  # a line is still three things
    assert "work" not in repr(by_units.lines[0])


def test_navlaw_fee_trace(capsys):
    code = main(["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--trace"])
    out = capsys.readouterr().out
    assert code == 0
    assert "= 10.89 × 350 = 3811.50 → $3,811.50" in out and '"ten\\ndollars and eighty-nine cents" (089-b.2022.txt:3:' in out
    code = main(["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--trace", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["trace"]["lines"][0]["exact"] == "3811.50"


WORKING_RUNNER = """
globalThis.window = globalThis;
require(process.argv[2]);
const calc = require(process.argv[3]);
const cases = JSON.parse(require("fs").readFileSync(process.argv[4], "utf8"));
console.log(JSON.stringify(cases.map((c) => calc.quote(c.route, c.units, c.on, c.options)),
                           (k, v) => (typeof v === "bigint" ? v.toString() : v)));
"""


def test_the_calculator_shows_working_that_reproduces_each_line(tmp_path):
    """The site's calculator gives each line its working ("Show working"): an expression of numbers whose
    exact value rounds to the line, as the module's trace does."""
    import shutil
    import subprocess

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    assert main(["build", "--no-cache", "--corpus", str(CORPUS), "--out", str(tmp_path / "build"),
                 "--module", str(tmp_path / "fees")]) == 0
    cases = [{"route": r, "units": str(kw.get("units", "300")), "on": kw["on"].isoformat(),
              "options": {k: (str(v) if isinstance(v, D) else v) for k, v in kw.items()
                          if k not in ("units", "on", "length_ft", "breadth_ft", "depth_ft", "measurements_provided")}}
             for r, kw in CASES if kw.get("measurements_provided", True)]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "run.js").write_text(WORKING_RUNNER)
    assets = tmp_path / "build" / "site" / "assets"
    r = subprocess.run(["node", str(tmp_path / "run.js"), str(assets / "plans.js"), str(assets / "calculator.js"),
                        str(tmp_path / "cases.json")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    checked = 0
    for c, q in zip(cases, json.loads(r.stdout)):
        want = nf.quote(c["route"], units=D(c["units"]), on=dt.date.fromisoformat(c["on"]), **c["options"])
        assert q["total"] == str(want.total), c
        for line in q["lines"]:
            exact = evaluate(line["working"]["expression"])
            assert exact.quantize(D("0.01"), rounding=ROUND_HALF_UP) == D(line["amount"]), (c, line)
            if "/" not in line["working"]["exact"]:
                assert D(line["working"]["exact"]) == exact, (c, line)
            checked += 1
    assert checked >= 30
    ui = (tmp_path / "build" / "site" / "assets" / "calculator-ui.js").read_text(encoding="utf-8")
    assert "<summary>Show working</summary>" in ui


def test_every_trace_link_is_a_page_and_anchor_of_the_site():
    """Each fee's provision link and version link (navlaw_fees' Where constants) lead to a real anchor."""
    from navlaw_fees import _schedules

    from navlaw.build import compile_law, site_pages
    pages = site_pages(compile_law(str(CORPUS)), ON)
    wheres = [v for k, v in vars(_schedules).items() if k.startswith("_WHERE_")]
    assert len(wheres) > 20
    for w in wheres:
        page, anchor = w.link.split("/#")
        assert f'id="{anchor}"' in pages[page + ".md"], w.link
        if w.history:  # a section with one version (21 NYCRR § 55.2 here) has no history page
            hist, _, version = w.history.partition("/#")
            assert f"{{ #{version} }}" in pages[hist + ".md"], w.history
        else:
            assert f"history/{page.split('/')[1]}.md" not in pages and w.version, w
    assert sum(1 for w in wheres if w.history) > 10
