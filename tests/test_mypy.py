"""Types (issue 26, item 4): `mypy --strict` over all of navlaw (the compiler/ folder, by its import name) and
the generated fee module, with nothing turned off — no `# type: ignore` without the error code it silences,
no inline `# mypy:` settings, no mypy configuration that ignores errors or skips modules."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

from .conftest import ROOT

PACKAGE = "navlaw"  # the import name the compiler/ folder is installed as (pyproject.toml's package-dir)
CHECKED = (ROOT / "compiler", ROOT / "navlaw_fees")
CONFIGS = ("mypy.ini", ".mypy.ini", "setup.cfg", "pyproject.toml")


def comments(path: Path) -> list[tuple[int, str]]:
    """Every comment of a Python file with its line (strings that look like comments are not ones)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]


def loose_ignores(path: Path, base: Path = ROOT) -> list[str]:
    """`# type: ignore` without an error code (it silences every error of the line, or of the file when it
    stands on the first line), and inline `# mypy:` settings."""
    found = []
    for line, text in comments(path):
        if re.search(r"#\s*type:\s*ignore(?!\[[\w-]+(?:,\s*[\w-]+)*\])", text) or re.match(r"#\s*mypy:", text):
            found.append(f"{path.relative_to(base)}:{line}: {text}")
    return found


def test_every_type_ignore_names_its_error_code():
    found = [hit for root in CHECKED for p in sorted(root.rglob("*.py")) for hit in loose_ignores(p)]
    assert found == []


def test_the_checker_catches_a_loose_ignore(tmp_path):
    bad = tmp_path / "loose.py"
    bad.write_text("x = 1  # type: ignore\ny = 2  # type: ignore[assignment]\ns = '# type: ignore'\n"
                   "# mypy: ignore-errors\nz = 3  # type: ignore[]\nw = 4  # type: ignore[arg-type, misc]\n",
                   encoding="utf-8")
    assert [f.split(":")[1] for f in loose_ignores(bad, tmp_path)] == ["1", "4", "5"]


def test_no_mypy_configuration_turns_errors_off():
    """`--strict` is the whole configuration: no section ignores errors, disables codes or skips imports."""
    off = re.compile(r"(?im)^\s*(ignore_errors|disable_error_code|follow_imports|ignore_missing_imports|"
                     r"allow_untyped_\w+|allow_incomplete_defs|disallow_\w+\s*=\s*false|warn_\w+\s*=\s*false|"
                     r"strict\s*=\s*false|exclude)\b")
    for name in CONFIGS:
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        sections = re.findall(r"(?ms)^\[+(?:tool\.)?mypy[^\]]*\]+.*?(?=^\[|\Z)", text)
        assert [m.group(0) for s in sections for m in off.finditer(s)] == [], f"{name} turns mypy errors off"


def test_all_of_navlaw_and_the_fee_module_pass_mypy_strict(tmp_path):
    """One run over every module: errors in a module are found whichever module imports it."""
    # mypy reads the compiler by its import name: the compiler/ folder seen as navlaw/
    (tmp_path / PACKAGE).symlink_to(ROOT / "compiler", target_is_directory=True)
    (tmp_path / "navlaw_fees").symlink_to(ROOT / "navlaw_fees", target_is_directory=True)
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                        "-p", PACKAGE, "-p", "navlaw_fees"], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "MYPYPATH": str(tmp_path)})
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    assert re.search(r"Success: no issues found in \d+ source files", r.stdout)
