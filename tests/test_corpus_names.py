"""The corpus's names are data (issue 26): renaming every route, route family and quote option in a copy
of the corpus changes no page's row counts, and the fee module quotes the same totals under the new names."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import sys
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from .conftest import CORPUS, load_module

ON = dt.date(2026, 6, 1)


def renames(manifest: dict[str, Any]) -> dict[str, dict[str, str]]:
    """New names for every route, family and option the manifest declares (read, not listed here)."""
    routes = [r["id"] for r in manifest.get("route", [])]
    families = sorted({r["family"] for r in manifest.get("route", []) if r.get("family")})
    options = [o["name"] for o in manifest.get("option", [])]
    options += sorted({v.split("=")[0] for d in manifest["document"] for v in d.get("options", {}).values()}
                      - set(options))
    return {"route": {r: f"waterway-{i}" for i, r in enumerate(routes)},
            "family": {f: f"reach-{i}" for i, f in enumerate(families)},
            "option": {o: f"renamed_{i}" for i, o in enumerate(options)}}


def renamed_manifest(text: str, names: dict[str, dict[str, str]]) -> str:
    """The manifest with each name replaced where the manifest gives it as a value: route ids and
    families, option names (``name = "…"`` of [[option]], and [document.options]' values "opt" / "opt=choice")."""
    for old, new in names["route"].items():
        text = re.sub(rf'(?m)^(id\s*=\s*)"{re.escape(old)}"', rf'\g<1>"{new}"', text)
    for old, new in names["family"].items():
        text = re.sub(rf'(?m)^(family\s*=\s*)"{re.escape(old)}"', rf'\g<1>"{new}"', text)
    for old, new in names["option"].items():
        text = re.sub(rf'(?m)^((?:name|same_as|priced_as|one_charge_with)\s*=\s*)"{re.escape(old)}"', rf'\g<1>"{new}"', text)
        text = re.sub(rf'(?m)^("[^"\n]+"\s*=\s*)"{re.escape(old)}(=[^"\n]*)?"', rf'\g<1>"{new}\g<2>"', text)
    return text


def row_counts(pages: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Each Markdown page's table rows (HTML and Markdown) and list items (HTML and Markdown)."""
    out = {}
    for path, text in pages.items():
        if not path.endswith(".md"):
            continue
        rows = text.count("<tr") + len(re.findall(r"(?m)^\|", text))
        items = text.count("<li") + len(re.findall(r"(?m)^\s*(?:[-*]|\d+\.)\s", text))
        out[path] = (rows, items)
    return out


def _build(corpus: Path, module: Path) -> tuple[dict[str, str], Any]:
    from navlaw.build import compile_law, fee_module, site_pages

    result = compile_law(str(corpus))
    assert not [d for d in result.diagnostics if d.severity.name == "ERROR"]
    module.mkdir()
    for name, text in fee_module(result).items():
        (module / name).parent.mkdir(parents=True, exist_ok=True)
        (module / name).write_text(text, encoding="utf-8")
    return site_pages(result, ON), load_module(module, module.name)


def _value(form: str, choices: tuple[str, ...]) -> object:
    return {"flag": True, "count": True, "choice": choices[0] if choices else "", "hours": Decimal("3"),
            "miles": Decimal("10"), "days": Decimal("2"), "amount": Decimal("100")}[form]


def _total(nf: Any, route: str, units: str, on: dt.date, options: dict[str, object]) -> str:
    try:
        return str(nf.quote(route, units=Decimal(units), on=on, **options).total)
    except nf.FeeError as e:  # the same refusal, under the new names
        return "refused"


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("renamed")
    copy = tmp / "corpus"
    shutil.copytree(CORPUS, copy)
    text = (CORPUS / "manifest.toml").read_text(encoding="utf-8")
    names = renames(tomllib.loads(text))
    (copy / "manifest.toml").write_text(renamed_manifest(text, names), encoding="utf-8")
    try:
        yield names, _build(CORPUS, tmp / "names_before"), _build(copy, tmp / "names_after")
    finally:
        sys.modules.pop("names_before", None)
        sys.modules.pop("names_after", None)


def test_the_copy_is_renamed_throughout(both):
    names, (_, before), (_, after) = both
    assert names["route"] and names["family"] and names["option"]
    assert after.ROUTES == tuple(names["route"][r] for r in before.ROUTES)
    for r in before.ROUTES:
        assert set(after.option_forms(names["route"][r])) == {names["option"][o] for o in before.option_forms(r)}


def test_renaming_every_route_family_and_option_changes_no_page_row_count(both):
    _, (pages_before, _), (pages_after, _) = both
    before, after = row_counts(pages_before), row_counts(pages_after)
    assert after == before
    assert before["tariffs.md"][0] > 100  # the tariffs page has its rows, the fees of each route's family among them


def test_the_renamed_fee_module_quotes_the_same_totals(both):
    names, (_, before), (_, after) = both
    checked = 0
    for route in before.ROUTES:
        new = names["route"][route]
        for on in (dt.date(2005, 6, 1), dt.date(2016, 12, 1), dt.date(2023, 6, 1), ON):
            for units in ("40", "300", "1800"):
                assert _total(after, new, units, on, {}) == _total(before, route, units, on, {})
                for opt, (form, _, choices) in before.option_forms(route).items():
                    value = _value(form, choices)
                    old = _total(before, route, units, on, {opt: value})
                    assert _total(after, new, units, on, {names["option"][opt]: value}) == old, (route, opt, on)
                    checked += old != "refused"
    assert checked > 100
