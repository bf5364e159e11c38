"""A second pilot as a percentage of the regular fee, and fees the text leaves to a board ("The launch
fee shall be set by the board of commissioners of pilots")."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterator

from navlaw.model.nodes import Node
from navlaw.model.tariffs import AnyTariff, BoardSet, Effective, Percentage
from navlaw.tariffs.reading import Ctx, number_in_words, prose, rx


_SECOND_PILOT_RE = rx(r"(?i)the fee shall be the regular pilotage fee plus (?P<w>[a-z\- ]+?) percent for the "
                              r"second pilot")
_BOARD_FEE_RE = rx(r"(?i)The (?P<what>(?:mid-river )?launch fee|communication fee) shall be set by the "
                           r"(?P<who>board of commissioners of pilots)")


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"the regular pilotage fee plus fifty percent for the second pilot"; "The launch fee shall be set
    by the board of commissioners of pilots"."""
    for start, end in prose(node):
        text = ctx.text[start:end]
        for m in _SECOND_PILOT_RE.finditer(text):
            try:
                value = number_in_words(m["w"])
            except ValueError:
                continue
            pct = ctx.amount(Decimal(int(value)), start + m.start("w"), start + m.end("w"))
            hours = re.search(r"(?i)continuous pilotage of more than (?P<h>[a-z\- ]{1,200}?) hours", text)
            cond = f" (a continuous pilotage of more than {hours['h']} hours)" if hours else ""
            yield Percentage(
                id=f"{route}/{node.id}/second-pilot", kind="percentage", route=route, series=f"{route}/second-pilot",
                title="Second pilot", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the base pilotage rates of the same text"),
                status=ctx.status,
                notes=(f"When two pilots are assigned{cond}, the fee is the regular pilotage fee plus {value}% for "
                       "the second pilot; not when the first pilot is relieved at the mid-river station.",),
                percent=pct, of="regular-fee")
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
