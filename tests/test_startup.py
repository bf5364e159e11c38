"""Fast start (issue 32): a command loads only what it uses. `navlaw fee` needs the fee module, not the
pipeline, the site, MkDocs, Lark or a table library; `navlaw show` reads the corpus (Lark) but renders
no site; a build with nothing to do parses nothing. Checked by the modules a fresh process has loaded
after the command, never by seconds (benchmarks/startup.py measures the time, in same-run ratios)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import navlaw_fees as nf

from .conftest import CORPUS, ROOT

CHILD = textwrap.dedent("""
    import contextlib, io, json, sys
    from navlaw.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(sys.argv[1:])
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
""")

SITE = ("mkdocs", "material", "markdown", "pymdownx", "jinja2", "navlaw.site")


def loaded(*argv: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, done.stderr
    return set(result["modules"])


def under(modules: set[str], *packages: str) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_navlaw_fee_loads_the_fee_module_and_not_the_pipeline_or_the_site():
    modules = loaded("fee", "sandy-hook", "--units", "250", "--on", "2025-06-01", "--corpus", str(CORPUS))
    assert "navlaw_fees" in modules  # it did quote
    assert under(modules, *SITE) == []
    assert under(modules, "lark", "rich", "navlaw.frontend", "navlaw.tariffs", "navlaw.law",
                 "navlaw.fees.generate", "importlib.metadata", "navlaw.build", "navlaw.cache",
                 "navlaw.publish", "navlaw.diagnostics") == []


def test_navlaw_fee_json_loads_no_more():
    modules = loaded("fee", "sandy-hook", "--units", "250", "--on", "2025-06-01", "--json", "--corpus", str(CORPUS))
    assert under(modules, *SITE, "lark", "rich", "navlaw.frontend") == []


def test_navlaw_show_reads_the_corpus_but_loads_no_site():
    modules = loaded("show", "89-b", "--corpus", str(CORPUS))
    assert "lark" in modules and "navlaw.law" in modules  # it did read the corpus
    assert under(modules, *SITE, "rich", "navlaw.fees", "navlaw.report") == []


def test_a_build_with_nothing_to_do_parses_nothing_and_loads_no_site(tmp_path):
    args = ["build", "--corpus", str(CORPUS), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "fees")]
    first = loaded(*args)
    assert "mkdocs" in first and "lark" in first  # the first build did build the site
    again = loaded(*args)
    assert under(again, *SITE, "lark", "navlaw.frontend", "navlaw.tariffs", "navlaw.law") == []


def test_version_is_looked_up_only_when_asked():
    done = subprocess.run([sys.executable, "-m", "navlaw", "--version"], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout.startswith("navlaw ")


def test_the_quote_table_fits_the_width_and_keeps_every_amount_and_citation():
    from navlaw.report.quote_table import quote_text

    q = nf.quote("hudson-upper", units=350, on=__import__("datetime").date(2026, 6, 1), second_pilot=True,
                 docking="tug")
    for width in (50, 80, 140):
        text = quote_text(q, width)
        lines = text.splitlines()
        assert max(len(x) for x in lines) <= width, width
        for line in q.lines:
            assert f"${line.amount:,.2f}" in text
        assert f"${q.total:,.2f}" in text
        # the citations survive wrapping: each one's characters appear in order in the citation column
        column = "".join(x.split("│")[3].strip() for x in lines if x.startswith("│") and x.count("│") == 4)
        for line in q.lines:
            assert line.citation.replace(" ", "") in column.replace(" ", ""), (width, line.citation)
