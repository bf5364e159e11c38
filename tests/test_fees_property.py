"""Property tests: the generated navlaw_fees agrees with an independent evaluation of the tariff objects
(compiler/fees/reference.py reference_quote) on thousands of random vessels, dates and options, and obeys facts
the statute implies (monotonic within a bracket, unit minimum and maximum, cents, total = sum of lines)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import given, settings, strategies as st

import navlaw_fees as nf
from navlaw.runtime import FeeError as ReferenceFeeError
from navlaw.fees.plans import build_plans
from navlaw.fees.reference import reference_quote
from navlaw.tariffs.routes import RouteTable

D = Decimal
BOUNDARIES = ["24.99", "24.995", "25", "49.99", "50", "50.01", "99.99", "100", "100.01", "199.99", "200", "499.99",
              "500", "500.01", "1649.99", "1650", "1650.01"]
units_st = st.one_of(
    st.sampled_from([D(x) for x in BOUNDARIES]),
    st.decimals(min_value=D("0.01"), max_value=D("5000"), places=2, allow_nan=False, allow_infinity=False),
    st.integers(1, 3000).map(D),
)
days_st = st.dates(dt.date(2015, 1, 1), dt.date(2030, 12, 31))
HOURS = st.sampled_from([D(0), D("0.5"), D(1), D("1.5"), D(2), D("2.01"), D(6), D(7), D(24), D(25), D(30), D(49)])


@st.composite
def options_for(draw, route):
    opts = {}
    for name, _ in nf.options(route).items():
        if not draw(st.booleans()) or not draw(st.booleans()):
            continue
        if name.endswith("_hours"):
            opts[name] = draw(HOURS)
        elif name == "miles":
            opts[name] = draw(st.sampled_from([D(1), D("24.9"), D(25), D(40)]))
        elif name == "carried_off_days":
            opts[name] = draw(st.integers(0, 5))
        elif name in ("launch", "station_closed", "docking", "undocking", "cancellation"):
            choices = {"launch": {"hudson-lower": ["yonkers-pilot-station", "yonkers-anchorage"],
                                  "hudson-upper": ["yonkers-pilot-station", "norrie-point-pilot-station",
                                                   "hyde-park-anchorage"]}.get(route, []),
                       "station_closed": ["norrie-point", "yonkers"],
                       "docking": ["no-tug-no-thruster", "thruster", "tug"],
                       "undocking": ["no-tug-no-thruster", "thruster", "tug"],
                       "cancellation": ["under-2-hours", "under-6-hours"]}[name]
            opts[name] = draw(st.sampled_from(choices))
        else:
            opts[name] = True
    return opts


_PLANS = {}


def plans():
    if not _PLANS:
        from navlaw.tariffs import tariffs_and_lint
        from navlaw.frontend.corpus import compile_corpus

        from .conftest import CORPUS
        corpus = compile_corpus(CORPUS)
        _PLANS.update(build_plans(tariffs_and_lint(corpus)[0], RouteTable.of(corpus.manifest)))
    return _PLANS


def both(route, units, on, opts):
    try:
        got = nf.quote(route, units=units, on=on, **opts)
    except nf.FeeError as e:  # the generated module's FeeError
        got = e
    try:
        want = reference_quote(plans(), route, units=units, on=on, **opts)
    except ReferenceFeeError as e:  # the reference evaluator's (navlaw.runtime)
        want = e
    return got, want


@settings(max_examples=3000, deadline=None)
@given(data=st.data())
def test_generated_module_agrees_with_the_tariff_objects(data):
    route = data.draw(st.sampled_from(nf.ROUTES))
    units = data.draw(units_st)
    on = data.draw(days_st)
    opts = data.draw(options_for(route))
    got, want = both(route, units, on, opts)
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert isinstance(got, nf.FeeError) and isinstance(want, ReferenceFeeError), (got, want)
        return
    assert [(x.amount, x.citation) for x in got.lines] == [(x.amount, x.citation) for x in want.lines]
    assert got.total == want.total == sum(x.amount for x in got.lines)
    assert all(x.amount == x.amount.quantize(D("0.01")) and x.amount >= 0 for x in got.lines)
    assert set(got.notes) == set(want.notes)


@settings(max_examples=1500, deadline=None)
@given(route=st.sampled_from(nf.ROUTES), a=units_st, b=units_st, on=st.dates(dt.date(2023, 1, 1), dt.date(2030, 1, 1)))
def test_fee_never_decreases_within_a_bracket(route, a, b, on):
    lo, hi = sorted((a, b))
    schedule = plans()[route].schedule_on(on)
    if schedule.bracket_for(lo) is not schedule.bracket_for(hi):
        return
    f_lo = nf.quote(route, units=lo, on=on).lines[0].amount
    f_hi = nf.quote(route, units=hi, on=on).lines[0].amount
    assert f_lo <= f_hi


@settings(max_examples=500, deadline=None)
@given(units=units_st, on=st.dates(dt.date(2022, 7, 21), dt.date(2030, 1, 1)))
def test_long_island_sound_minimum_and_maximum_units(units, on):
    # § 89-b(4)(b)(2): charged on at least 200 and at most 500 units
    clamped = min(max(units, D(200)), D(500))
    assert nf.quote("long-island-sound", units=units, on=on).total == nf.quote(
        "long-island-sound", units=clamped, on=on).total


@settings(max_examples=500, deadline=None)
@given(units=units_st, on=st.dates(dt.date(2023, 1, 1), dt.date(2030, 1, 1)))
def test_sandy_hook_addition_is_seven_and_a_half_percent_of_the_rounded_fee(units, on):
    base, addition = nf.quote("sandy-hook", units=units, on=on).lines
    assert addition.amount == (base.amount * D("0.075")).quantize(D("0.01"), rounding="ROUND_HALF_UP")


@settings(max_examples=300, deadline=None)
@given(length=st.integers(50, 1200), breadth=st.integers(10, 200), depth=st.integers(5, 120))
def test_dimensions_and_units_give_the_same_quote(length, breadth, depth):
    units = D(length) * D(breadth) * D(depth) / D(10000)
    on = dt.date(2026, 6, 1)
    by_dims = nf.quote("hudson-upper", length_ft=length, breadth_ft=breadth, depth_ft=depth, on=on)
    assert by_dims == nf.quote("hudson-upper", units=units, on=on)
