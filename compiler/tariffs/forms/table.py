"""A units/tariff table: "PILOTAGE UNITS (P.U.) | TARIFF" (or FACTOR | ADJUSTMENT) rows of ranges and
formulas, dated by the words of the provision that holds it."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import Iterator

from navlaw.diagnostics import Severity
from navlaw.model.nodes import Node, Table, section_of
from navlaw.model.formula import Bin, Expr, FormulaError, Units, numbers, parse_formula
from navlaw.model.tariffs import Amount, Bracket, BracketSchedule, Effective
from navlaw.tariffs.reading import Ctx, provisions, prose, start_date


_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"  # grouped by threes or not at all: "1,2,3" is no number
_RANGE_RE = re.compile(r"(?i)^\s*(?:(?P<over>over|more than)\s+(?P<o>" + _NUM + r")"
                       r"|(?P<lo>" + _NUM + r")\s*(?:(?:to|-|–)\s*(?P<hi>" + _NUM + r")"
                       r"|(?P<up>and\s+(?:up|over|above))))\s*$")


def _step(written: str) -> Decimal:
    """The smallest step the number is written to: "49.99" -> 0.01, "50" -> 1."""
    return Decimal(1).scaleb(-len(written.split(".")[1])) if "." in written else Decimal(1)


def _range(text: str) -> tuple[Decimal, Decimal | None, bool, bool, Decimal | None] | None:
    """(low, high, low_inclusive, high_inclusive, written_high) for "25 to 49.99", "1650 and up", "over 100"."""
    m = _RANGE_RE.match(text)
    if not m:
        return None
    if m["over"]:
        return Decimal(m["o"].replace(",", "")), None, False, False, None
    lo = Decimal(m["lo"].replace(",", ""))
    if m["up"]:
        return lo, None, True, False, None
    hi_w = m["hi"].replace(",", "")
    return lo, Decimal(hi_w), True, True, Decimal(hi_w)


def _close_brackets(rows: list[Bracket]) -> list[Bracket]:
    """Read "25 to 49.99" followed by "50 to …" as [25, 50): the interpretation DESIGN.md states."""
    out = []
    for i, b in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        if b.high is not None and b.high_inclusive and nxt is not None and nxt.low_inclusive and \
                nxt.low == b.high + _step(str(b.high)) and "." in str(b.high):
            b = replace(b, high=nxt.low, high_inclusive=False)
        out.append(b)
    return out


def _tables(ctx: Ctx) -> Iterator[tuple[Node, Node, Table, list[str]]]:
    """(section, parent, table, header cells) for every table; a continued table inherits its header."""
    header: list[str] = []
    for section, node in provisions(ctx.doc):
        for c in node.children:
            if isinstance(c, Table):
                if c.header is not None:
                    header = [x.text for x in c.header.cells]
                elif "continued" not in c.flags:
                    header = []
                yield section, node, c, header


def _table_schedule(ctx: Ctx, section: Node, parent: Node, table: Table, header: list[str]) -> BracketSchedule | None:
    sec = section.label
    code_sec = section_of(parent.id) if parent.id else sec
    route = ctx.routes.priced(code_sec)
    upper = [h.upper() for h in header]
    headless = ""
    if not upper and route and "rate table" in parent.text.lower() and table.rows and all(
            len(r.cells) == 2 and _range(r.cells[0].text) is not None for r in table.rows):
        # an act's copy of a table whose header the print left out: its text calls it the rate table, and
        # every row is a range of units and an amount
        upper = ["PILOTAGE UNITS", "TARIFF"]
        headless = ("The table has no header here (an act's text of it); its text calls it the rate table and "
                    "each row is a range of pilotage units and a tariff, so it is read as one.")
    if not upper or "UNITS" not in upper[0]:
        return None
    factor = "FACTOR" in upper and "ADJUSTMENT" in upper
    brackets: list[Bracket] = []
    notes: list[str] = []
    for row in table.rows:
        cells = row.cells
        if len(cells) < 2:
            continue
        rng = _range(cells[0].text)
        if rng is None:
            ctx.diag(Severity.ERROR, cells[0].start, f"rate table row: {cells[0].text!r} is not a range of units",
                     "tariff-range", "expected \"A to B\", \"A and up\" or \"over A\"")
            continue
        lo, hi, lo_inc, hi_inc, _ = rng
        amounts: list[Amount] = []
        if factor and len(cells) >= 3:
            f_cell, a_cell = cells[1], cells[2]
            try:
                fv = parse_formula(f_cell.text).expr
                av = parse_formula(a_cell.text).expr
            except FormulaError as e:
                ctx.diag(Severity.ERROR, f_cell.start, str(e), "tariff-formula")
                continue
            fee: Expr = Bin("+", Bin("*", Units(), fv), av)
            for cell, read in ((f_cell, fv), (a_cell, av)):
                for n in numbers(read):
                    amounts.append(ctx.amount(n.value, cell.start + n.start, cell.start + n.end))
            written = f"{f_cell.text} × P.U. {a_cell.text}"
            fee_cell = f_cell
        else:
            fee_cell = cells[1]
            try:
                parsed = parse_formula(fee_cell.text)
            except FormulaError as e:
                ctx.diag(Severity.ERROR, fee_cell.start + e.column, f"rate table cell: {e}", "tariff-formula",
                         "a tariff cell holds an amount or a formula of P.U., numbers, + - x and parentheses")
                continue
            if parsed.repaired:
                ctx.diag(Severity.WARNING, fee_cell.start + len(fee_cell.text) - 1,
                         f"unbalanced parentheses in {fee_cell.text!r}: read with {parsed.repaired} supplied",
                         "tariff-parentheses")
                notes.append(f"Row {cells[0].text!r}: the formula {fee_cell.text!r} lacks {parsed.repaired}; "
                             f"read as if supplied.")
            fee = parsed.expr
            amounts = [ctx.amount(n.value, fee_cell.start + n.start, fee_cell.start + n.end) for n in numbers(fee)]
            written = fee_cell.text
        brackets.append(Bracket(lo, hi, lo_inc, hi_inc, fee, cells[0].text, written, tuple(amounts),
                                ctx.src(cells[0].start, cells[0].end)))
    if not brackets:
        return None
    brackets = _close_brackets(brackets)
    prov = parent
    pid = prov.id or section.id
    off, end = next(prose(prov))
    eff = start_date(ctx, prov, ctx.text[off:end], off)
    title = f"Rate table, {prov.citation or section.citation}"
    if headless:
        notes.append(headless)
    if factor:
        notes.append("FACTOR/ADJUSTMENT table: fee = FACTOR × P.U. + ADJUSTMENT.")
    notes.append("Brackets such as \"25 to 49.99\" are read as half-open intervals [25, 50).")
    return BracketSchedule(
        id=f"{route or 'table'}/{pid}/table-{table.line}", kind="brackets", route=route, series=f"{route}/base",
        title=title, provision=pid, citation=prov.citation or section.citation, file=ctx.doc.file, effective=eff,
        status=ctx.status, notes=tuple(notes), brackets=tuple(brackets))


def read_document(ctx: Ctx) -> Iterator[BracketSchedule]:
    """Every rate table of the document; a second table under one provision is listed but not dated."""
    tabled: set[str] = set()
    for section, parent, table, header in _tables(ctx):
        s = _table_schedule(ctx, section, parent, table, header)
        if s is None:
            continue
        if s.provision in tabled:  # file 000's § 88(4)(b)(1)(ii)(1)(A)(iv) holds a second, garbled table
            ctx.diag(Severity.WARNING, table.start, f"a second rate table under {s.citation}: the text does not say "
                     "which one applies; this one is listed but not dated", "tariff-second-table")
            s = replace(s, effective=Effective(None, None, "unresolved", f"a second rate table under {s.citation}; "
                                               "the text does not say which one applies"),
                        notes=s.notes + ("A second table under the same clause: not dated, so never quoted.",))
        tabled.add(s.provision)
        yield s
