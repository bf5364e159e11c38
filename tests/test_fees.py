"""The generated fee module navlaw_fees: hand-checked quotes, bad input, freshness, typing, the CLI.

Each expected amount has its arithmetic written out and the provision it comes from; a person can
check it against the statute text in corpus/.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from decimal import Decimal

import pytest

import navlaw_fees as nf
from navlaw.build import Result, fee_module
from navlaw.cli import main
from navlaw.tariffs import tariffs_and_lint

from .conftest import CORPUS, ROOT

D = Decimal
JUNE_2026 = dt.date(2026, 6, 1)


def amounts(q):
    return [(line.amount, line.citation) for line in q.lines]


def test_api_surface():
    assert nf.ROUTES == ("sandy-hook", "hudson-lower", "hudson-upper", "long-island-sound")
    assert issubclass(nf.FeeError, ValueError)
    assert nf.pilotage_units(700, 100, 50) == D(350)  # 700 × 100 × 50 / 10,000
    assert nf.pilotage_units("600.5", "90", "40") == D("216.18")  # 600.5 × 90 × 40 / 10,000, unrounded


def test_long_island_sound_350_units():
    # § 89-b(4)(b)(1): from January first 2026 until January first 2027, $10.89 per unit.
    # 350 × 10.89 = 3,811.50
    q = nf.quote("long-island-sound", units=D("350"), on=JUNE_2026)
    assert q.total == D("3811.50")
    assert amounts(q) == [(D("3811.50"), "Nav. Law § 89-b(4)(b)(1)")]


def test_long_island_sound_minimum_200_units():
    # § 89-b(4)(b)(2): a minimum charge calculated on 200 units. 150 → 200 × 10.89 = 2,178.00
    q = nf.quote("long-island-sound", units=150, on=JUNE_2026)
    assert q.total == D("2178.00")
    assert any("minimum" in n for n in q.notes)


def test_long_island_sound_year_boundaries():
    # 2022-07-21 (the paragraph's effective date, manifest anchor) → 8.86; 2023 → 9.97; 2027 → 11.22
    assert nf.quote("long-island-sound", units=300, on=dt.date(2022, 7, 21)).total == D("2658.00")  # 300 × 8.86
    assert nf.quote("long-island-sound", units=300, on=dt.date(2022, 12, 31)).total == D("2658.00")
    assert nf.quote("long-island-sound", units=300, on=dt.date(2023, 1, 1)).total == D("2991.00")  # 300 × 9.97
    assert nf.quote("long-island-sound", units=900, on=dt.date(2027, 1, 1)).total == D("5610.00")  # 500 × 11.22


def test_long_island_sound_options():
    # (4) under 25 miles: two-thirds of the statutory rate: 2/3 × 300 × 10.89 = 2,178.00
    # (5) detained 3.5 hours (more than two): 4 hours or fraction × $25 = 100.00
    # (6) carried off 2 days × $200 = 400.00
    q = nf.quote("long-island-sound", units=300, on=JUNE_2026, miles=10, detention_hours=D("3.5"), carried_off_days=2)
    assert amounts(q) == [(D("2178.00"), "Nav. Law § 89-b(4)(b)(4)"), (D("100.00"), "Nav. Law § 89-b(4)(b)(5)"),
                          (D("400.00"), "Nav. Law § 89-b(4)(b)(6)")]
    # 25 miles or more: the full rate; two hours of detention: nothing (only "more than two hours" is paid)
    q = nf.quote("long-island-sound", units=300, on=JUNE_2026, miles=25, detention_hours=2)
    assert amounts(q) == [(D("3267.00"), "Nav. Law § 89-b(4)(b)(1)")]  # 300 × 10.89


def test_sandy_hook_2026_table_300_units():
    # § 88(4)(b)(1)(ii)(1)(A)(v) (2026): 300 × 13.19 = 3,957.00; plus 7.5% (§ 88(4)(b)(1)(ii)(1)(A)):
    # 3,957.00 × 0.075 = 296.775 → 296.78; total 4,253.78
    q = nf.quote("sandy-hook", units=300, on=JUNE_2026)
    # (v) as A.8982-A of 2024 amended it (the 1650-and-up multiplier only): the rows below 1650 are the same
    assert amounts(q) == [(D("3957.00"), "Nav. Law § 88(4)(b)(1)(ii)(1)(A)(v), as amended by A.8982-A of 2024"),
                          (D("296.78"), "Nav. Law § 88(4)(b)(1)(ii)(1)(A)")]
    assert q.total == D("4253.78")
    assert any("capital expense fund surcharge" in n and "$300 per ship" in n for n in q.notes)


def test_sandy_hook_other_brackets():
    # (vi) 2027, 2000 PU, as A.8982-A of 2024 amended it (4.34 -> 5.15): (2000 − 1650) × 5.15 + 8988 = 10,790.50;
    # 7.5% = 809.2875 → 809.29 (before the act: × 4.34, 10,507.00 + 788.03)
    q = nf.quote("sandy-hook", units=2000, on=dt.date(2027, 3, 1))
    assert [a for a, _ in amounts(q)] == [D("10790.50"), D("809.29")]
    # (ii) 2023, 24.995 PU is still "0 to 24.99" (half-open [0, 25)): $824; 7.5% = 61.80
    assert [a for a, _ in amounts(nf.quote("sandy-hook", units="24.995", on=dt.date(2023, 5, 1)))] == [
        D("824.00"), D("61.80")]


def test_hudson_upper_700_units_capped_at_500():
    # § 89-a(4)(b)(1)(vii): maximum charge of 500 units; 500 × 19.17 = 9,585.00
    q = nf.quote("hudson-upper", units=700, on=JUNE_2026)
    assert amounts(q) == [(D("9585.00"), "Nav. Law § 89-a(4)(b)(1)(vii)")]


def test_hudson_lower_brackets():
    # (vii) Section 1: up to 50 → 951.20; 50 < PU ≤ 100 → 1,359.81 (100 itself: the flat charge); 101 × 13.61 = 1,374.61
    assert nf.quote("hudson-lower", units=50, on=JUNE_2026).total == D("951.20")
    assert nf.quote("hudson-lower", units=100, on=JUNE_2026).total == D("1359.81")
    assert nf.quote("hudson-lower", units=101, on=JUNE_2026).total == D("1374.61")


def test_hudson_second_pilot_and_rule_fees():
    # base 300 × 13.61 = 4,083.00; second pilot (§ 89-a(4)(b)(1-a)) 50% = 2,041.50;
    # Zone 2 base rate = Section 2 charge for 300 units = 300 × 19.17 = 5,751.00:
    # shifting 20% = 1,150.20; docking with tug 10% = 575.10; launch at Yonkers Pilot Station (Zone 1) 300 × 2.99 = 897.00;
    # stop of 3 hours: 3 × 5% = 15% = 862.65; detained 30 hours: 35% (first 24 h, capped) + 6 × 5% = 65% = 3,738.15
    q = nf.quote("hudson-lower", units=300, on=JUNE_2026, second_pilot=True, shifting=True, docking="tug",
                 launch="yonkers-pilot-station", stop_hours=3, detained_hours=30)
    assert amounts(q) == [
        (D("4083.00"), "Nav. Law § 89-a(4)(b)(1)(vii)"),
        (D("2041.50"), "Nav. Law § 89-a(4)(b)(1-a)"),
        (D("897.00"), "21 NYCRR § 55.2(b)(1)"),
        (D("575.10"), "21 NYCRR § 55.2(d)(3)"),
        (D("1150.20"), "21 NYCRR § 55.2(e)"),
        (D("862.65"), "21 NYCRR § 55.2(a)"),
        (D("3738.15"), "21 NYCRR § 55.2(g)(3)"),
    ]
    assert any("Zone 2 Base Rate" in n for n in q.notes)


def test_hudson_caps_and_free_hour():
    # stop of 10 hours: 50% capped at 35% of 5,751.00 = 2,012.85; launch units capped at 500: 700 PU → 500 × 2.63
    q = nf.quote("hudson-upper", units=700, on=JUNE_2026, stop_hours=10, launch="norrie-point-pilot-station")
    assert [a for a, _ in amounts(q)] == [D("9585.00"), D("1315.00"), D("3354.75")]  # 35% of 9,585.00 = 3,354.75
    # delay used within one hour: no charge (§ 55.2(g)(1))
    q = nf.quote("hudson-upper", units=300, on=JUNE_2026, delay_hours=1)
    assert len(q.lines) == 1 and any("no charge" in n for n in q.notes)


def test_board_set_fees_are_notes_not_numbers():
    q = nf.quote("hudson-upper", units=300, on=JUNE_2026)
    joined = " ".join(q.notes)
    assert "communication fee" in joined and "not in the law text" in joined
    assert "retirement surcharge" in joined


def test_explain_lists_every_line_with_citation():
    text = nf.quote("sandy-hook", units=300, on=JUNE_2026).explain()
    assert "3,957.00" in text and "Nav. Law § 88(4)(b)(1)(ii)(1)(A)(v)" in text and "4,253.78" in text


@pytest.mark.parametrize("kwargs, message", [
    (dict(units=-5), "units must be more than zero"),
    (dict(units=0), "units must be more than zero"),
    (dict(units=float("nan")), "units must be a finite number"),
    (dict(units=float("inf")), "units must be a finite number"),
    (dict(units=D("Infinity")), "units must be a finite number"),
    (dict(units="ten"), "units must be a number"),
    (dict(units=True), "units must be a number"),
    (dict(units=[1]), "units must be a number"),
    (dict(units=200_000), "not a vessel"),
    (dict(length_ft=1000, breadth_ft=1000, depth_ft=2000), "more than 100,000"),
    (dict(length_ft=700, breadth_ft=100), "missing: depth_ft"),
    (dict(length_ft=700, breadth_ft=-100, depth_ft=50), "breadth_ft must be more than zero"),
    (dict(units=300, length_ft=700, breadth_ft=100, depth_ft=50), "not both"),
    (dict(units=300, on="2026-06-01"), "on must be a datetime.date"),
    (dict(units=300, on=dt.datetime(2026, 6, 1)), "on must be a datetime.date"),
    (dict(units=300, warp=9), "unknown option for sandy-hook: warp"),
    (dict(units=300, on=dt.date(2022, 6, 1)), "no sandy-hook rate schedule can be established for 2022-06-01"),
])
def test_bad_input_is_a_fee_error_naming_the_argument(kwargs, message):
    kwargs.setdefault("on", JUNE_2026)
    with pytest.raises(nf.FeeError, match=message.replace("(", r"\(")):
        nf.quote("sandy-hook", **kwargs)


@pytest.mark.parametrize("route, kwargs, message", [
    ("mars", dict(units=1), "unknown route 'mars'"),
    ("hudson-lower", dict(units=300, docking="rowboat"), "docking must be one of"),
    ("hudson-lower", dict(units=300, shifting="yes"), "shifting must be True, False or a whole number of times"),
    ("hudson-lower", dict(units=300, stop_hours=-1), "stop_hours must be zero or more"),
    ("hudson-lower", dict(units=300, on=dt.date(2021, 6, 1)), "§ 89-a(4)(b)(1)(vi)"),
    ("long-island-sound", dict(units=300, carried_off_days="1.5"), "carried_off_days must be a whole number"),
    ("long-island-sound", dict(units=300, on=dt.date(2022, 7, 20)), "from 2022-07-21"),
])
def test_route_option_errors(route, kwargs, message):
    kwargs.setdefault("on", JUNE_2026)
    with pytest.raises(nf.FeeError) as e:
        nf.quote(route, **kwargs)
    assert message in str(e.value)


def test_schedules_and_options_listing():
    sh = nf.schedules("sandy-hook")
    dated = [s for s in sh if s["kind"] == "brackets" and s["status"] == "in-force"]
    assert [s["effective_from"] for s in dated] == [None, "2023-01-01", "2024-01-01", "2024-12-31", "2025-01-01",
                                                    "2026-01-01", "2027-01-01"]
    assert dated[0]["effective_note"]  # table (i): why it has no date
    # (iii) as A.8982-A of 2024 amended it: certainly from 2024-12-31, possibly from 2024-02-09 (the act became law
    # between 2024-02-08 and 2024-12-31); the old (iii) may have ended from that day
    assert dated[3]["effective_possibly_from"] == "2024-02-09" == dated[2]["effective_possibly_to"]
    assert "between 2024-02-08 and 2024-12-31" in dated[3]["effective_note"]
    assert dated[3]["citation"].endswith("(iii), as amended by A.8982-A of 2024")
    assert set(nf.options("long-island-sound")) == {"miles", "detention_hours", "carried_off_days"}
    with pytest.raises(nf.FeeError):
        nf.schedules("mars")


def test_generated_module_is_fresh(corpus):
    """The committed navlaw_fees/ is exactly what the corpus generates (run `navlaw build` if this fails)."""
    from navlaw.build import law
    the_law = law(corpus)  # the trace links name the version of each provision's text
    tariffs, _ = tariffs_and_lint(corpus, the_law.timeline)
    files = fee_module(Result(the_law, tariffs), ROOT / "navlaw_fees")  # CHANGES against the committed one
    for name, text in files.items():
        committed = (ROOT / "navlaw_fees" / name).read_text(encoding="utf-8")
        assert committed == text, f"navlaw_fees/{name} is stale: run `navlaw build` and commit it"
    assert fee_module(Result(the_law, tariffs), ROOT / "navlaw_fees") == files  # deterministic


def test_generated_module_header_names_sources():
    head = (ROOT / "navlaw_fees" / "__init__.py").read_text(encoding="utf-8").splitlines()[:12]
    assert "do not edit" in head[0]
    assert any("089-b.2022.txt" in line and len(line.split()[-1]) == 64 for line in head)


def test_generated_module_passes_mypy_strict():
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(ROOT / "navlaw_fees")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_hostile_formula_is_a_diagnostic_not_code(tmp_path):
    from navlaw.diagnostics import Diagnostics
    from navlaw.frontend.corpus import Compiled, compile_source
    from navlaw.tariffs.extract import extract_document
    from navlaw.frontend.load import SourceDocument
    text = ("§ 88. Pilotage.\n(b) The following scale of charges shall be applicable:\n\n"
            "PILOTAGE UNITS | TARIFF |\n0 to 99.99 | $500 |\n100 and up | __import__('os').system('x') |\n")
    src = SourceDocument("hostile.txt", text, "", len(text))
    diags = Diagnostics()
    doc = compile_source(src, None, diags)
    tariffs = extract_document(Compiled(src, doc, None), diags)
    [bad] = [d for d in diags if d.code == "tariff-formula"]
    assert bad.line == 6 and "not a fee formula" in bad.message
    [t] = [t for t in tariffs if t.kind == "brackets"]
    assert len(t.brackets) == 1  # the hostile row is left out, reported, and never reaches code


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_fee_json(capsys):
    code, out, _ = run(capsys, "fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--json",
                       "--corpus", str(CORPUS))
    assert code == 0
    q = json.loads(out)
    assert q["total"] == "3811.50" and q["lines"][0]["amount"] == "3811.50"
    assert set(q) == {"schema", "version", "route", "on", "units", "total", "lines", "notes"} and q["schema"] == "quote.schema.json"


def test_cli_fee_text_with_dimensions_and_options(capsys):
    code, out, _ = run(capsys, "fee", "hudson-upper", "--length", "700", "--breadth", "100", "--depth", "50",
                       "--on", "2026-06-01", "--second-pilot", "--docking", "tug", "--corpus", str(CORPUS))
    assert code == 0
    # 350 PU × 19.17 = 6,709.50; second pilot 3,354.75; docking 10% of 6,709.50 = 670.95; total 10,735.20
    assert "$6,709.50" in out and "$3,354.75" in out and "$670.95" in out and "$10,735.20" in out


@pytest.mark.parametrize("argv, code, message", [
    (["fee", "sandy-hook", "--units", "-3"], 1, "units must be more than zero"),
    (["fee", "sandy-hook", "--units", "300", "--on", "2026-13-01"], 2, "not a date"),
    (["fee", "sandy-hook"], 2, "give --units N"),
    (["fee", "sandy-hook", "--units", "300", "--warp", "9"], 2, "unknown option '--warp' for sandy-hook"),
    (["fee", "atlantis", "--units", "300"], 1, "unknown route 'atlantis'"),
])
def test_cli_fee_errors_are_one_line_not_tracebacks(capsys, argv, code, message):
    try:
        got = main(argv + ["--corpus", str(CORPUS)])
    except SystemExit as e:
        got = e.code
    _, err = capsys.readouterr()
    assert got == code and message in err and "Traceback" not in err


# ---- thresholds as written (issue 19) ------------------------------------------------------------

def test_late_arrival_is_charged_only_when_more_than_one_hour_late():
    """21 NYCRR § 55.2(h)(3): "If a vessel arrives at the pilot station more than one hour later than its
    scheduled arrival time … there shall be a charge of … 5 percent per hour of the Zone 2 Base Rate, up to
    a maximum charge of 35%." The Zone 2 Base Rate for 300 PU on 2026-06-01 is the Upper River base:
    300 × $19.17 (§ 89-a(4)(b)(1)(vii)) = $5,751.00."""
    on = dt.date(2026, 6, 1)
    for late in ("0.5", "1"):  # not more than one hour late: no charge, and the quote says why
        q = nf.quote("hudson-upper", units=300, on=on, late_arrival_hours=late)
        assert q.total == Decimal("5751.00") and len(q.lines) == 1
        assert ("late_arrival_hours: no charge, the vessel is not more than one hour later than its scheduled "
                "arrival time (21 NYCRR § 55.2(h)(3)).") in q.notes
    # 1.5 hours late: two hours, a part hour counting as an hour: 5% × 2 × $5,751.00 = $575.10
    q = nf.quote("hudson-upper", units=300, on=on, late_arrival_hours="1.5")
    assert q.lines[1].amount == Decimal("575.10") and q.lines[1].citation == "21 NYCRR § 55.2(h)(3)"
    assert any(n.startswith("late_arrival_hours: charged only when the vessel is more than one hour late") and
               "the rule does not say whether the first hour counts" in n for n in q.notes)
    # 8 hours late: 5% × 8 = 40%, capped at 35%: 35% × $5,751.00 = $2,012.85
    assert nf.quote("hudson-upper", units=300, on=on, late_arrival_hours=8).lines[1].amount == Decimal("2012.85")


def test_failure_to_provide_measurements_is_the_maximum_pilotage_charge_where_the_text_says_so():
    """§ 89-a(4)(d): "Failure to provide the measurements so required shall subject vessel to the maximum
    pilotage charge"; § 89-a(4)(b)(1)(vii): "A maximum charge of up to 500 pilotage units shall be
    applicable". 2026-06-01, Upper River: 500 × $19.17 = $9,585.00; Lower River: 500 × $13.61 = $6,805.00.
    § 89-b(4)(d) says the same, § 89-b(4)(b)(2) caps at five hundred units: 500 × $10.89 = $5,445.00."""
    on = dt.date(2026, 6, 1)
    for route, total in (("hudson-upper", "9585.00"), ("hudson-lower", "6805.00"), ("long-island-sound", "5445.00")):
        q = nf.quote(route, on=on, measurements_provided=False)
        assert q.total == Decimal(total) and q.units == 500, route
        assert any(n.startswith("Measurements not provided: the maximum pilotage charge, on 500 pilotage units")
                   for n in q.notes), route
    assert ("Measurements not provided: the maximum pilotage charge, on 500 pilotage units (Nav. Law § 89-a(4)(d))."
            in nf.quote("hudson-upper", on=on, measurements_provided=False).notes)
    # Sandy Hook: the 2022 tables' text holds no such sentence (only the 2002 consolidation has § 88(4)(d),
    # and it is not known in force in 2026) and "1650 and up" has no maximum: the law fixes no amount
    with pytest.raises(nf.FeeError, match="says nothing of a vessel whose measurements are not provided"):
        nf.quote("sandy-hook", on=on, measurements_provided=False)
    with pytest.raises(nf.FeeError, match="give no units or dimensions"):
        nf.quote("hudson-upper", units=300, on=on, measurements_provided=False)
    with pytest.raises(nf.FeeError, match="measurements_provided must be True or False"):
        nf.quote("hudson-upper", units=300, on=on, measurements_provided="no")


def test_the_reference_evaluator_agrees_on_a_vessel_without_measurements(corpus, tariffs):
    from navlaw.fees.plans import build_plans
    from navlaw.fees.reference import reference_quote
    from navlaw.tariffs.routes import RouteTable

    plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
    for route in ("hudson-upper", "hudson-lower", "long-island-sound"):
        for on in (dt.date(2023, 6, 1), dt.date(2026, 6, 1), dt.date(2028, 2, 1)):
            a = nf.quote(route, on=on, measurements_provided=False)
            b = reference_quote(plans, route, on=on, measurements_provided=False)
            assert (a.total, a.lines, a.notes) == (b.total, b.lines, b.notes)


def test_notes_agree_with_lines_the_launch_note_goes_when_a_station_is_chosen():
    """Issue 19 item 7: a note never tells to pass launch=… when the launch fee is in the quote, and
    notes are worded for people (the API's names are in nf.options)."""
    on = dt.date(2026, 6, 1)
    bare = nf.quote("hudson-upper", units=300, on=on)
    assert any(n.startswith("Launch fee not included: no pilot station was chosen (Nav. Law § 89-a(4)(b)(1-a)")
               for n in bare.notes)
    with_launch = nf.quote("hudson-upper", units=300, on=on, launch="yonkers-pilot-station")
    assert with_launch.lines[1].description == "Launch fee: Yonkers Pilot Station: 300 PU × $2.99"  # $897.00
    assert with_launch.lines[1].amount == Decimal("897.00")
    assert not any("not included: no pilot station" in n for n in with_launch.notes)
    assert not any("pass launch" in n for route in nf.ROUTES for n in nf.quote(route, units=300, on=on).notes)


def test_charges_that_occur_more_than_once_each_with_its_own_maximum():
    """Issue 19 item 2. 21 NYCRR § 55.2(a): "5 percent per hour of the Zone 2 Base Rate, up to a maximum
    charge of 35 percent" for each stop. Zone 2 base for 300 PU on 2026-06-01: $5,751.00.
    Two stops of 6 h: 2 × (30% × $5,751.00 = $1,725.30). Stops of 6 h and 9 h: $1,725.30 + 35% ($2,012.85)."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("hudson-upper", units=300, on=on, stop_hours=[6, 6])
    assert [l.amount for l in q.lines[1:]] == [Decimal("1725.30"), Decimal("1725.30")]
    q = nf.quote("hudson-upper", units=300, on=on, stop_hours=[6, 9])
    assert [l.amount for l in q.lines[1:]] == [Decimal("1725.30"), Decimal("2012.85")]
    # § 55.2(e) shifting, 20% of the Zone 2 Base Rate, twice: 2 × $1,150.20
    q = nf.quote("hudson-lower", units=300, on=on, shifting=2)
    assert [l.amount for l in q.lines[1:]] == [Decimal("1150.20"), Decimal("1150.20")]


def test_both_launch_stations_on_the_upper_river_and_one_on_the_lower():
    """§ 89-a(4)(b)(1-a): "All vessels shall pay an additional launch fee" (the Yonkers station) and "All
    vessels transiting Section 2, Upper River … shall pay a mid-river launch fee" (Norrie Point);
    21 NYCRR § 55.2(b)(2): $2.99 and $2.63 per pilotage unit. 300 PU: $897.00 + $789.00."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("hudson-upper", units=300, on=on, launch=["yonkers-pilot-station", "norrie-point-pilot-station"])
    assert [(l.description, l.amount) for l in q.lines[1:]] == [
        ("Launch fee: Yonkers Pilot Station: 300 PU × $2.99", Decimal("897.00")),
        ("Launch fee: Norrie Point Pilot Station: 300 PU × $2.63", Decimal("789.00"))]
    with pytest.raises(nf.FeeError, match="launch"):
        nf.quote("hudson-lower", units=300, on=on, launch=["yonkers-pilot-station", "yonkers-anchorage"])
    with pytest.raises(nf.FeeError, match="names one twice"):
        nf.quote("hudson-upper", units=300, on=on, launch=["yonkers-pilot-station", "yonkers-pilot-station"])


def test_navlaw_fee_takes_repeated_options_as_the_api_does(capsys):
    code = main(["fee", "hudson-upper", "--units", "300", "--on", "2026-06-01", "--json", "--stop-hours", "6",
                 "--stop-hours", "9", "--shifting", "2"])
    assert code == 0
    q = json.loads(capsys.readouterr().out)
    want = nf.quote("hudson-upper", units=300, on=dt.date(2026, 6, 1), stop_hours=[6, 9], shifting=2)
    assert q["total"] == str(want.total) == "11789.55"  # 5,751.00 + 2 × 1,150.20 + 1,725.30 + 2,012.85


def test_the_reference_evaluator_agrees_on_repeated_charges(corpus, tariffs):
    from navlaw.fees.plans import build_plans
    from navlaw.fees.reference import reference_quote
    from navlaw.tariffs.routes import RouteTable

    plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
    on = dt.date(2026, 6, 1)
    for kw in (dict(stop_hours=[6, 9]), dict(shifting=3, anchoring=True), dict(delay_hours=["0.5", 2, 12]),
               dict(launch=["yonkers-pilot-station", "norrie-point-pilot-station"])):
        a = nf.quote("hudson-upper", units=300, on=on, **kw)
        b = reference_quote(plans, "hudson-upper", units=300, on=on, **kw)
        assert (a.lines, a.notes) == (b.lines, b.notes), kw


def test_a_dismissal_or_a_cancellation_is_charged_instead_of_pilotage_as_the_rule_says():
    """Issue 19 item 3. 21 NYCRR § 55.2(g)(2): "a pilot reporting to a vessel is dismissed without rendering
    services, the fee shall be … 15 percent of the Zone 2 Base Rate"; (h)(2): "If the arrival/departure of a
    vessel is cancelled less than two hours before …, there shall be a charge of 35 percent of the Zone 2
    Base Rate". No pilotage is rendered, so the fee stands alone: 15% × $5,751.00 = $862.65;
    35% × $5,751.00 = $2,012.85 (300 PU, 2026-06-01)."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("hudson-upper", units=300, on=on, dismissed=True)
    assert [(l.description, l.amount) for l in q.lines] == [
        ("Dismissed without rendering services: 15% of the Zone 2 base rate", Decimal("862.65"))]
    assert q.total == Decimal("862.65")
    assert ('dismissed: charged instead of the pilotage fee, none being rendered ("dismissed without rendering '
            'services", 21 NYCRR § 55.2(g)(2)).') in q.notes
    q = nf.quote("hudson-lower", units=300, on=on, cancellation="under-2-hours")
    assert q.total == Decimal("2012.85") and len(q.lines) == 1
    # a fee that is not instead of pilotage keeps the pilotage line: § 55.2(e) shifting
    assert len(nf.quote("hudson-upper", units=300, on=on, shifting=True).lines) == 2


def test_the_reference_evaluator_agrees_on_charges_instead_of_pilotage(corpus, tariffs):
    from navlaw.fees.plans import build_plans
    from navlaw.fees.reference import reference_quote
    from navlaw.tariffs.routes import RouteTable

    plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
    on = dt.date(2026, 6, 1)
    for kw in (dict(dismissed=True), dict(cancellation="under-6-hours", launch="yonkers-pilot-station")):
        a = nf.quote("hudson-upper", units=300, on=on, **kw)
        b = reference_quote(plans, "hudson-upper", units=300, on=on, **kw)
        assert (a.total, a.lines, a.notes) == (b.total, b.lines, b.notes), kw


@pytest.mark.parametrize("route,kwargs,words,expected", [
    # § 89-b(4)(b)(5): "detained on board a vessel at berth for more than two hours shall be paid at the rate of
    # twenty-five dollars per hour or fraction thereof": 2 h is not paid; 2.5 h is 3 started hours × $25 = $75.00
    ("long-island-sound", dict(detention_hours=2), "for more than two hours", []),
    ("long-island-sound", dict(detention_hours="2.5"), "for more than two hours", ["75.00"]),
    # § 55.2(c): "35 percent of the Zone 2 Base Rate for each 24 hours or part thereof": 24 h is one period
    # (35% × $5,751.00 = $2,012.85), 25 h two (70% = $4,025.70)
    ("hudson-upper", dict(ice_detention_hours=24), "for each 24 hours or part thereof", ["2012.85"]),
    ("hudson-upper", dict(ice_detention_hours=25), "for each 24 hours or part thereof", ["4025.70"]),
    # § 55.2(g)(3): "5 percent per hour … up to a maximum charge of 35 percent for each 24 hour period":
    # 30 h = 35% for the first 24 h + 6 × 5% = 65% × $5,751.00 = $3,738.15
    ("hudson-upper", dict(detained_hours=30), "for each 24 hour period", ["3738.15"]),
    # § 55.2(g)(1): "However, if the pilot's services are used within one hour, no charge will be incurred";
    # 1.5 h: 2 started hours × 5% = 10% = $575.10
    ("hudson-upper", dict(delay_hours="0.5"), "used within one hour, no charge", []),
    ("hudson-upper", dict(delay_hours="1.5"), "used within one hour, no charge", ["575.10"]),
])
def test_thresholds_are_applied_as_the_text_words_them(route, kwargs, words, expected):
    """Issue 19 item 1: each threshold as written; the words are in the law text of the corpus."""
    from .conftest import CORPUS

    corpus_text = " ".join(" ".join(p.read_text(encoding="utf-8").replace("\\n", " ").split()) for p in CORPUS.glob("*.txt"))
    assert words in corpus_text.replace("’", "'")
    q = nf.quote(route, units=300, on=dt.date(2026, 6, 1), **kwargs)
    assert [str(l.amount) for l in q.lines[1:]] == expected


def test_one_second_pilot_is_not_charged_twice():
    """Issue 19 item 6. § 89-a(4)(b)(1-a): "the fee shall be the regular pilotage fee plus fifty percent for
    the second pilot"; 21 NYCRR § 55.2(c): when "ice conditions require two pilots on board a vessel, the fee
    shall be the regular pilotage fee plus 50 percent of the regular pilotage fee for the second pilot".
    Both given: one second pilot, charged once (50% × $5,751.00 = $2,875.50), and the reading is named."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("hudson-upper", units=300, on=on, second_pilot=True, ice_second_pilot=True)
    assert [l.amount for l in q.lines] == [Decimal("5751.00"), Decimal("2875.50")]
    assert any(n.startswith("ice_second_pilot: not charged again: one second pilot is on board") for n in q.notes)
    alone = nf.quote("hudson-upper", units=300, on=on, ice_second_pilot=True)
    assert [l.amount for l in alone.lines] == [Decimal("5751.00"), Decimal("2875.50")]


def test_the_reference_evaluator_agrees_on_one_second_pilot(corpus, tariffs):
    from navlaw.fees.plans import build_plans
    from navlaw.fees.reference import reference_quote
    from navlaw.tariffs.routes import RouteTable

    plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
    kw = dict(units=300, on=dt.date(2026, 6, 1), second_pilot=True, ice_second_pilot=True)
    a, b = nf.quote("hudson-upper", **kw), reference_quote(plans, "hudson-upper", **kw)
    assert (a.total, a.lines, a.notes) == (b.total, b.lines, b.notes)


def test_part_hours_are_a_named_reading_in_the_quote_and_in_lint(capsys):
    """21 NYCRR § 55.2(a): "5 percent per hour of the Zone 2 Base Rate" — the rule does not say how a part of
    an hour counts; navlaw charges it as a whole hour (5.5 h: 6 × 5% = 30% × $5,751.00 = $1,725.30) and says so."""
    q = nf.quote("hudson-upper", units=300, on=dt.date(2026, 6, 1), stop_hours="5.5")
    assert q.lines[1].amount == Decimal("1725.30")
    assert ('stop_hours: a part of an hour is charged as a whole hour (an interpretation: the rule says "per hour" '
            'and not how a part of an hour counts) (21 NYCRR § 55.2(a)).') in q.notes
    assert main(["lint"]) == 0
    assert "info: 21 NYCRR § 55.2(a): a part of an hour is charged as a whole hour" in capsys.readouterr().out


def test_an_amount_the_law_leaves_to_a_board_may_be_entered_and_is_checked_against_the_cap():
    """Issue 19 item 5. § 88(4)(e) (2022): "The surcharge board may set the rate not to exceed three hundred
    dollars per ship." Entered: a line "set by the …, entered by the user"; over $300: a FeeError quoting
    the cap; not entered: the note stays. § 89-a(4)(b)(1-a): "The communication fee shall be set by the
    board of commissioners of pilots" (no cap)."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("sandy-hook", units=300, on=on, capital_expense_fund_surcharge=250)
    assert q.lines[-1] == nf.Line("Capital expense fund surcharge (set by the Sandy Hook pilot surcharge board, "
                                  "entered by the user)", Decimal("250.00"), "Nav. Law § 88(4)(e)")
    assert not any("capital expense fund surcharge" in n for n in q.notes)
    assert any(n.startswith("Not included: the capital expense fund surcharge") for n in nf.quote("sandy-hook", units=300, on=on).notes)
    with pytest.raises(nf.FeeError, match=r"\$301 is more than the law allows: Nav. Law § 88\(4\)\(e\) caps it at \$300 per ship"):
        nf.quote("sandy-hook", units=300, on=on, capital_expense_fund_surcharge=301)
    q = nf.quote("hudson-lower", units=300, on=on, communication_fee="35.505")
    assert q.lines[-1].amount == Decimal("35.51")  # rounded once to cents, half up
    # 2004: the 2002 text caps it at $125
    with pytest.raises(nf.FeeError, match=r"caps it at \$125 per ship"):
        nf.quote("sandy-hook", units=300, on=dt.date(2004, 1, 1), capital_expense_fund_surcharge=126)


def test_the_reference_evaluator_agrees_on_amounts_entered_for_a_board(corpus, tariffs):
    from navlaw.fees.plans import build_plans
    from navlaw.fees.reference import reference_quote
    from navlaw.tariffs.routes import RouteTable

    plans = build_plans(tariffs, RouteTable.of(corpus.manifest))
    for route, kw in (("sandy-hook", dict(capital_expense_fund_surcharge="299.995")),
                      ("hudson-upper", dict(communication_fee=12, launch="yonkers-pilot-station"))):
        a = nf.quote(route, units=300, on=dt.date(2026, 6, 1), **kw)
        b = reference_quote(plans, route, units=300, on=dt.date(2026, 6, 1), **kw)
        assert (a.total, a.lines, a.notes) == (b.total, b.lines, b.notes), kw


def test_return_transportation_of_a_carried_off_pilot_is_a_note_not_a_number():
    """§ 89-b(4)(b)(6): "shall be paid two hundred dollars per day … He shall also be awarded first class return
    transportation at the earliest possible time": 2 days = $400.00, and the transport is named, not priced."""
    q = nf.quote("long-island-sound", units=300, on=dt.date(2026, 6, 1), carried_off_days=2)
    assert q.lines[-1].amount == Decimal("400.00")
    assert ("Not included: the pilot's first class return transportation, which the law awards "
            "(Nav. Law § 89-b(4)(b)(6)) but whose cost is not in the law text.") in q.notes


def test_the_readings_of_a_rounded_base_and_of_norrie_point_on_the_lower_river_are_named(capsys):
    """Issue 19 item 6. A percentage of the Zone 2 Base Rate is taken of it rounded to cents ($5,751.00 for
    300 PU; § 55.2(e) shifting 20% = $1,150.20), and the quote says so; 21 NYCRR § 55.2(c): "when the Norrie
    Point Station is closed and the pilot boards at Yonkers, a Pilot Transport Fee of $1.315 per Pilotage
    Unit" — the rule names the station, not the river section: charged on the Lower River too (300 × $1.315
    = $394.50), and said. Both readings are in navlaw lint."""
    on = dt.date(2026, 6, 1)
    q = nf.quote("hudson-upper", units=300, on=on, shifting=True)
    assert q.lines[1].amount == Decimal("1150.20")
    assert any(n.startswith("Percentages are taken of the charge they are a percentage of as rounded to cents")
               for n in q.notes)
    q = nf.quote("hudson-lower", units=300, on=on, station_closed="norrie-point")
    assert q.lines[1].amount == Decimal("394.50")
    assert ("station_closed: charged on either river section: the rule names the Norrie Point Station but not the "
            "section of the transit (an interpretation) (21 NYCRR § 55.2(c)).") in q.notes
    main(["lint"])
    out = capsys.readouterr().out
    assert "info: percentages of another charge (the Zone 2 Base Rate, the regular pilotage fee) are taken of it" in out
    assert "info: 21 NYCRR § 55.2(c): charged on either river section" in out


def test_the_retirement_surcharge_the_board_sets_is_entered_only_from_a_date_the_corpus_establishes(tmp_path):
    """§ 89-a(4)(b)(1-c)(iii): "Following the sixtieth month after the effective date of this subparagraph,
    the amount of the surcharge as determined by the surcharge board shall not exceed …" The corpus gives no
    date for "the effective date of this subparagraph": an entered amount is refused, saying why. With an
    anchor in the manifest (2010-01-01), the board's amount applies from 2015-01-01 and is a line."""
    import shutil
    import sys

    from .conftest import CORPUS, load_module

    with pytest.raises(nf.FeeError, match="from a date the corpus does not establish .*so it cannot be quoted on 2026-06-01"):
        nf.quote("hudson-upper", units=300, on=dt.date(2026, 6, 1), retirement_surcharge=100)
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    m = corpus / "manifest.toml"
    text = m.read_text(encoding="utf-8")
    i = text.index('file = "089-a.4-7-8.txt"')
    j = text.index("[[document]]", i)
    text = (text[:j] + '[document.anchors]\n"effective date of this subparagraph" = { date = 2010-01-01, source = '
            '"a test anchor", confidence = "verified" }\n\n' + text[j:])
    m.write_text(text, encoding="utf-8")
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "anchored"),
                 "--no-site", "--no-cache"]) == 0
    try:
        mod = load_module(tmp_path / "anchored", "anchored")
        q = mod.quote("hudson-upper", units=300, on=dt.date(2026, 6, 1), retirement_surcharge="120")
        assert q.lines[-1].description == ("Retirement surcharge set by the board (set by the surcharge board, "
                                           "entered by the user)")
        assert q.lines[-1].amount == Decimal("120.00")
        # before it (the 2002 text, which has no such sentence): refused
        with pytest.raises(mod.FeeError, match="no such fee set by a board is in force on hudson-upper on 2004-06-01"):
            mod.quote("hudson-upper", units=300, on=dt.date(2004, 6, 1), retirement_surcharge="120")
    finally:
        sys.modules.pop("anchored", None)
