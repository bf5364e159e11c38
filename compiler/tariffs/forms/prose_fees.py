"""Fees in prose outside the pilotage routes: by tons burden, for each license, per day."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.formula import Num
from navlaw.model.tariffs import AnyTariff, Bracket, BracketSchedule, FlatFee, TimeFee
from navlaw.tariffs.reading import Ctx, number_in_words, slug, default_start, prose, rx


_TONS_RE = rx(r"(?i)for each vessel (?:(?P<over>over (?P<lo>[a-z\- ]+?))(?: and)?\s*)?(?:not over (?P<hi>[a-z\- ]+?)\s*)?"
                      r"tons burden, (?P<m>[a-z\- ]+?dollars)")
_FLAT_FOR_RE = rx(r"(?i)shall pay (?P<m>[a-z\- ]+?dollars) for each (?P<what>original license|[a-z ]+?)"
                          r"(?= and| or|[.;,])(?: and (?P<m2>[a-z\- ]+?dollars) for each (?P<what2>[a-z ]+?)(?=[.;,]))?")
_PER_DAY_RE = rx(r"(?i)shall receive compensation of (?P<m>[a-z\- ]+?dollars) a day")


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    for start, end in prose(node):
        text = ctx.text[start:end]
        rows = list(_TONS_RE.finditer(text))
        if len(rows) >= 2:
            brackets = []
            ok = True
            for m in rows:
                try:
                    lo = number_in_words(m["lo"]) if m["lo"] else Decimal(0)
                    hi = number_in_words(m["hi"]) if m["hi"] else None
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
                    file=ctx.doc.file, effective=default_start(ctx, node), status=ctx.status,
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
                    id=f"fees/{node.id}/{slug(m[w])}", kind="flat", route="", series=f"fees/{node.id}/{slug(m[w])}",
                    title=f"Fee for each {m[w]}", provision=node.id, citation=node.citation, file=ctx.doc.file,
                    effective=default_start(ctx, node), status=ctx.status, notes=(),
                    amount=ctx.amount(fee, start + m.start(g), start + m.end(g)), condition=f"for each {m[w]}")
        for m in _PER_DAY_RE.finditer(text):
            try:
                fee = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"fees/{node.id}/carried-to-sea", kind="time", route="", series=f"fees/{node.id}",
                title="Pilot carried to sea (per day)", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=default_start(ctx, node), status=ctx.status, notes=(),
                amount=ctx.amount(fee, start + m.start("m"), start + m.end("m")), per="day")
