"""A surcharge table in periods counted from an anchor ("PILOTAGE UNITS SURCHARGE 0 to 50 $X … during
the first twelve months after the effective date of this subparagraph")."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.formula import Bin, Num, Units
from navlaw.model.tariffs import AnyTariff, Amount, BoardSet, Bracket, BracketSchedule, Effective
from navlaw.tariffs.reading import Ctx, add_months, anchor_date, prose, rx


_SURCHARGE_RE = rx(
    r"(?i)PILOTAGE UNITS SURCHARGE\s+(?P<a_lo>\d+)\s*(?:to|-)\s*(?P<a_hi>\d+)\s+\$\s?(?P<a>\d+(?:\.\d+)?)\s+"
    r"(?P<b_lo>\d+)\s*(?:to|-)\s*(?P<b_hi>\d+)\s+\$\s?(?P<b>\d+(?:\.\d+)?)\s+over\s+(?P<c_lo>\d+)\s+\$\s?"
    r"(?P<c>\d+(?:\.\d+)?)\s+per pilot unit\s+(?P<when>during the [^.]+?after the (?P<anchor>effective date of this "
    r"[a-z]+))\.")
_PERIOD_RE = rx(r"(?i)during the (?:first (?P<first>[a-z\-]+) months|period beginning with the "
                        r"(?P<from>[a-z\-]+) month and ending with the (?P<to>[a-z\-]+) month)")


_BOARD_AFTER_RE = rx(r"(?i)Following the (?P<n>[a-z-]{1,30}) month after the (?P<anchor>effective date of this [a-z]+), "
                     r"the amount of the surcharge as determined by the (?P<who>[a-z ]{0,60}?surcharge board)")


def _after_periods(ctx: Ctx, route: str, node: Node, text: str, start: int) -> Iterator[AnyTariff]:
    """"Following the sixtieth month after the effective date of this subparagraph, the amount of the
    surcharge as determined by the surcharge board …": an amount a board sets, from a date the manifest's
    anchor fixes (else unresolved) — a caller may enter it only where that date is established."""
    for m in _BOARD_AFTER_RE.finditer(text):
        try:
            n = W.parse(m["n"])[1]
        except ValueError:
            continue
        hit = anchor_date(ctx, m["anchor"])
        phrase = " ".join(m.group(0).split(",")[0].split())
        where = ctx.src(start + m.start(), start + m.end())
        eff = (Effective(add_months(hit[0], n), None, "anchor", phrase, confidence=hit[2], source=where)
               if hit and isinstance(n, int) else
               Effective(None, None, "unresolved", f"{phrase}: the manifest gives no date for \"{m['anchor']}\"",
                         source=where))
        yield BoardSet(
            id=f"{route}/{node.id}/surcharge-set-by-board", kind="board-set", route=route,
            series=f"{route}/surcharge-set-by-board", title="Retirement surcharge set by the board",
            provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
            notes=("The law caps it only in the aggregate (per calendar year), not per vessel: an amount entered "
                   "is not checked against that cap.",),
            who=" ".join(m["who"].split()))


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"PILOTAGE UNITS SURCHARGE 0 to 50 $X 51 to 100 $Y over 100 $Z per pilot unit during the first
    twelve months after the effective date of this subparagraph": one schedule per period, dated from
    the manifest's anchor."""
    for start, end in prose(node):
        text = ctx.text[start:end]
        yield from _after_periods(ctx, route, node, text, start)
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
            hit = anchor_date(ctx, m["anchor"])
            p = _PERIOD_RE.search(when)
            eff = Effective(None, None, "unresolved", f"{when}: the manifest gives no date for \"{m['anchor']}\"",
                            end_basis="unresolved", end_phrase=when, source=ctx.src(start + m.start("when"), start + m.end("when")))
            if hit and p:
                first = _whole(p["first"]) if p["first"] else None
                lo = 1 if first else _whole(p["from"])
                hi = first or _whole(p["to"])
                if lo is not None and hi is not None:  # months counted in words: "the thirteenth through …"
                    eff = Effective(add_months(hit[0], lo - 1), add_months(hit[0], hi), "anchor", when, "anchor", when,
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


def _whole(words: str) -> int | None:
    """A whole number written in words ("thirteenth", "twenty-four"), or None when the words are not one."""
    try:
        value = W.parse(words)[1]
    except ValueError:
        return None
    return value if isinstance(value, int) else None
