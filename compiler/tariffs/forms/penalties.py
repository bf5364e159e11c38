"""Fines, penalties and forfeitures in dollars, with their bound ("not exceeding", "not less than")."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.tariffs import AnyTariff, Penalty
from navlaw.tariffs.reading import Ctx, default_start, prose, rx


_PENALTY_WORD_RE = rx(r"(?i)\b(?P<kind>civil penalty|penalty|fine|forfeit|forfeiture)\b")
_DIGIT_MONEY_RE = rx(r"\$\s?(?P<n>\d[\d,]*(?:\.\d\d)?)")
_MAX_WORDS_RE = rx(r"(?i)(?:not exceeding|not to exceed|not more than|nor more than|up to|maximum of)\s*$")
_LOW_WORDS_RE = rx(r"(?i)not less than (?P<n>[a-z][a-z\- ]*?) nor more than\s*$")
_MIN_WORDS_RE = rx(r"(?i)(?:not less than|at least|minimum of)\s*$")


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """Every amount of money within a sentence that speaks of a fine, penalty or forfeiture, after
    that word: "punishable by a fine not exceeding one hundred dollars" -> max $100."""
    k = 0
    for start, end in prose(node):
        text = ctx.text[start:end]
        if not _PENALTY_WORD_RE.search(text) or ("$" not in text and "dollar" not in text.lower()):
            continue  # most provisions speak of no fine: skip the number-word scan
        hits: list[tuple[int, int, Decimal, str]] = [
            (p.start, p.end, p.value, p.text) for p in W.scan(text) if p.kind == "money" and isinstance(p.value, Decimal)]
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
                        file=ctx.doc.file, effective=default_start(ctx, node), status=ctx.status,
                        notes=("The minimum's unit (dollars) is written once, after the maximum.",),
                        amount=ctx.amount(Decimal(lv), start + lo_at, start + lo_at + len(low["n"])), bound="min",
                        phrase=" ".join(text[sentence_start:b].split())[-300:])
            k += 1
            phrase = " ".join(text[sentence_start:b].split())
            title = "Forfeiture" if kind.startswith("forfeit") else kind.capitalize()
            yield Penalty(
                id=f"penalty/{node.id}/{k}", kind="penalty", route="", series=f"penalty/{node.id}/{k}",
                title=f"{title}, {node.citation}", provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=default_start(ctx, node), status=ctx.status, notes=(),
                amount=ctx.amount(value, start + a, start + b), bound=bound, phrase=phrase[-300:])
