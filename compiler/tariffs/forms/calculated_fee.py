"""A percentage of the calculated fee ("plus seven and one-half (7.5%) percent of the calculated fee")
and a surcharge a board sets under a cap ("not to exceed three hundred dollars per ship")."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.tariffs import AnyTariff, BoardSet, Effective, Percentage
from navlaw.tariffs.reading import Ctx, default_start, prose, rx


_PLUS_PERCENT_RE = rx(r"(?i)plus\s+(?P<words>[a-z\- ]+?)\s*\((?P<num>\d+(?:\.\d+)?)%?\)\s*percent\s+of\s+the\s+"
                              r"calculated\s+fee")
_BOARD_CAP_RE = rx(r"(?i)(?:may\s+set\s+the\s+rate\s+)?not\s+to\s+exceed\s+(?P<m>[a-z\- ]+?dollars)\s+per\s+ship")
_BOARD_INITIAL_RE = rx(r"(?i)by\s+not\s+more\s+than\s+(?P<m>[a-z\- ]+?dollars)\s+per\s+ship")


_SURCHARGE_BOARD_RE = rx(r"(?P<who>(?:[A-Z][a-z]{1,30} ){1,6}(?:[a-z]{1,30} ){0,4}surcharge board)")


def _agree(words: str, figure: Decimal) -> bool:
    """Whether "seven and one-half" says the figure 7.5 (words that are not a number do not disagree)."""
    try:
        _, value = W.parse(words)
    except ValueError:
        return True
    return not isinstance(value, (int, Fraction)) or Fraction(value) == Fraction(figure)


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"plus seven and one-half (7.5%) percent of the calculated fee"; a surcharge the board sets,
    "not to exceed three hundred dollars per ship" (and its initial increase)."""
    for start, end in prose(node):
        text = ctx.text[start:end]
        for m in _PLUS_PERCENT_RE.finditer(text):
            if not _agree(m["words"], Decimal(m["num"])):
                continue  # the words and the figure disagree: an error of the front end (figures.py); no rate
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
        for pattern, label in ((_BOARD_CAP_RE, "cap"), (_BOARD_INITIAL_RE, "initial")):
            for m in pattern.finditer(text):
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
                    provision=node.id, citation=node.citation, file=ctx.doc.file, effective=default_start(ctx, node),
                    status=ctx.status,
                    notes=((f"The {who} sets the rate; the law only caps it. navlaw does not add it to quotes."),),
                    who=who, cap=cap, cap_unit="per ship")
