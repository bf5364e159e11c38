"""The per-document pipeline the fuzzers drive: only NavlawError (a diagnostic) may escape, and the tree
must rebuild the text exactly."""

from __future__ import annotations

from navlaw.diagnostics import Diagnostics, NavlawError
from navlaw.tariffs.extract import extract_document
from navlaw.frontend.corpus import Compiled, compile_bytes
from navlaw.frontend.load import SourceDocument
from navlaw.tariffs.lint import lint


_ROUTES = None


def _routes():  # type: ignore[no-untyped-def]
    """The corpus's route table, so that the priced forms (rates in words, tables, percentages) run too."""
    global _ROUTES
    if _ROUTES is None:
        from pathlib import Path

        from navlaw.frontend.manifest import load_manifest
        from navlaw.tariffs.routes import RouteTable
        _ROUTES = RouteTable.of(load_manifest(Path(__file__).resolve().parents[2] / "corpus"))
    return _ROUTES


def check(data: bytes) -> None:
    diags = Diagnostics()
    try:
        doc = compile_bytes(data, "fuzz.txt", diags)
    except NavlawError:
        return
    assert doc.normal is not None
    if doc.source_text() != doc.normal.text or doc.normal.denormalize() != doc.normal.raw:
        raise AssertionError("the tree lost or changed text")
    src = SourceDocument("fuzz.txt", doc.normal.raw, "", len(data))
    lint(extract_document(Compiled(src, doc, None), diags, _routes()), lambda f, n: doc.normal.raw_line(n))
