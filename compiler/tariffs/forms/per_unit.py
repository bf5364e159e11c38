"""Per-unit rates in figures by part of a route ("All vessels of 100 pilotage units and over shall pay
$X per pilotage unit for Section N"), with flat charges below and a maximum of units."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterator

from navlaw.model.nodes import Node
from navlaw.model.formula import Bin, Num, Units
from navlaw.model.tariffs import AnyTariff, Amount, Bracket, BracketSchedule
from navlaw.tariffs.reading import Ctx, prose, rx, start_date


_PER_UNIT_RE = rx(r"(?i)All vessels of (?P<lo>\d+) pilotage units and over shall pay (?:a base pilotage rate of )?"
                          r"(?:\.{3,}|\s)*\s*\$?\s?(?P<rate>\d+(?:\.\d+)?) per pilotage unit for Section (?P<sec>\d)")
_FLAT_RE = rx(r"(?i)applicable to Section (?P<sec>\d)[^:]*:\s*Up to (?P<a>\d+) pilotage units\s*(?:\.{3,}|\s)*\s*"
                      r"\$(?P<a_fee>\d+(?:\.\d+)?)\s*More than (?P<b_lo>\d+) and up to (?P<b>\d+) pilotage units\s*"
                      r"(?:\.{3,}|\s)*\s*\$(?P<b_fee>\d+(?:\.\d+)?)")
_MAX_RE = rx(r"(?i)A maximum charge of up to (?P<max>\d+) pilotage units shall be applicable")


def read(ctx: Ctx, priced: str, node: Node) -> Iterator[AnyTariff]:
    """"All vessels of 100 pilotage units and over shall pay $X per pilotage unit for Section N", with
    flat charges up to 50 and over 50 up to 100, and "a maximum charge of up to N pilotage units": one
    schedule per route the words "Section N" select (the route table's selectors)."""
    for start, end in prose(node):
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
