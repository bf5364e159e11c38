"""Atheris (libFuzzer) target: any bytes through the front end, tariff extraction and lint.

    python tests/fuzz/fuzz_frontend.py -runs=100000          # or -max_total_time=600
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

with atheris.instrument_imports():
    from tests.fuzz.pipeline import check


if __name__ == "__main__":
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()
