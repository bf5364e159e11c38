"""Rates in words with calendar periods ("from January first, two thousand twenty-six all vessels shall
pay ten dollars and eighty-nine cents per pilotage unit")."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.formula import Bin, Num, Units
from navlaw.model.tariffs import Bracket, BracketSchedule, Effective
from navlaw.tariffs.reading import Ctx, day_of, default_start, prose, start_date


def read(ctx: Ctx, route: str, node: Node) -> Iterator[BracketSchedule]:
    """"from January first, 2023 until January first, 2024 all vessels shall pay nine dollars and
    ninety-seven cents per pilotage unit; …" — one schedule per clause, dates and money in words."""
    for start, end in prose(node):
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
            rate_value = rate_p.value
            assert isinstance(rate_value, Decimal), rate_p  # a money phrase's value
            rate = ctx.amount(rate_value, c_start + rate_p.start, c_start + rate_p.end)
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
                eff = Effective(day_of(s_date), day_of(e_date) if e_date else None, "text",
                                " ".join(clause[max(0, s_date.start - 13):s_date.end].split()),
                                "text" if e_date else "open",
                                " ".join(e_date.text.split()) if e_date else "", "verified",
                                ctx.src(c_start + s_date.start, c_start + s_date.end))
            if eff is None:
                eff = default_start(ctx, node)
            yield BracketSchedule(
                id=f"{route}/{node.id}/{i + 1}", kind="brackets", route=route,
                series=f"{route}/base", title=f"Pilotage per unit, {node.citation}",
                provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
                notes=(), brackets=(Bracket(Decimal(0), None, True, False, Bin("*", Num(rate.value, 0, 0), Units()),
                                            "all vessels", " ".join(rate_p.text.split()) + " per pilotage unit",
                                            (rate,), rate.source),))
