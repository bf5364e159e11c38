"""`navlaw export akn`: the corpus's sections as Akoma Ntoso, written whole under a lock, as a build
writes its outputs (compiler/publish.py)."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from navlaw.diagnostics import print_errors
from navlaw.export.akn import akn_files
from navlaw.publish import Output, OutputError, publish, write_marker

if TYPE_CHECKING:
    from navlaw.law import Law


def export_akn(corpus_dir: str, out_dir: str, on: dt.date | None, read_law: Callable[..., Law]) -> int:
    """Exit status: 0 written, 1 errors in the law text or the disk, 2 an output that may not be written.
    ``read_law`` is the pipeline's front end and law stage (compiler/build.py), given by the command line."""
    law = read_law(corpus_dir, relative=True)
    if law.diagnostics.has_errors():
        print_errors(law.diagnostics, corpus_dir)
        print("navlaw export: not written: the corpus has errors (see them with `navlaw lint`)", file=sys.stderr)
        return 1
    files = akn_files(law.corpus, law.timeline, on)
    if not files:
        print(f"navlaw export: no section of the corpus is in force on {on}", file=sys.stderr)
        return 1
    out = Path(out_dir).resolve()

    def write(staged: dict[Path, Path]) -> None:
        for name, text in sorted(files.items()):
            path = staged[out] / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        write_marker(staged[out], sorted({name.split("/")[0] for name in files}))  # the next export may replace them

    try:
        publish(Path(corpus_dir), [Output("--out", out)], write)
    except OutputError as exc:
        print(f"navlaw export: {exc}", file=sys.stderr)
        return exc.code
    except OSError as exc:
        print(f"navlaw export: cannot write {out_dir}: {exc.strerror or exc}; nothing changed", file=sys.stderr)
        return 1
    sections = len({name.split("/")[0] for name in files})
    print(f"navlaw export: {len(files)} Akoma Ntoso documents of {sections} sections"
          + (f" as in force on {on}" if on else ", one per section and date its text changes") + f" -> {out_dir}/")
    return 0


