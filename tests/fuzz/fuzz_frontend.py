"""Atheris (libFuzzer) target: any bytes through the front end, tariff extraction and lint.

    python tests/fuzz/fuzz_frontend.py -runs=100000          # or -max_total_time=600

Only NavlawError (a diagnostic) may escape; the tree must rebuild the text exactly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

with atheris.instrument_imports():
    from compiler.diagnostics import Diagnostics, NavlawError
    from compiler.extract_tariffs import extract_document
    from compiler.frontend import Compiled, compile_bytes
    from compiler.load import SourceDocument
    from compiler.tariff_lint import lint


def test_one_input(data: bytes) -> None:
    diags = Diagnostics()
    try:
        doc = compile_bytes(data, "fuzz.txt", diags)
    except NavlawError:
        return
    if doc.source_text() != doc.normal.text or doc.normal.denormalize() != doc.normal.raw:
        raise AssertionError("the tree lost or changed text")
    src = SourceDocument("fuzz.txt", doc.normal.raw, "", len(data))
    lint(extract_document(Compiled(src, doc, None), diags), lambda f, n: doc.normal.raw_line(n))


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
