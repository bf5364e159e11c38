"""Tariffs as JSON and their amounts, made by per-class converters (model/tariffs.py: issue 32, the tariffs'
JSON and amounts walk were a tenth of an edit at 10x): the same values as the generic walk over every field
they replace, on every tariff of the corpus, and on values the corpus does not hold."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any, NamedTuple

from navlaw.model.formula import Bin, Neg, Num, Units, describe
from navlaw.model.tariffs import Amount, Bracket, FlatFee, Source, Tariff, Effective, amounts, to_json


def reference_plain(x: Any) -> Any:
    """The JSON of a value as first defined: every field walked, each value's kind checked in turn."""
    if type(x) in (str, int, bool, float, type(None)):
        return x
    if isinstance(x, Decimal):
        return str(x)
    if isinstance(x, dt.date):
        return x.isoformat()
    if isinstance(x, Bracket):
        d = {f.name: reference_plain(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name != "fee"}
        d["formula"] = x.formula
        return d
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        if isinstance(x, (Num, Units, Bin, Neg)):
            return describe(x)
        d = {f.name: reference_plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
        if isinstance(x, Tariff):
            d = {"kind": x.kind, **{k: v for k, v in d.items() if k != "kind"}}
        return d
    if isinstance(x, (list, tuple)):
        return [reference_plain(v) for v in x]
    return x


def reference_amounts(t: Any) -> list[Amount]:
    out: list[Amount] = []

    def walk(x: Any) -> None:
        if isinstance(x, Amount):
            out.append(x)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))

    walk(t)
    return out


def test_json_and_amounts_as_the_generic_walk_gives(tariffs) -> None:
    assert len(tariffs) > 50
    kinds = set()
    for t in tariffs:
        kinds.add(type(t).__name__)
        got = to_json(t)
        assert got == reference_plain(t), t.id
        assert list(got) == list(reference_plain(t)), t.id  # the keys' order too: the file's text follows it
        found = amounts(t)
        assert [id(a) for a in found] == [id(a) for a in reference_amounts(t)], t.id
    assert len(kinds) >= 5  # brackets, per-unit fees, percentages, flat fees, penalties ... all went through


class Pair(NamedTuple):
    a: Any
    b: Any


def test_values_the_corpus_does_not_hold() -> None:
    """A datetime, a named tuple holding an amount, a dict: converted and walked as the generic walk does."""
    src = Source("f.txt", 3, 7, 1, 4, "$1.0")
    amount = Amount(Decimal("1.0"), src)
    t = FlatFee("x", "flat", "", "s", "T", "p", "§ 1", "f.txt",
                Effective(dt.datetime(2024, 1, 2, 3, 4), None, "text", "w"), "in-force",
                (Pair(amount, {"k": 1}),), amount=amount, condition="")  # type: ignore[arg-type]
    assert to_json(t) == reference_plain(t)
    assert to_json(t)["amount"]["value"] == "1.0"  # Decimal digits as written, not 1 or 1.00
    assert amounts(t) == reference_amounts(t) == [amount, amount]


def reference_with_sources(obj: Any, moved: dict[int, Source]) -> Any:
    """tariffs/by_section.py's replay of moved Sources as first defined: every value walked."""
    if isinstance(obj, (str, int, float, Decimal, dt.date, type(None))):
        return obj
    if isinstance(obj, Source):
        return moved[id(obj)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {f.name: reference_with_sources(getattr(obj, f.name), moved) for f in dataclasses.fields(obj)}
        changes = {k: v for k, v in changes.items() if v is not getattr(obj, k)}
        return dataclasses.replace(obj, **changes) if changes else obj
    if isinstance(obj, (tuple, list)):
        items = [reference_with_sources(x, moved) for x in obj]
        if all(a is b for a, b in zip(items, obj)):
            return obj
        return items if isinstance(obj, list) else (type(obj)(*items) if hasattr(obj, "_fields") else tuple(items))
    return obj


def test_moved_sources_replaced_as_the_generic_walk_does(tariffs) -> None:
    """Every Source of every tariff moved (a section read again after an edit above it): the same tariffs as
    the walk over every value gives, and each Source the moved one (none left at its old place)."""
    from navlaw.tariffs.by_section import _with_sources

    def sources(x: Any) -> list[Source]:
        out: list[Source] = []

        def walk(v: Any) -> None:
            if isinstance(v, Source):
                out.append(v)
            elif dataclasses.is_dataclass(v) and not isinstance(v, type):
                for f in dataclasses.fields(v):
                    walk(getattr(v, f.name))
            elif isinstance(v, (list, tuple)):
                for w in v:
                    walk(w)
        walk(x)
        return out

    for t in tariffs:
        moved = {id(s): dataclasses.replace(s, start=s.start + 7, end=s.end + 7) for s in sources(t)}
        got = _with_sources(t, moved)
        assert got == reference_with_sources(t, moved), t.id
        assert {id(s) for s in sources(got)} <= {id(s) for s in moved.values()}, t.id
        assert _with_sources(t, {id(s): s for s in sources(t)}) is t  # none moved: the tariff itself
