"""Fee formulas from rate-table cells as a small, closed AST: numbers, the units variable, + - ×.

``parse_formula("$((P.U. - 500) x 1.57) + 5860")`` gives an expression that can be evaluated exactly
(``Decimal``) and rendered as Python source by the code generator. Nothing else is representable, so
nothing from the corpus can reach generated code except numbers (issue: safe code generation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Callable, Union

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError

from navlaw.model import parsers


@dataclass(frozen=True)
class Num:
    value: Decimal
    start: int  # offsets in the cell text
    end: int


@dataclass(frozen=True)
class Units:
    pass


@dataclass(frozen=True)
class Bin:
    op: str  # "+", "-", "*"
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg:
    operand: Expr


Expr = Union[Num, Units, Bin, Neg]


class FormulaError(ValueError):
    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.column = column  # 0-based offset in the cell text


@dataclass(frozen=True)
class Parsed:
    expr: Expr
    repaired: str  # "" or what was supplied, e.g. "a missing ')'"


def _expr(x: object) -> Expr:
    """A child that is an expression (not one of the rule's tokens)."""
    if not isinstance(x, (Num, Units, Bin, Neg)):
        raise ValueError(f"not an expression: {x!r}")
    return x


class _ToAst(Transformer[Token, Expr]):
    def num(self, c: list[Token]) -> Num:
        t = c[0]
        assert t.start_pos is not None and t.end_pos is not None
        return Num(Decimal(str(t).replace(",", "")), t.start_pos, t.end_pos)

    def units(self, c: list[Token]) -> Units:
        return Units()

    def add(self, c: list[Expr]) -> Bin:
        return Bin("+", c[0], c[1])

    def sub(self, c: list[Expr]) -> Bin:
        return Bin("-", c[0], c[1])

    def mul(self, c: list[object]) -> Bin:
        return Bin("*", _expr(c[0]), _expr(c[2]))

    def neg(self, c: list[Expr]) -> Neg:
        return Neg(c[0])

    def pos(self, c: list[Expr]) -> Expr:
        return c[0]

    def atom(self, c: list[Expr]) -> Expr:
        return c[0]


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return parsers.parser("formula", propagate_positions=False)


def _parse(text: str) -> Expr:
    tree = _parser().parse(text)
    out: object = _ToAst().transform(tree)
    if isinstance(out, Tree):  # a bare "$" wrapper the transformer did not collapse
        out = out.children[0]
    return _expr(out)


def parse_formula(text: str) -> Parsed:
    """Parse a cell; a missing closing parenthesis is supplied (and reported via ``repaired``)."""
    try:
        return Parsed(_parse(text), "")
    except LarkError as e:
        missing = text.count("(") - text.count(")")
        if missing > 0:
            try:
                return Parsed(_parse(text + ")" * missing),
                              f"{missing} missing closing parenthes{'is' if missing == 1 else 'es'}")
            except LarkError:
                pass
        column = getattr(e, "column", 1) or 1
        bad = re.search(r"\d[\d,]*,\d[\d,.]*", text)
        if bad is not None and re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", bad.group()) is None:
            raise FormulaError(f"{text!r} is not an amount: {bad.group()!r} is not grouped by threes (write "
                               "\"1,250\" or \"1250\")", bad.start()) from None
        raise FormulaError(f"not a fee formula: {text!r}", max(column - 1, 0)) from None


def evaluate(expr: Expr, units: Decimal) -> Decimal:
    if isinstance(expr, Num):
        return expr.value
    if isinstance(expr, Units):
        return units
    if isinstance(expr, Neg):
        return -evaluate(expr.operand, units)
    a, b = evaluate(expr.left, units), evaluate(expr.right, units)
    return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b


def numbers(expr: Expr) -> list[Num]:
    if isinstance(expr, Num):
        return [expr]
    if isinstance(expr, Units):
        return []
    if isinstance(expr, Neg):
        return numbers(expr.operand)
    return numbers(expr.left) + numbers(expr.right)


def uses_units(expr: Expr) -> bool:
    if isinstance(expr, Units):
        return True
    if isinstance(expr, Num):
        return False
    if isinstance(expr, Neg):
        return uses_units(expr.operand)
    return uses_units(expr.left) or uses_units(expr.right)


def unit_offsets(expr: Expr) -> list[Num]:
    """The k of every ``(units - k)`` in the formula (file 000's "(P.U.-500)" in a 300–474.99 bracket)."""
    if isinstance(expr, Bin):
        here = [expr.right] if expr.op == "-" and isinstance(expr.left, Units) and isinstance(expr.right, Num) else []
        return here + unit_offsets(expr.left) + unit_offsets(expr.right)
    if isinstance(expr, Neg):
        return unit_offsets(expr.operand)
    return []


def to_python(expr: Expr, var: str, const: Callable[[Decimal], str]) -> str:
    """Python source for the expression; ``const`` names each number (a module constant)."""
    if isinstance(expr, Num):
        return const(expr.value)
    if isinstance(expr, Units):
        return var
    if isinstance(expr, Neg):
        return f"-({to_python(expr.operand, var, const)})"
    left = to_python(expr.left, var, const)
    right = to_python(expr.right, var, const)
    if expr.op == "*" and isinstance(expr.left, Bin) and expr.left.op in "+-":
        left = f"({left})"
    if expr.op != "+" and isinstance(expr.right, Bin) and expr.right.op in "+-":
        right = f"({right})"
    return f"{left} {expr.op} {right}"


def describe(expr: Expr, var: str = "PU") -> str:
    """Readable form for notes and the site: "(PU − 500) × 1.57 + 5860"."""
    return to_python(expr, var, lambda d: str(d)).replace("*", "×")
