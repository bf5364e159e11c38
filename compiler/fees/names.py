"""Names and literals in the generated fee module: Python identifiers made from provision ids and route
names, constants' roles in a formula, and corpus text turned into ``repr()`` literals or safe comments,
never into code (compiler/fees/generate.py)."""

from __future__ import annotations

import re

from navlaw.model.formula import Bin, Expr, Num, Units, numbers
from navlaw.model.tariffs import BracketSchedule


def ident(text: str, own: str) -> str:
    """A Python identifier from a provision id, ``own`` naming the corpus's own chapter (its key in the
    table of codes): "88/4/b/1/ii/1/A/v" -> "NAV_88_4_B_1_II_1_A_V", "21nycrr/55.2/a" -> "NYCRR_21_55_2_A"."""
    m = re.match(r"(\d+)([a-z]+)/(.*)", text)
    head, rest = (f"{m[2]}_{m[1]}", m[3]) if m else (own, text)
    return re.sub(r"[^A-Za-z0-9]+", "_", f"{head}_{rest}").strip("_").upper()


def pystr(text: str) -> str:
    return repr(text)


class V(str):
    """A run-time value in a generated description (a variable of the generated code, never corpus text)."""


def text(*parts: str) -> str:
    """A Python expression for a description: literal parts (which may hold corpus text) become
    ``repr()`` literals, :class:`V` parts ``str(value)``; so no corpus text is ever parsed as code."""
    return " + ".join(f"str({p})" if isinstance(p, V) else repr(p) for p in parts if p)


def comment(text: str) -> str:
    """Corpus text made safe for a ``#`` comment: one line, no control characters."""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", text)


def docstring(text: str) -> str:
    """Corpus text made safe inside a triple-quoted docstring: backslashes and quotes escaped."""
    return re.sub(r"[\x00-\x09\x0b-\x1f\x7f]+", " ", text).replace("\\", "\\\\").replace('"', '\\"')


def constant_roles(expr: Expr) -> list[str]:
    if isinstance(expr, Num):
        return ["AMOUNT"]
    if isinstance(expr, Bin) and expr.op == "*" and {type(expr.left), type(expr.right)} == {Units, Num}:
        return ["RATE"]
    if (isinstance(expr, Bin) and expr.op == "+" and isinstance(expr.left, Bin) and expr.left.op == "*"
            and isinstance(expr.left.left, Bin) and expr.left.left.op == "-" and isinstance(expr.left.left.left, Units)
            and isinstance(expr.left.left.right, Num) and isinstance(expr.left.right, Num) and isinstance(expr.right, Num)):
        return ["OFFSET", "RATE", "BASE"]
    if (isinstance(expr, Bin) and expr.op == "+" and isinstance(expr.left, Bin) and expr.left.op == "*"
            and isinstance(expr.right, Num)):
        return ["FACTOR", "ADJUSTMENT"]
    return [f"N{i}" for i in range(1, len(numbers(expr)) + 1)]


def prefixes(schedules: list[BracketSchedule], own: str) -> dict[str, str]:
    """A unique constant prefix per schedule: its provision, then its route and start date when the
    provision holds more than one ("NAV_89_B_4_B_1_FROM_2026_01_01", "NAV_89_A_4_B_1_VII_HUDSON_UPPER")."""
    by_prov: dict[str, list[BracketSchedule]] = {}
    for s in schedules:
        by_prov.setdefault(s.provision, []).append(s)
    out = {}
    for prov, group in by_prov.items():
        routes = {s.route for s in group}
        for s in group:
            name = ident(prov, own)
            if len(routes) > 1:
                name += "_" + ident_plain(s.route)
            if sum(1 for x in group if x.route == s.route) > 1 and s.effective.start is not None:
                name += "_FROM_" + s.effective.start.strftime("%Y_%m_%d")
            out[s.id] = name
    return out


def ident_plain(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").upper()
