"""The hand-written runtime copied into navlaw_fees (compiler/runtime.py): money, input checks, Quote."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from navlaw import runtime as R

D = Decimal


@pytest.mark.parametrize("x, want", [("2.005", "2.01"), ("2.004", "2.00"), ("296.775", "296.78"), ("-1.005", "-1.01")])
def test_cents_rounds_half_up_once(x, want):
    assert R.cents(D(x)) == D(want)


@pytest.mark.parametrize("value, want", [(3, D(3)), ("1,250.5", D("1250.5")), (D("0.01"), D("0.01")), (2.5, D("2.5")),
                                         (0.1, D("0.1"))])
def test_number_is_exact(value, want):
    assert R.number(value, "units") == want  # 0.1 as a float becomes Decimal("0.1"), not 0.1000000000000000055…


@pytest.mark.parametrize("value, message", [(0, "more than zero"), (-1, "more than zero"), (float("nan"), "finite"),
                                            (float("-inf"), "finite"), ("Infinity", "finite"), ("x", "a number"),
                                            (None, "a number"), (True, "a number"), (D("NaN"), "finite")])
def test_number_refuses(value, message):
    with pytest.raises(R.FeeError, match=message):
        R.number(value, "units")


def test_started_counts_part_periods():
    assert [R.started(D(h)) for h in ("0", "0.1", "1", "1.0001", "2")] == [0, 1, 1, 2, 2]
    assert R.started(D(25), D(24)) == 2


def test_hourly_percent_caps():
    # 5% per hour, at most 35%: 3 h -> 15%, 10 h -> 35%
    assert R.hourly_percent(D(3), D(5), D(35), False)[0] == D(15)
    assert R.hourly_percent(D(10), D(5), D(35), False)[0] == D(35)
    # at most 35% for each 24-hour period: 30 h -> 35% + 6 × 5% = 65%; 48 h -> 70%
    assert R.hourly_percent(D(30), D(5), D(35), True)[0] == D(65)
    assert R.hourly_percent(D(48), D(5), D(35), True)[0] == D(70)


def test_pilotage_units_exact():
    assert R.pilotage_units("700.5", 100, 50) == D("350.25")


def test_quote_total_explain_json():
    q = R.Quote("sandy-hook", dt.date(2026, 6, 1), D(300),
                (R.Line("base", D("3957.00"), "§ 88"), R.Line("7.5%", D("296.78"), "§ 88")), ("a note",))
    assert q.total == D("4253.78")
    assert "4,253.78" in q.explain() and "note: a note" in q.explain()
    assert q.to_json()["total"] == "4253.78" and q.to_json()["lines"][1]["amount"] == "296.78"


def test_unknown_options_are_named():
    with pytest.raises(R.FeeError, match="unknown options for x: a, b; options: c"):
        R.check_options("x", {"a": 1, "b": 2, "c": 3}, ("c",))
