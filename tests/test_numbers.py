"""The number-word grammar (grammar/numbers.lark) and the formula grammar (grammar/formula.lark)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from navlaw.model import numbers as W
from navlaw.model.formula import FormulaError, describe, evaluate, parse_formula, unit_offsets


@pytest.mark.parametrize("words, kind, value", [
    # § 89-b(4)(b)(1), file 001
    ("ten dollars and eighty-nine cents", "money", Decimal("10.89")),
    ("eight dollars and eighty-six cents", "money", Decimal("8.86")),
    ("eleven dollars\nand twenty-two cents", "money", Decimal("11.22")),
    # § 88(4)(e), file 004 and file 000
    ("three hundred dollars", "money", Decimal("300")),
    ("one hundred twenty-five dollars", "money", Decimal("125")),
    # § 89-a(4)(b)(1-c)(iii)
    ("five hundred thousand dollars", "money", Decimal("500000")),
    ("four hundred fifty", "cardinal", 450),
    ("two thousand twenty-seven", "cardinal", 2027),
    ("twenty five", "cardinal", 25),
    ("January first, two thousand twenty-three", "date", dt.date(2023, 1, 1)),
    ("July first, two thousand two", "date", dt.date(2002, 7, 1)),
    ("seven and one-half", "fraction", Fraction(15, 2)),
    ("two-thirds", "fraction", Fraction(2, 3)),
    ("thirtieth", "ordinal", 30),
    ("forty-ninth", "ordinal", 49),
])
def test_words_parse_to_exact_values(words, kind, value):
    assert W.parse(words) == (kind, value)


@pytest.mark.parametrize("words", ["dollars and cents", "ten dollars and one hundred cents", "thousand", "and"])
def test_non_numbers_are_refused(words):
    with pytest.raises(ValueError):
        W.parse(words)


def test_scan_finds_each_phrase_with_its_span():
    text = ("from January first, two thousand twenty-six\nuntil January first, two thousand twenty-seven all "
            "vessels shall pay ten\ndollars and eighty-nine cents per pilotage unit")
    got = [(p.kind, p.value, text[p.start:p.end]) for p in W.scan(text)]
    assert got == [
        ("date", dt.date(2026, 1, 1), "January first, two thousand twenty-six"),
        ("date", dt.date(2027, 1, 1), "January first, two thousand twenty-seven"),
        ("money", Decimal("10.89"), "ten\ndollars and eighty-nine cents"),
    ]


def _say(n: int) -> str:
    units = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
            "seventeen eighteen nineteen".split()
    tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
    parts = []
    if n >= 1000:
        parts.append(_say(n // 1000) + " thousand")
        n %= 1000
    if n >= 100:
        parts.append(units[n // 100] + " hundred")
        n %= 100
    if n >= 20:
        parts.append(tens[n // 10] + (f"-{units[n % 10]}" if n % 10 else ""))
    elif n:
        parts.append(units[n])
    return " ".join(parts)


@given(st.integers(1, 999_999), st.integers(0, 99))
def test_any_amount_said_in_words_parses_back(dollars, cents):
    words = f"{_say(dollars)} dollars" + (f" and {_say(cents)} cents" if cents else "")
    assert W.money(words) == Decimal(dollars) + Decimal(cents) / 100


@pytest.mark.parametrize("cell, units, fee", [
    ("$800", "10", "800"),  # § 88 table (i) row 1
    ("$(11.72 x P.U.)", "300", "3516.00"),
    ("$((P.U. - 500) x 1.57) + 5860", "600", "6017.00"),  # (600-500)*1.57 + 5860
    ("$((( P.U.-500)X.85)+3195)", "600", "3280.00"),  # file 000 (ii): 100*.85 + 3195
    ("$( P.U.X6.20)", "200", "1240.00"),
])
def test_formula_cells_evaluate_exactly(cell, units, fee):
    assert evaluate(parse_formula(cell).expr, Decimal(units)) == Decimal(fee)


def test_unbalanced_formula_is_repaired_and_says_so():
    p = parse_formula("$(P.U.X7.01")  # file 000, § 88 table (iv)
    assert p.repaired == "1 missing closing parenthesis"
    assert describe(p.expr) == "PU × 7.01"


def test_formula_offsets_are_found():
    p = parse_formula("$(((P.U.-500) X .93)+3505)")
    assert [k.value for k in unit_offsets(p.expr)] == [Decimal(500)]


@pytest.mark.parametrize("hostile", ["__import__('os').system('x')", "P.U. ** 2", "eval(1)", "1; import os",
                                     "$(P.U. x 2) or 1"])
def test_anything_but_arithmetic_is_refused(hostile):
    with pytest.raises(FormulaError):
        parse_formula(hostile)
