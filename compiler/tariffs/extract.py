"""Extracts tariffs from the section trees: rate tables, prose fee schedules, board-set fees, penalties.

Extractors read the tree (nodes with ids and spans of the normalized text), never the raw file; every
number they keep is an :class:`~compiler.tariffs.Amount` whose :class:`~compiler.tariffs.Source`
slices the raw file at the characters it came from. Dates come from the text ("Effective January
first, two thousand twenty-two"), from manifest anchors for relative phrases ("twelve months after
the effective date of this clause"), or from manifest fragments; anything else stays unresolved.

The extractors know the *forms* the statute uses (a units/tariff table, "All vessels … shall pay $X per
pilotage unit for Section N", "N percent of the Zone 2 Base Rate", "for each vessel over X and not over
Y tons burden, Z dollars" …), not the values: a new table in one of these forms is read the same way.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from pathlib import Path
from decimal import Decimal
from typing import Iterator

from compiler.frontend import numbers as W
from compiler.cache import BuildCache
from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.tariffs.formula import Bin, Expr, FormulaError, Num, Units, numbers, parse_formula
from compiler.frontend.corpus import Compiled, Corpus
from compiler.frontend.manifest import Entry
from compiler.tariffs.routes import RouteTable
from compiler.tariffs.model import (OPTION_TITLES, AnyTariff, Amount, BoardSet, Bracket, BracketSchedule, Effective, FlatFee, FractionOfRate,
                      Penalty, Percentage, PerUnitFee, Source, TimeFee)
from compiler.frontend.tree import Document, Node, Table, Text, lineage, section_of

def _rx(pattern: str) -> re.Pattern[str]:
    """Compile with every literal space matching any run of white space (law text wraps anywhere), and
    every lazy run of a character class bounded (``[a-z ]+?`` -> ``{1,200}?``, ``*?`` -> ``{0,400}?``):
    the words between two key phrases ("shall pay … dollars") are a few dozen characters, and an
    unbounded lazy scan from every start makes text that repeats the first phrase quadratic."""
    out, in_class, prev = [], False, ""
    for ch in pattern:
        if ch == "[" and prev != "\\":
            in_class = True
        elif ch == "]" and prev != "\\":
            in_class = False
        out.append(("\\s" if in_class else "\\s+") if ch == " " else ch)
        prev = ch
    text = "".join(out)
    text = re.sub(r"(?<!\\)\]\+\?", "]{1,200}?", text)
    text = re.sub(r"(?<!\\)\]\*\?", "]{0,400}?", text)
    return re.compile(text)




# ---- context ----------------------------------------------------------------------------------------

@dataclass
class Ctx:
    """What an extractor needs about the document it reads."""

    compiled: Compiled
    diags: Diagnostics
    routes: RouteTable = RouteTable()

    @property
    def doc(self) -> Document:
        return self.compiled.document

    @property
    def entry(self) -> Entry | None:
        return self.compiled.entry

    @property
    def text(self) -> str:
        assert self.doc.normal is not None
        return self.doc.normal.text

    @property
    def status(self) -> str:
        s = self.entry.status if self.entry else "in-force"
        return s if s in ("superseded", "adopted", "proposed") else "in-force"

    def src(self, start: int, end: int) -> Source:
        nt = self.doc.normal
        assert nt is not None
        rs, re_ = nt.raw_offset(start), nt.raw_offset(end)
        line, col = nt.raw_linecol(start)
        return Source(self.doc.file, rs, re_, line, col, nt.raw[rs:re_])

    def amount(self, value: Decimal, start: int, end: int) -> Amount:
        return Amount(value, self.src(start, end))

    def diag(self, severity: Severity, start: int, message: str, code: str, hint: str = "") -> None:
        nt = self.doc.normal
        assert nt is not None
        line, col = nt.raw_linecol(start)
        self.diags.add(Diagnostic(severity, message, self.doc.file, line, col, nt.raw_line(line), code, hint))

    def fragment(self, node_id: str):  # type: ignore[no-untyped-def]
        if not self.entry:
            return None
        return next((f for f in self.entry.fragments if f.covers == node_id), None)


def _prose(node: Node) -> Iterator[tuple[int, int]]:
    """Spans of the node's own words: its label line and continuation, and its Text children (and
    dot-leader rows, which are sentences with a leader: "Up to 50 pilotage units ..... $1090.26").
    Consecutive spans are merged: a sentence may run from the label line into a leader row."""
    start, end = node.start, node.end
    for c in node.children:
        if isinstance(c, Text) or (isinstance(c, Table) and c.style == "leader"):
            if c.start == end:
                end = c.end
                continue
            yield start, end
            start, end = c.start, c.end
    yield start, end


def _provisions(doc: Document) -> Iterator[tuple[Node, Node]]:
    """(section, node) for every section and provision, in document order."""
    section: Node | None = None
    for n in doc.walk():
        if n.kind == "section":
            section = n
        if n.kind in ("section", "provision") and section is not None:
            yield section, n


# ---- dates ------------------------------------------------------------------------------------------

def add_months(d: dt.date, months: int) -> dt.date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    last = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30,
            31, 30, 31][month - 1]
    return dt.date(year, month, min(d.day, last))


_RELATIVE_RE = _rx(
    r"(?i)(?P<n>[a-z]+(?:-[a-z]+)?)\s+(?P<unit>months?|days?)\s+(?:after|following)\s+the\s+"
    r"(?P<anchor>effective\s+date\s+of\s+(?:this|the)\s+[a-z ]+?)(?=[,.:;]|\s+the\s+following|\s+and\b)")
_UPON_RE = _rx(r"(?i)\b(?:upon|on)\s+the\s+(?P<anchor>effective\s+date\s+of\s+this\s+[a-z]+)")
_EFFECTIVE_RE = _rx(r"(?i)\b(?:effective|on\s+and\s+after|beginning(?:\s+on)?|from)\s+$")
_IMMEDIATELY_RE = _rx(r"(?i)\beffective\s+immediately\b")
_EVENT_RE = _rx(r"(?i)\bon\s+and\s+after\s+the\s+date\s+of\s+receipt\b")


def _anchor(ctx: Ctx, phrase: str) -> tuple[dt.date, str, str] | None:
    want = " ".join(phrase.lower().split())
    for a in ctx.entry.anchors if ctx.entry else ():
        if " ".join(a.phrase.lower().split()) == want:
            return a.date, a.source, a.confidence
    return None


def start_date(ctx: Ctx, node: Node, text: str, offset: int) -> Effective:
    """The start date a provision's words give (``text`` begins at normalized ``offset``); the phrase
    that comes first wins ("Upon the effective date of this paragraph …; from January first, 2023 …")."""
    head = text[:400]
    found: list[tuple[int, Effective]] = []
    for p in W.scan(head):
        if p.kind == "date" and _EFFECTIVE_RE.search(head[max(0, p.start - 30):p.start]):
            assert isinstance(p.value, dt.date)
            found.append((p.start, Effective(p.value, None, "text", p.text,
                                             source=ctx.src(offset + p.start, offset + p.end))))
            break
    m = _RELATIVE_RE.search(head)
    if m:
        try:
            kind, n = W.parse(m["n"])
        except ValueError:
            kind, n = "", 0
        phrase = " ".join(m.group(0).split())
        where = ctx.src(offset + m.start(), offset + m.end())
        anchor = " ".join(m["anchor"].split())
        if kind in ("cardinal", "ordinal") and isinstance(n, int):
            hit = _anchor(ctx, anchor)
            if hit:
                day, source, conf = hit
                d = add_months(day, n) if m["unit"].lower().startswith("month") else day + dt.timedelta(days=n)
                found.append((m.start(), Effective(d, None, "anchor", f"{phrase} ({anchor} = {day}: {source})",
                                                   confidence=conf, source=where)))
            else:
                found.append((m.start(), Effective(None, None, "unresolved",
                                                   f"{phrase}: the manifest gives no date for \"{anchor}\"",
                                                   source=where)))
    m2 = _UPON_RE.search(head)
    if m2:
        where = ctx.src(offset + m2.start(), offset + m2.end())
        anchor = " ".join(m2["anchor"].split())
        hit = _anchor(ctx, anchor)
        if hit:
            day, source, conf = hit
            found.append((m2.start(), Effective(day, None, "anchor", f"{' '.join(m2.group(0).split())} ({day}: {source})",
                                                confidence=conf, source=where)))
        else:
            found.append((m2.start(), Effective(None, None, "unresolved",
                                                f"the manifest gives no date for \"{anchor}\"", source=where)))
    m3 = _IMMEDIATELY_RE.search(head)
    if m3:
        found.append((m3.start(), Effective(
            None, None, "unresolved", "\"Effective immediately\": the date the amending act took effect is not in "
            "the corpus", source=ctx.src(offset + m3.start(), offset + m3.end()))))
    m4 = _EVENT_RE.search(head)
    if m4:
        found.append((m4.start(), Effective(
            None, None, "unresolved", "from an event (the board's receipt of a joint request) whose date is not in "
            "the corpus", source=ctx.src(offset + m4.start(), offset + m4.end()))))
    if found:
        return min(found, key=lambda f: f[0])[1]
    return _default_start(ctx, node)


def _default_start(ctx: Ctx, node: Node) -> Effective:
    """No date in the words: a manifest fragment's date, else the document's, else unresolved."""
    for n_id in lineage(node.id):
        frag = ctx.fragment(n_id)
        if frag is not None:
            if frag.effective:
                return Effective(frag.effective, None, "manifest", f"corpus/manifest.toml fragment {n_id}",
                                 confidence=frag.confidence)
            return Effective(None, None, "unresolved", f"no date in the text; manifest fragment {n_id} gives none"
                             + (f" ({frag.note})" if frag.note else ""))
    e = ctx.entry
    if e and e.effective:
        return Effective(e.effective, None, "manifest", f"corpus/manifest.toml: {e.file} effective", confidence=e.confidence)
    return Effective(None, None, "unresolved",
                     f"no date in the text, and the manifest gives none for {Path(ctx.doc.file).name}")


# ---- rate tables ------------------------------------------------------------------------------------

_RANGE_RE = re.compile(r"(?i)^\s*(?:(?P<over>over|more than)\s+(?P<o>\d[\d,]*(?:\.\d+)?)"
                       r"|(?P<lo>\d[\d,]*(?:\.\d+)?)\s*(?:(?:to|-|–)\s*(?P<hi>\d[\d,]*(?:\.\d+)?)"
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
    for section, node in _provisions(ctx.doc):
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
            for cell, e in ((f_cell, fv), (a_cell, av)):
                for n in numbers(e):
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
    off, end = next(_prose(prov))
    eff = start_date(ctx, prov, ctx.text[off:end], off)
    title = f"Rate table, {prov.citation or section.citation}"
    if factor:
        notes.append("FACTOR/ADJUSTMENT table: fee = FACTOR × P.U. + ADJUSTMENT.")
    notes.append("Brackets such as \"25 to 49.99\" are read as half-open intervals [25, 50).")
    return BracketSchedule(
        id=f"{route or 'table'}/{pid}/table-{table.line}", kind="brackets", route=route, series=f"{route}/base",
        title=title, provision=pid, citation=prov.citation or section.citation, file=ctx.doc.file, effective=eff,
        status=ctx.status, notes=tuple(notes), brackets=tuple(brackets))


# ---- percentages, board-set fees, surcharges written in prose --------------------------------------------

_PLUS_PERCENT_RE = _rx(r"(?i)plus\s+(?P<words>[a-z\- ]+?)\s*\((?P<num>\d+(?:\.\d+)?)%?\)\s*percent\s+of\s+the\s+"
                              r"calculated\s+fee")
_BOARD_CAP_RE = _rx(r"(?i)(?:may\s+set\s+the\s+rate\s+)?not\s+to\s+exceed\s+(?P<m>[a-z\- ]+?dollars)\s+per\s+ship")
_BOARD_INITIAL_RE = _rx(r"(?i)by\s+not\s+more\s+than\s+(?P<m>[a-z\- ]+?dollars)\s+per\s+ship")


_SURCHARGE_BOARD_RE = _rx(r"(?P<who>(?:[A-Z][a-z]{1,30} ){1,6}(?:[a-z]{1,30} ){0,4}surcharge board)")


def _calculated_fee_prose(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"plus seven and one-half (7.5%) percent of the calculated fee"; a surcharge the board sets,
    "not to exceed three hundred dollars per ship" (and its initial increase)."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        for m in _PLUS_PERCENT_RE.finditer(text):
            pct = ctx.amount(Decimal(m["num"]), start + m.start("num"), start + m.end("num"))
            yield Percentage(
                id=f"{route}/{node.id}/addition", kind="percentage", route=route,
                series=f"{route}/addition", title=f"{m['num']}% of the calculated fee",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rate tables of the same text"),
                status=ctx.status, notes=(f"Added to the fee calculated from the rate table (\"plus {m['words']} "
                                          f"({m['num']}%) percent of the calculated fee\"), taken of that fee "
                                          "rounded to cents.",),
                percent=pct, of="calculated-fee")
        for rx, label in ((_BOARD_CAP_RE, "cap"), (_BOARD_INITIAL_RE, "initial")):
            for m in rx.finditer(text):
                try:
                    value = W.money(m["m"].split(" not to exceed ")[-1].strip())
                except ValueError:
                    continue
                cap = ctx.amount(value, start + m.start("m"), start + m.end("m"))
                board = _SURCHARGE_BOARD_RE.search(text)
                who = " ".join(board["who"].split()) if board else "board"
                yield BoardSet(
                    id=f"{route}/{node.id}/capital-expense-surcharge" + ("" if label == "cap" else "-initial"),
                    kind="board-set", route=route,
                    series=f"{route}/capital-expense-surcharge" + ("" if label == "cap" else "-initial"),
                    title="Capital expense fund surcharge" + (" (initial increase)" if label == "initial" else ""),
                    provision=node.id, citation=node.citation, file=ctx.doc.file, effective=_default_start(ctx, node),
                    status=ctx.status,
                    notes=((f"The {who} sets the rate; the law only caps it. navlaw does not add it to quotes."),),
                    who=who, cap=cap, cap_unit="per ship")


_PER_UNIT_RE = _rx(r"(?i)All vessels of (?P<lo>\d+) pilotage units and over shall pay (?:a base pilotage rate of )?"
                          r"(?:\.{3,}|\s)*\s*\$?\s?(?P<rate>\d+(?:\.\d+)?) per pilotage unit for Section (?P<sec>\d)")
_FLAT_RE = _rx(r"(?i)applicable to Section (?P<sec>\d)[^:]*:\s*Up to (?P<a>\d+) pilotage units\s*(?:\.{3,}|\s)*\s*"
                      r"\$(?P<a_fee>\d+(?:\.\d+)?)\s*More than (?P<b_lo>\d+) and up to (?P<b>\d+) pilotage units\s*"
                      r"(?:\.{3,}|\s)*\s*\$(?P<b_fee>\d+(?:\.\d+)?)")
_MAX_RE = _rx(r"(?i)A maximum charge of up to (?P<max>\d+) pilotage units shall be applicable")
_SECOND_PILOT_RE = _rx(r"(?i)the fee shall be the regular pilotage fee plus (?P<w>[a-z\- ]+?) percent for the "
                              r"second pilot")
_BOARD_FEE_RE = _rx(r"(?i)The (?P<what>(?:mid-river )?launch fee|communication fee) shall be set by the "
                           r"(?P<who>board of commissioners of pilots)")


def _per_unit_by_part(ctx: Ctx, priced: str, node: Node) -> Iterator[AnyTariff]:
    """"All vessels of 100 pilotage units and over shall pay $X per pilotage unit for Section N", with
    flat charges up to 50 and over 50 up to 100, and "a maximum charge of up to N pilotage units": one
    schedule per route the words "Section N" select (the route table's selectors)."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        per_unit = list(_PER_UNIT_RE.finditer(text))
        if not per_unit:
            continue
        eff = start_date(ctx, node, text, start)
        parts: dict[str, dict[str, object]] = {}
        events = sorted([(m.start(), "rate", m) for m in per_unit] +
                        [(m.start(), "flat", m) for m in _FLAT_RE.finditer(text)] +
                        [(m.start(), "max", m) for m in _MAX_RE.finditer(text)], key=lambda e: e[0])
        current = ""
        for _, what, m in events:
            if what == "max":
                if current:
                    parts[current]["max"] = ctx.amount(Decimal(m["max"]), start + m.start("max"), start + m.end("max"))
                continue
            current = m["sec"]
            parts.setdefault(current, {})[what] = m
        for sec, got in sorted(parts.items()):
            route = ctx.routes.select(priced, f"Section {sec}")
            rate_m = got.get("rate")
            if not route or rate_m is None:
                continue
            assert isinstance(rate_m, re.Match)
            notes = []
            rate = ctx.amount(Decimal(rate_m["rate"]), start + rate_m.start("rate"), start + rate_m.end("rate"))
            if not text[rate_m.start("rate") - 1:rate_m.start("rate")] == "$":
                notes.append(f"The rate {rate_m['rate']} is written without a dollar sign; read as dollars.")
            lo100 = Decimal(rate_m["lo"])
            brackets: list[Bracket] = []
            flat = got.get("flat")
            if isinstance(flat, re.Match):
                a, b_lo, b = Decimal(flat["a"]), Decimal(flat["b_lo"]), Decimal(flat["b"])
                fa = ctx.amount(Decimal(flat["a_fee"]), start + flat.start("a_fee"), start + flat.end("a_fee"))
                fb = ctx.amount(Decimal(flat["b_fee"]), start + flat.start("b_fee"), start + flat.end("b_fee"))
                brackets.append(Bracket(Decimal(0), a, True, True, Num(fa.value, 0, 0), f"Up to {flat['a']}",
                                        f"${flat['a_fee']}", (fa,), ctx.src(start + flat.start("a"), start + flat.end("a"))))
                brackets.append(Bracket(b_lo, b, False, True, Num(fb.value, 0, 0),
                                        f"More than {flat['b_lo']} and up to {flat['b']}", f"${flat['b_fee']}", (fb,),
                                        ctx.src(start + flat.start("b_lo"), start + flat.end("b"))))
            else:
                notes.append("No flat charges under 100 units are stated for this section in this clause.")
            overlap = bool(brackets) and brackets[-1].high == lo100
            reading = (f"\"up to {lo100}\" and \"{lo100} pilotage units and over\" overlap at exactly {lo100}: "
                       f"read as the flat charge at {lo100} and the per-unit rate above it") if overlap else ""
            brackets.append(Bracket(lo100, None, not overlap, False, Bin("*", Num(rate.value, 0, 0), Units()),
                                    f"{rate_m['lo']} and over", f"${rate_m['rate']} per pilotage unit", (rate,),
                                    ctx.src(start + rate_m.start("lo"), start + rate_m.end("lo")), reading))
            if overlap:
                notes.append(f"At exactly {lo100} pilotage units the flat \"more than 50 and up to {lo100}\" charge "
                             f"applies; the per-unit rate for \"{lo100} pilotage units and over\" applies above it "
                             "(the two overlap at 100).")
            mx = got.get("max")
            if mx is None:
                notes.append("No maximum number of pilotage units is stated for this section in this clause.")
            found = ctx.routes.get(route)
            name = found.part if found is not None and found.part else f"Section {sec}"
            yield BracketSchedule(
                id=f"{route}/{node.id}", kind="brackets", route=route, series=f"{route}/base",
                title=f"Base pilotage, {name}, {node.citation}", provision=node.id, citation=node.citation,
                file=ctx.doc.file, effective=eff, status=ctx.status, notes=tuple(notes), brackets=tuple(brackets),
                max_units=mx if isinstance(mx, Amount) else None)


def _second_pilot_and_board_fees(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"the regular pilotage fee plus fifty percent for the second pilot"; "The launch fee shall be set
    by the board of commissioners of pilots"."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        for m in _SECOND_PILOT_RE.finditer(text):
            try:
                kind, value = W.parse(m["w"])
            except ValueError:
                continue
            pct = ctx.amount(Decimal(int(value)), start + m.start("w"), start + m.end("w"))  # type: ignore[arg-type]
            hours = re.search(r"(?i)continuous pilotage of more than (?P<h>[a-z\- ]{1,200}?) hours", text)
            cond = f" (a continuous pilotage of more than {hours['h']} hours)" if hours else ""
            yield Percentage(
                id=f"{route}/{node.id}/second-pilot", kind="percentage", route=route, series=f"{route}/second-pilot",
                title="Second pilot", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the base pilotage rates of the same text"),
                status=ctx.status,
                notes=(f"When two pilots are assigned{cond}, the fee is the regular pilotage fee plus {value}% for "
                       "the second pilot; not when the first pilot is relieved at the mid-river station.",),
                percent=pct, of="regular-fee", option="second_pilot")
        for m in _BOARD_FEE_RE.finditer(text):
            what = m["what"].lower()
            yield BoardSet(
                id=f"{route}/{node.id}/{what.replace(' ', '-')}", kind="board-set", route=route,
                series=f"{route}/{what.replace(' ', '-')}", title=what.capitalize(), provision=node.id,
                citation=node.citation, file=ctx.doc.file, effective=Effective(None, None, "with",
                                                                              "in force with the same text"),
                status=ctx.status, notes=(f"The {what} is set by the board of commissioners of pilots; its amount is "
                                          "not in the statute.",),
                who="board of commissioners of pilots")


_SURCHARGE_RE = _rx(
    r"(?i)PILOTAGE UNITS SURCHARGE\s+(?P<a_lo>\d+)\s*(?:to|-)\s*(?P<a_hi>\d+)\s+\$\s?(?P<a>\d+(?:\.\d+)?)\s+"
    r"(?P<b_lo>\d+)\s*(?:to|-)\s*(?P<b_hi>\d+)\s+\$\s?(?P<b>\d+(?:\.\d+)?)\s+over\s+(?P<c_lo>\d+)\s+\$\s?"
    r"(?P<c>\d+(?:\.\d+)?)\s+per pilot unit\s+(?P<when>during the [^.]+?after the (?P<anchor>effective date of this "
    r"[a-z]+))\.")
_PERIOD_RE = _rx(r"(?i)during the (?:first (?P<first>[a-z\-]+) months|period beginning with the "
                        r"(?P<from>[a-z\-]+) month and ending with the (?P<to>[a-z\-]+) month)")


def _surcharge_periods(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"PILOTAGE UNITS SURCHARGE 0 to 50 $X 51 to 100 $Y over 100 $Z per pilot unit during the first
    twelve months after the effective date of this subparagraph": one schedule per period, dated from
    the manifest's anchor."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        for i, m in enumerate(_SURCHARGE_RE.finditer(text), 1):
            def amt(g: str) -> Amount:
                return ctx.amount(Decimal(m[g]), start + m.start(g), start + m.end(g))

            a, b, c = amt("a"), amt("b"), amt("c")
            brackets = (
                Bracket(Decimal(m["a_lo"]), Decimal(m["a_hi"]), True, True, Num(a.value, 0, 0),
                        f"{m['a_lo']} to {m['a_hi']}", f"${m['a']}", (a,), ctx.src(start + m.start("a_lo"), start + m.end("a_hi"))),
                Bracket(Decimal(m["b_lo"]), Decimal(m["b_hi"]), True, True, Num(b.value, 0, 0),
                        f"{m['b_lo']} to {m['b_hi']}", f"${m['b']}", (b,), ctx.src(start + m.start("b_lo"), start + m.end("b_hi"))),
                Bracket(Decimal(m["c_lo"]), None, False, False, Bin("*", Num(c.value, 0, 0), Units()),
                        f"over {m['c_lo']}", f"${m['c']} per pilot unit", (c,), ctx.src(start + m.start("c_lo"), start + m.end("c_lo"))),
            )
            when = " ".join(m["when"].split())
            hit = _anchor(ctx, m["anchor"])
            p = _PERIOD_RE.search(when)
            eff = Effective(None, None, "unresolved", f"{when}: the manifest gives no date for \"{m['anchor']}\"",
                            end_basis="unresolved", end_phrase=when, source=ctx.src(start + m.start("when"), start + m.end("when")))
            if hit and p:
                first = W.parse(p["first"])[1] if p["first"] else None
                lo_m = 0 if first else int(W.parse(p["from"])[1]) - 1  # type: ignore[call-overload]
                hi_m = int(first) if first else int(W.parse(p["to"])[1])  # type: ignore[call-overload]
                eff = Effective(add_months(hit[0], lo_m), add_months(hit[0], hi_m), "anchor", when, "anchor", when,
                                hit[2], eff.source)
            yield BracketSchedule(
                id=f"{route}/{node.id}/surcharge-period-{i}", kind="brackets", route=route,
                series=f"{route}/retirement-surcharge", title=f"Retirement surcharge, period {i}",
                provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
                notes=("\"$X per pilot unit\" over 100 units is read as X times all of the vessel's pilotage units "
                       "(it continues the flat amount at 100).",
                       "Ranges \"0 to 50\" and \"51 to 100\" are written in whole units: a vessel of 50.5 units "
                       "falls between them."),
                brackets=brackets)


# ---- rates in words ---------------------------------------------------------------------------------------

def _rates_in_words(ctx: Ctx, route: str, node: Node) -> Iterator[BracketSchedule]:
    """"from January first, 2023 until January first, 2024 all vessels shall pay nine dollars and
    ninety-seven cents per pilotage unit; …" — one schedule per clause, dates and money in words."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        if not re.search(r"(?i)shall\s+pay\s+(?:[a-z-]+\s+){1,16}?per\s+pilotage\s+unit", text):
            continue
        pos = 0
        lead = start_date(ctx, node, text, start)
        for i, clause in enumerate(re.split(r";", text)):
            c_start = start + pos
            pos += len(clause) + 1
            phrases = W.scan(clause)
            money = [p for p in phrases if p.kind == "money" and
                     re.match(r"\s+per\s+pilotage\s+unit", clause[p.end:p.end + 30])]
            if not money:
                continue
            rate_p = money[0]
            rate = ctx.amount(rate_p.value, c_start + rate_p.start, c_start + rate_p.end)  # type: ignore[arg-type]
            dates = [p for p in phrases if p.kind == "date"]
            eff = lead if i == 0 else None
            s_date = e_date = None
            for p in dates:
                before = clause[max(0, p.start - 25):p.start].lower()
                if "until" in before:
                    e_date = p
                elif "from" in before or "on and after" in " ".join(before.split()) or "after" in before:
                    s_date = p
            if s_date is not None:
                eff = Effective(s_date.value, e_date.value if e_date else None, "text",  # type: ignore[arg-type]
                                " ".join(clause[max(0, s_date.start - 13):s_date.end].split()),
                                "text" if e_date else "open",
                                " ".join(e_date.text.split()) if e_date else "", "verified",
                                ctx.src(c_start + s_date.start, c_start + s_date.end))
            if eff is None:
                eff = _default_start(ctx, node)
            yield BracketSchedule(
                id=f"{route}/{node.id}/{i + 1}", kind="brackets", route=route,
                series=f"{route}/base", title=f"Pilotage per unit, {node.citation}",
                provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
                notes=(), brackets=(Bracket(Decimal(0), None, True, False, Bin("*", Num(rate.value, 0, 0), Units()),
                                            "all vessels", " ".join(rate_p.text.split()) + " per pilotage unit",
                                            (rate,), rate.source),))


_MIN_RE = _rx(r"(?i)A (?P<which>minimum|maximum) charge calculated on (?P<n>[a-z\- \n]+?) pilotage units")
_MILES_RE = _rx(r"(?i)piloted for less than (?P<n>[a-z\- \n]+?) miles shall pay a transporting charge equal to "
                       r"(?P<f>[a-z\- \n]+?) of the statutory rate")
_HOURLY_RE = _rx(r"(?i)detained on board a vessel at berth for more than (?P<after>[a-z\- \n]+?) hours shall be "
                        r"paid at the rate of (?P<m>[a-z\- \n]+?dollars) per hour(?P<part> or fraction thereof)?")
_DAILY_RE = _rx(r"(?i)pilot carried off on board a vessel[^.]*? shall be paid (?P<m>[a-z\- \n]+?dollars) per day")


def _clamps_and_time_fees(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff | tuple[str, Amount]]:
    """"A minimum charge calculated on N pilotage units" (a ("minimum", N) pair, applied to the route's
    base schedules); the transporting charge, detention by the hour and carried-off days."""
    for start, end in _prose(node):
        text = ctx.text[start:end]
        for m in _MIN_RE.finditer(text):
            try:
                n = W.parse(m["n"])[1]
            except ValueError:
                continue
            yield (m["which"].lower(), ctx.amount(Decimal(n), start + m.start("n"), start + m.end("n")))  # type: ignore[arg-type]
        for m in _MILES_RE.finditer(text):
            try:
                miles = W.parse(m["n"])[1]
                frac = W.parse(m["f"])[1]
            except ValueError:
                continue
            yield FractionOfRate(
                id=f"{route}/{node.id}/transporting-charge", kind="fraction", route=route,
                series=f"{route}/transporting-charge", title=f"Transporting charge (under {miles} miles)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("\"Two-thirds of the statutory rate\" is charged instead of the pilotage fee: two-thirds of "
                       "the fee at the statutory rate (with the unit minimum and maximum), rounded once.",),
                numerator=frac.numerator, denominator=frac.denominator,  # type: ignore[union-attr]
                fraction_source=ctx.src(start + m.start("f"), start + m.end("f")),
                condition_miles=ctx.amount(Decimal(miles), start + m.start("n"), start + m.end("n")),  # type: ignore[arg-type]
                option="miles")
        for m in _HOURLY_RE.finditer(text):
            try:
                after = W.parse(m["after"])[1]
                money = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"{route}/{node.id}/detention", kind="time", route=route,
                series=f"{route}/detention", title="Pilot detained on board (per hour)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("Read as: once the detention exceeds two hours, every hour of it is paid, a part of an hour "
                       "counting as an hour.",),
                amount=ctx.amount(money, start + m.start("m"), start + m.end("m")), per="hour",
                after=ctx.amount(Decimal(after), start + m.start("after"), start + m.end("after")),  # type: ignore[arg-type]
                part_counts=bool(m["part"]), option="detention_hours")
        for m in _DAILY_RE.finditer(text):
            try:
                money = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"{route}/{node.id}/carried-off", kind="time", route=route,
                series=f"{route}/carried-off", title="Pilot carried off (per day)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("Paid per whole day: the law says nothing of part days, so a fractional number of days is "
                       "refused rather than guessed.",),
                amount=ctx.amount(money, start + m.start("m"), start + m.end("m")), per="day", option="carried_off_days")


# ---- fees as percentages of a base rate, launch and transport fees per unit (a rule's form) ----------

_PERCENT_RE = _rx(r"(?i)(?P<p>\d+(?:\.\d+)?)\s*(?:percent|%)(?P<per>\s+per\s+hour)?\s+of\s+the\s+"
                         r"(?P<of>Zone\s+2\s+Base\s+Rate|regular\s+pilotage\s+fee)"
                         r"(?:[^.;]*?up\s+to\s+a\s+maximum\s+charge\s+of\s+(?P<max>\d+)\s*(?:percent|%))?"
                         r"(?P<day>[^.;]*?for\s+each\s+24[\s-]+hours?(?P<period>\s+period)?)?")
_LAUNCH_RE = _rx(r"(?i)\$(?P<rate>\d+\.\d+)\s+per\s+Pilotage\s+Unit(?:\s*\([^)]*\))?\s+for\s+(?:the\s+)?"
                        r"(?P<what>[A-Z][A-Za-z ]+?)(?=[,.]|\s+\()")
_TRANSPORT_RE = _rx(r"(?i)when\s+the\s+(?P<station>Norrie Point|Yonkers)\s+Station\s+is\s+closed[^$]*?\$"
                           r"(?P<rate>\d+\.\d+)")
_UNIT_BOUNDS_RE = _rx(r"(?i)minimum\s+of\s+(?P<min>\d+)\s+(?:pilotage\s+)?Units,?\s+(?:and\s+a\s+)?maximum\s+of\s+"
                             r"(?P<max>\d+)\s+(?:pilotage\s+)?Units")
_ZONE_RE = _rx(r"(?i)Zone\s+(?P<z>\d)")


def _reading(text: str) -> tuple[str, list[int]]:
    """The amended reading: bracketed (deleted) matter dropped; a map from its offsets to ``text``'s."""
    out: list[str] = []
    where: list[int] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
            continue
        if ch == "]" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
            where.append(i)
    where.append(len(text))
    return "".join(out), where


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def _percent_of_base_fees(ctx: Ctx, route: str, node: Node, bounds: dict[str, Amount]) -> Iterator[AnyTariff]:
    """"5 percent per hour of the Zone 2 Base Rate … up to a maximum charge of 35 percent"; "$2.99 per
    Pilotage Unit for the Yonkers Pilot Station" (the zone's route); "when the Norrie Point Station is
    closed … $1.315"; and the dollar amounts in [deleted] matter, kept as superseded. Which quote option
    each percentage is comes from the manifest's [document.options]."""
    named = {pid: (option, choice) for pid, option, choice in (ctx.entry.options if ctx.entry else ())}
    deleted = 0
    for start, end in _prose(node):
        raw = ctx.text[start:end]
        text, where = _reading(raw)

        def amt(value: Decimal, a: int, b: int) -> Amount:
            return ctx.amount(value, start + where[a], start + where[b - 1] + 1)

        eff = _default_start(ctx, node)
        percents = list(_PERCENT_RE.finditer(text))
        for k, m in enumerate(percents, 1):
            key = node.id if len(percents) == 1 else f"{node.id}#{k}"
            option, choice = named.get(key, ("", ""))
            if not option:
                ctx.diag(Severity.INFO, start + where[m.start()], f"fee in {node.citation} has no quote option",
                         "tariff-option")
            per = "hour" if m["per"] else "24 hours" if m["day"] else ""
            max_per = "24 hours" if m["per"] and m["day"] else ""
            of = "zone-2-base-rate" if "zone" in m["of"].lower() else "regular-fee"
            notes = []
            if of == "zone-2-base-rate":
                zone2 = ctx.routes.get(ctx.routes.select(route, "Zone 2"))
                notes.append(f"\"Zone 2 Base Rate\" is read as the base pilotage charge of "
                             f"{zone2.name if zone2 else 'the route of Zone 2'} for the vessel's pilotage units on the "
                             "same day (an interpretation: the rule does not define it).")
            if per:
                notes.append(f"Charged per {per} or part thereof.")
            free = 1 if re.search(r"(?i)used\s+within\s+one\s+hour,\s+no\s+charge", text) else 0
            if free:
                notes.append("No charge if the pilot's services are used within one hour.")
            yield Percentage(
                id=f"{route}/{key.replace('#', '/')}", kind="percentage", route=route, series=f"{route}/{_slug(key)}",
                title=OPTION_TITLES.get(option, "Fee") + (f" ({choice})" if choice else ""), provision=node.id,
                citation=node.citation,
                file=ctx.doc.file, effective=eff, status=ctx.status, notes=tuple(notes),
                percent=amt(Decimal(m["p"]), m.start("p"), m.end("p")), of=of, per=per,
                max_percent=amt(Decimal(m["max"]), m.start("max"), m.end("max")) if m["max"] else None,
                max_per=max_per, option=option, choice=choice, free_hours=free)
        zone = _ZONE_RE.search(text)
        for m in _LAUNCH_RE.finditer(text):
            zoned = ctx.routes.select(route, f"Zone {zone['z']}") if zone else ""
            what = re.sub(r"(?i)^pilot transport fee at ", "", " ".join(m["what"].split()))
            clamp_note = (f"A minimum of {bounds['min'].value} and a maximum of {bounds['max'].value} units applies.",) \
                if "min" in bounds and "max" in bounds else ()
            yield PerUnitFee(
                id=f"{zoned or route}/{node.id}/{_slug(what)}", kind="per-unit", route=zoned or route,
                series=f"{zoned or route}/launch/{_slug(what)}",
                title=f"Launch fee: {what}", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=eff, status=ctx.status, notes=clamp_note,
                rate=amt(Decimal(m["rate"]), m.start("rate"), m.end("rate")),
                min_units=bounds.get("min"), max_units=bounds.get("max"), option="launch", choice=_slug(what))
        for m in _TRANSPORT_RE.finditer(text):
            b = _UNIT_BOUNDS_RE.search(text, m.end())
            station = _slug(m["station"])
            yield PerUnitFee(
                id=f"{route}/{node.id}/transport-{station}-closed", kind="per-unit", route=route,
                series=f"{route}/transport-{station}-closed", title=f"Pilot transport fee when {m['station']} Station is closed",
                provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
                notes=(), rate=amt(Decimal(m["rate"]), m.start("rate"), m.end("rate")),
                min_units=amt(Decimal(b["min"]), b.start("min"), b.end("min")) if b else None,
                max_units=amt(Decimal(b["max"]), b.start("max"), b.end("max")) if b else None,
                option="station_closed", choice=station)
        # the superseded dollar amounts, in the bracketed (deleted) matter
        for m in re.finditer(r"\[([^\[\]]*\$[^\[\]]*)\]", raw):
            deleted += 1
            k = deleted
            for j, d in enumerate(re.finditer(r"\$(\d[\d,]*(?:\.\d+)?)", m.group(1)), 1):
                a0 = start + m.start(1) + d.start(1)
                value = Decimal(d.group(1).replace(",", "").rstrip("."))
                cond = m.group(1)
                yield FlatFee(
                    id=f"{route}/{node.id}/deleted-{k}-{j}", kind="flat", route=route,
                    series=f"{route}/{_slug(node.id)}/deleted-{k}-{j}", title=f"Former fee (deleted): {node.citation}",
                    provision=node.id, citation=node.citation, file=ctx.doc.file,
                    effective=Effective(None, eff.start, "unresolved", "in force before the amendment; its start is "
                                        "not in the corpus", "manifest" if eff.start else "unresolved",
                                        "replaced when the amendment took effect"),
                    status="superseded", notes=("Deleted matter ([bracketed]) of the rule notice: the amount before "
                                                "the amendment.",),
                    amount=ctx.amount(value, a0, a0 + len(d.group(1))), condition=" ".join(cond.split()))


def _unit_bounds(ctx: Ctx, node: Node) -> dict[str, Amount]:
    for start, end in _prose(node):
        text = ctx.text[start:end]
        m = _UNIT_BOUNDS_RE.search(text)
        if m and re.search(r"(?i)launch fees", text):
            return {"min": ctx.amount(Decimal(m["min"]), start + m.start("min"), start + m.end("min")),
                    "max": ctx.amount(Decimal(m["max"]), start + m.start("max"), start + m.end("max"))}
    return {}


# ---- prose fee schedules outside the routes: fees by tons burden, per license, per day; penalties ----------

_TONS_RE = _rx(r"(?i)for each vessel (?:(?P<over>over (?P<lo>[a-z\- ]+?))(?: and)?\s*)?(?:not over (?P<hi>[a-z\- ]+?)\s*)?"
                      r"tons burden, (?P<m>[a-z\- ]+?dollars)")
_FLAT_FOR_RE = _rx(r"(?i)shall pay (?P<m>[a-z\- ]+?dollars) for each (?P<what>original license|[a-z ]+?)"
                          r"(?= and| or|[.;,])(?: and (?P<m2>[a-z\- ]+?dollars) for each (?P<what2>[a-z ]+?)(?=[.;,]))?")
_PER_DAY_RE = _rx(r"(?i)shall receive compensation of (?P<m>[a-z\- ]+?dollars) a day")
_PENALTY_WORD_RE = _rx(r"(?i)\b(?P<kind>civil penalty|penalty|fine|forfeit|forfeiture)\b")
_DIGIT_MONEY_RE = _rx(r"\$\s?(?P<n>\d[\d,]*(?:\.\d\d)?)")
_MAX_WORDS_RE = _rx(r"(?i)(?:not exceeding|not to exceed|not more than|nor more than|up to|maximum of)\s*$")
_LOW_WORDS_RE = _rx(r"(?i)not less than (?P<n>[a-z][a-z\- ]*?) nor more than\s*$")
_MIN_WORDS_RE = _rx(r"(?i)(?:not less than|at least|minimum of)\s*$")


def _prose_fees(ctx: Ctx, section: Node, node: Node) -> Iterator[AnyTariff]:
    for start, end in _prose(node):
        text = ctx.text[start:end]
        rows = list(_TONS_RE.finditer(text))
        if len(rows) >= 2:
            brackets = []
            ok = True
            for m in rows:
                try:
                    lo = Decimal(W.parse(m["lo"])[1]) if m["lo"] else Decimal(0)  # type: ignore[arg-type]
                    hi = Decimal(W.parse(m["hi"])[1]) if m["hi"] else None  # type: ignore[arg-type]
                    fee = W.money(m["m"])
                except ValueError:
                    ok = False
                    break
                a = ctx.amount(fee, start + m.start("m"), start + m.end("m"))
                brackets.append(Bracket(lo, hi, not m["over"], hi is not None, Num(fee, 0, 0),
                                        " ".join(m.group(0).split(",")[0].split()[3:]), " ".join(m["m"].split()), (a,),
                                        ctx.src(start + m.start(), start + m.end())))
            if ok:
                yield BracketSchedule(
                    id=f"inspection/{node.id}", kind="brackets", route="", series=f"fees/{node.id}",
                    title=f"Inspection fee by tons burden, {node.citation}", provision=node.id, citation=node.citation,
                    file=ctx.doc.file, effective=_default_start(ctx, node), status=ctx.status,
                    notes=("\"not over ten tons burden\" includes ten; \"over ten and not over twenty\" is (10, 20].",),
                    brackets=tuple(brackets), unit_name="tons burden")
        for m in _FLAT_FOR_RE.finditer(text):
            for g, w in (("m", "what"), ("m2", "what2")):
                if not m[g]:
                    continue
                try:
                    fee = W.money(m[g])
                except ValueError:
                    continue
                yield FlatFee(
                    id=f"fees/{node.id}/{_slug(m[w])}", kind="flat", route="", series=f"fees/{node.id}/{_slug(m[w])}",
                    title=f"Fee for each {m[w]}", provision=node.id, citation=node.citation, file=ctx.doc.file,
                    effective=_default_start(ctx, node), status=ctx.status, notes=(),
                    amount=ctx.amount(fee, start + m.start(g), start + m.end(g)), condition=f"for each {m[w]}")
        for m in _PER_DAY_RE.finditer(text):
            try:
                fee = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"fees/{node.id}/carried-to-sea", kind="time", route="", series=f"fees/{node.id}",
                title="Pilot carried to sea (per day)", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=_default_start(ctx, node), status=ctx.status, notes=(),
                amount=ctx.amount(fee, start + m.start("m"), start + m.end("m")), per="day")


def _penalties(ctx: Ctx, section: Node, node: Node) -> Iterator[AnyTariff]:
    """Every amount of money within a sentence that speaks of a fine, penalty or forfeiture, after
    that word: "punishable by a fine not exceeding one hundred dollars" -> max $100."""
    k = 0
    for start, end in _prose(node):
        text = ctx.text[start:end]
        if not _PENALTY_WORD_RE.search(text) or ("$" not in text and "dollar" not in text.lower()):
            continue  # most provisions speak of no fine: skip the number-word scan
        hits: list[tuple[int, int, Decimal, str]] = [
            (p.start, p.end, p.value, p.text) for p in W.scan(text) if p.kind == "money"]  # type: ignore[misc]
        hits += [(m.start(), m.end(), Decimal(m["n"].replace(",", "")), m.group(0)) for m in _DIGIT_MONEY_RE.finditer(text)]
        for a, b, value, written in sorted(hits):
            sentence_start = max(text.rfind(".", 0, a), text.rfind(";", 0, a)) + 1
            before = text[sentence_start:a]
            words = list(_PENALTY_WORD_RE.finditer(before))
            if not words:
                continue
            kind = words[-1]["kind"].lower()
            bound = "max" if _MAX_WORDS_RE.search(before) else "min" if _MIN_WORDS_RE.search(before) else "fixed"
            low = _LOW_WORDS_RE.search(before)
            if low is not None:  # "not less than twenty-five nor more than one hundred dollars": both bounds
                try:
                    lv = W.parse(low["n"])[1]
                except ValueError:
                    lv = None
                if isinstance(lv, int):
                    k += 1
                    lo_at = sentence_start + low.start("n")
                    yield Penalty(
                        id=f"penalty/{node.id}/{k}", kind="penalty", route="", series=f"penalty/{node.id}/{k}",
                        title=f"{kind.capitalize()}, {node.citation}", provision=node.id, citation=node.citation,
                        file=ctx.doc.file, effective=_default_start(ctx, node), status=ctx.status,
                        notes=("The minimum's unit (dollars) is written once, after the maximum.",),
                        amount=ctx.amount(Decimal(lv), start + lo_at, start + lo_at + len(low["n"])), bound="min",
                        phrase=" ".join(text[sentence_start:b].split())[-300:])
            k += 1
            phrase = " ".join(text[sentence_start:b].split())
            title = "Forfeiture" if kind.startswith("forfeit") else kind.capitalize()
            yield Penalty(
                id=f"penalty/{node.id}/{k}", kind="penalty", route="", series=f"penalty/{node.id}/{k}",
                title=f"{title}, {node.citation}", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=_default_start(ctx, node), status=ctx.status, notes=(),
                amount=ctx.amount(value, start + a, start + b), bound=bound, phrase=phrase[-300:])


# ---- driver -----------------------------------------------------------------------------------------------

def extract_document(compiled: Compiled, diags: Diagnostics, routes: RouteTable | None = None) -> list[AnyTariff]:
    """Every tariff of one document, each form read wherever it occurs; ``routes`` says which sections
    price which route (the manifest's [[route]] table)."""
    ctx = Ctx(compiled, diags, routes or RouteTable())
    out: list[AnyTariff] = []
    tabled: set[str] = set()
    for section, parent, table, header in _tables(ctx):
        s = _table_schedule(ctx, section, parent, table, header)
        if s is None:
            continue
        if s.provision in tabled:  # file 000's § 88(4)(b)(ii)(1)(A)(iv) holds a second, garbled table
            ctx.diag(Severity.WARNING, table.start, f"a second rate table under {s.citation}: the text does not say "
                     "which one applies; this one is listed but not dated", "tariff-second-table")
            s = replace(s, effective=Effective(None, None, "unresolved", f"a second rate table under {s.citation}; "
                                               "the text does not say which one applies"),
                        notes=s.notes + ("A second table under the same clause: not dated, so never quoted.",))
        tabled.add(s.provision)
        out.append(s)
    bounds: dict[str, Amount] = {}
    clamps: dict[str, dict[str, Amount]] = {}  # route -> "minimum"/"maximum" -> units
    in_words: list[BracketSchedule] = []  # rates in words: after the rest, as their clamps may follow them
    for section, node in _provisions(ctx.doc):
        sec = section_of(node.id) if node.id else section.label
        route = ctx.routes.priced(sec)
        if not route:  # not a pilotage route: fees and penalties in prose
            out.extend(_prose_fees(ctx, section, node))
            out.extend(_penalties(ctx, section, node))
            continue
        if not bounds:
            bounds = _unit_bounds(ctx, section) or next(
                (b for b in (_unit_bounds(ctx, n) for n in section.walk()) if b), {})
        # every form a priced section may use, wherever it occurs
        out.extend(_percent_of_base_fees(ctx, route, node, bounds))
        out.extend(_calculated_fee_prose(ctx, route, node))
        out.extend(_per_unit_by_part(ctx, route, node))
        out.extend(_second_pilot_and_board_fees(ctx, route, node))
        out.extend(_surcharge_periods(ctx, route, node))
        in_words.extend(_rates_in_words(ctx, route, node))
        for t in _clamps_and_time_fees(ctx, route, node):
            if isinstance(t, tuple):
                clamps.setdefault(route, {})[t[0]] = t[1]
            else:
                out.append(t)
        out.extend(_penalties(ctx, section, node))
    out.extend(in_words)
    return [_clamped(t, clamps[t.route]) if isinstance(t, BracketSchedule) and t.route in clamps
            and t.series == f"{t.route}/base" and t.min_units is None and t.max_units is None else t for t in out]


def _clamped(s: BracketSchedule, clamp: dict[str, Amount]) -> BracketSchedule:
    """A route's "minimum/maximum charge calculated on N pilotage units" on one of its base schedules."""
    both = "minimum" in clamp and "maximum" in clamp
    return replace(s, min_units=clamp.get("minimum"), max_units=clamp.get("maximum"),
                   notes=s.notes + ((f"A minimum charge on {clamp['minimum'].value} and a maximum charge on "
                                     f"{clamp['maximum'].value} pilotage units clamp the units.",) if both else ()))


def extract(corpus: Corpus, diags: Diagnostics | None = None, cache: BuildCache | None = None) -> list[AnyTariff]:
    """All tariffs of the corpus. A consolidated text that the manifest marks superseded is superseded
    only where a later text covers the same section; elsewhere it is the latest text the corpus has."""
    d = diags if diags is not None else corpus.diagnostics
    out: list[AnyTariff] = []
    covered: set[str] = set()
    for c in corpus.documents:
        if c.entry and c.entry.kind != "consolidated":
            covered.update(section_of(x) for x in c.entry.covers)
            if c.entry.section:
                covered.add(c.entry.section)
    routes = RouteTable(corpus.manifest.routes)
    for c in corpus.documents:
        got = _extract_cached(c, d, cache, routes)
        if c.entry and c.entry.kind == "consolidated" and c.entry.status == "superseded":
            got = [t if t.status != "superseded" or section_of(t.provision) in covered else
                   replace(t, status="in-force", notes=t.notes + (  # type: ignore[arg-type]
                       f"From {c.entry.file}, the latest text of {section_of(t.provision)} in the corpus.",))
                   for t in got]
        out.extend(got)
    return unique_ids(out)


def _extract_cached(c: Compiled, diags: Diagnostics, cache: BuildCache | None, routes: RouteTable) -> list[AnyTariff]:
    """extract_document, through the cache: a document's tariffs depend on its text, its entry and the
    route table only."""
    def extract_own() -> tuple[list[AnyTariff], list[Diagnostic]]:
        own = Diagnostics()
        return extract_document(c, own, routes), own.items

    key = cache.key("tariffs", c.key, routes.key()) if cache is not None and c.key else ""
    got, found = cache.through("tariffs", key, extract_own) if cache is not None else extract_own()
    diags.extend(found)
    return got


def unique_ids(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """Two texts of one provision give the same id: the later text keeps it, earlier ones get
    ``@<file stem>`` (file 000's § 88(4)(e) surcharge is ``…/capital-expense-surcharge@nav-law.consolidated``)."""
    last: dict[str, str] = {}
    for t in tariffs:
        last[t.id] = t.file
    return [t if last[t.id] == t.file else replace(t, id=f"{t.id}@{Path(t.file).stem}")  # type: ignore[arg-type]
            for t in tariffs]


def raw_line_lookup(corpus: Corpus):  # type: ignore[no-untyped-def]
    """file, line -> the raw line (for caret excerpts of tariff findings)."""
    by_file = {c.document.file: c.document.normal for c in corpus.documents}

    def raw_line(file: str, line: int) -> str:
        nt = by_file.get(file)
        return nt.raw_line(line) if nt is not None else ""

    return raw_line
