"""navlaw as a package (issue 13): the wheel installs and builds a corpus from any directory, the fee
module installs on its own with no dependencies and is typed precisely enough that mypy --strict
catches a wrong call, and the change report dates each text by its own dates."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS, ROOT

BACKEND_WARNINGS = ("SetuptoolsDeprecationWarning", "would be ignored", "is absent from the `packages`",
                    "BuildBackendWarning", "_Warning")


def _venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    return where / "bin" / "python"


def _pip(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run([str(python), "-m", "pip", *args], capture_output=True, text=True, env=env)


PACKAGE = "navlaw"  # the import name the compiler/ folder is installed as (pyproject.toml's package-dir)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """navlaw's wheel and the fee module's (its own distribution, which navlaw depends on), built from
    copies: a build leaves nothing in the checkout (setuptools writes build/ beside what it builds)."""
    out = tmp_path_factory.mktemp("wheel")
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(ROOT, src / "navlaw", ignore=shutil.ignore_patterns(
        ".venv", "build", "dist", ".*-cache", ".setuptools-build", "*.egg-info", "__pycache__", ".git", ".*.lock"))
    r = _pip(Path(sys.executable), "wheel", "--no-deps", "-v", "-w", str(out), str(src / "navlaw"),
             str(src / "navlaw" / "navlaw_fees"))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    noisy = [line for line in (r.stdout + r.stderr).splitlines() if any(w in line for w in BACKEND_WARNINGS)]
    assert noisy == [], "packaging warnings:\n" + "\n".join(noisy[:20])
    (navlaw,) = out.glob("navlaw-*.whl")
    (fees,) = out.glob("navlaw_fees-*.whl")
    return navlaw, fees


def test_the_wheel_carries_the_grammars_templates_and_site_config_and_not_the_fee_module(wheels):
    import zipfile

    names = set(zipfile.ZipFile(wheels[0]).namelist())
    for needed in ("_data/grammar/statute.lark", "_data/grammar/acts.lark", "_data/grammar/numbers.lark",
                   "_data/grammar/formula.lark", "_data/site/mkdocs.yml", "_data/site/overrides/main.html",
                   "templates/site/calculator.js", "templates/site/navlaw.css", "templates/navlaw_fees/__init__.py.j2",
                   "export/schema/akomantoso30.xsd", "export/schema/section.schema.json", "cli.py"):
        assert f"{PACKAGE}/{needed}" in names, needed
    assert {n.split("/")[0] for n in names} == {PACKAGE, f"navlaw-0.1.0.dist-info"}  # one package, one name
    meta = zipfile.ZipFile(wheels[0]).read("navlaw-0.1.0.dist-info/METADATA").decode()
    assert "Requires-Dist: navlaw-fees" in meta
    assert "navlaw_fees/py.typed" in zipfile.ZipFile(wheels[1]).namelist()


def test_the_wheel_carries_every_file_of_the_compiler(wheels):
    """Every module and data file under compiler/ is in the wheel as navlaw/...: a new package or a new
    kind of template file needs no list kept by hand (one such list once left navlaw.frontend.formats out)."""
    import zipfile

    names = set(zipfile.ZipFile(wheels[0]).namelist())
    files = {p.relative_to(ROOT / "compiler").as_posix() for p in (ROOT / "compiler").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert len(files) > 100
    missing = sorted(f for f in files if f"{PACKAGE}/{f}" not in names)
    assert missing == [], f"files of compiler/ the wheel does not carry: {missing}"


def _installed(tmp_path: Path, *steps: list[str]) -> Path:
    """A fresh virtual environment, and ``pip install`` of each step in turn."""
    python = _venv(tmp_path / "venv")
    for step in steps:
        r = _pip(python, "install", "-q", *step)
        assert r.returncode == 0, r.stderr[-3000:]
    return python


def _pip_check(python: Path) -> str:
    return _pip(python, "check").stdout.strip()


def test_the_installed_wheel_builds_a_corpus_from_another_directory(wheels, tmp_path):
    navlaw_whl, fees_whl = wheels
    python = _installed(tmp_path, ["--find-links", str(fees_whl.parent), str(navlaw_whl)])  # the fee module: its dependency
    assert _pip_check(python) == "No broken requirements found."
    both = subprocess.run([str(python), "-c", f"import {PACKAGE}, navlaw_fees; print({PACKAGE}.__name__)"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert both.returncode == 0 and both.stdout.strip() == PACKAGE, both.stderr
    work = tmp_path / "elsewhere"
    shutil.copytree(CORPUS, work / "corpus")
    navlaw = tmp_path / "venv" / "bin" / "navlaw"
    version = subprocess.run([str(navlaw), "--version"], capture_output=True, text=True, cwd=work)
    assert version.stdout.strip() == "navlaw 0.1.0"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("PYTHONPATH", None)  # the installed navlaw, not the checkout
    for extra in (["--no-site"], []):
        b = subprocess.run([str(navlaw), "build", "--out", "out", "--module", "fees", "--no-cache", *extra],
                           capture_output=True, text=True, cwd=work, env=env)
        assert b.returncode == 0, b.stderr[-3000:]
        assert "5 documents, 211 sections" in b.stdout
    assert (work / "out" / "site" / "law" / "article-06" / "index.html").is_file()
    assert (work / "out" / "akn" / "89-b" / "2022-07-21.xml").is_file()
    assert (work / "out" / "site" / "api" / "sections" / "89-b.json").is_file()
    quote = subprocess.run([str(python), "-c", "import sys; sys.path.insert(0, '.'); import fees, datetime; "
                            "print(fees.quote('long-island-sound', units=350, on=datetime.date(2026, 6, 1)).total)"],
                           capture_output=True, text=True, cwd=work)
    assert quote.stdout.strip() == "3811.50", quote.stderr
    for argv in (["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01"],
                 ["show", "89-b", "--on", "2026-06-01", "--format", "json"],
                 ["export", "akn", "--on", "2026-06-01", "--out", "akn"],
                 ["changes", "--from", "2025-12-31", "--to", "2026-01-01", "--format", "json"]):
        r = subprocess.run([str(navlaw), *argv], capture_output=True, text=True, cwd=work, env=env)
        assert r.returncode == 0, (argv, r.stderr[-2000:])


def test_the_fee_module_installed_first_or_removed_after(wheels, tmp_path):
    """navlaw_fees is one distribution: installed before navlaw, navlaw uses it and pip check is clean;
    removed, navlaw still runs, `navlaw fee` says how to install it, and pip check says what is missing."""
    navlaw_whl, _ = wheels
    module = tmp_path / "navlaw_fees"
    shutil.copytree(ROOT / "navlaw_fees", module, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    python = _installed(tmp_path, [str(module)], [str(navlaw_whl)])
    navlaw = tmp_path / "venv" / "bin" / "navlaw"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    fee = ["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--json", "--corpus", str(CORPUS)]
    assert _pip_check(python) == "No broken requirements found."
    r = subprocess.run([str(python), "-c", f"import {PACKAGE}, navlaw_fees"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(navlaw), *fee], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 0 and '"total": "3811.50"' in r.stdout, r.stderr
    assert _pip(python, "uninstall", "-y", "-q", "navlaw-fees").returncode == 0
    assert "navlaw 0.1.0 requires navlaw-fees, which is not installed." in _pip_check(python)
    r = subprocess.run([str(navlaw), *fee], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 1 and "the fee module navlaw_fees is not installed" in r.stderr
    assert "Traceback" not in r.stderr and "pip install ./navlaw_fees" in r.stderr
    assert subprocess.run([str(navlaw), "--version"], capture_output=True, text=True, env=env).returncode == 0


def test_navlaw_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == "navlaw 0.1.0"


GOOD_CALLER = '''
from datetime import date
from decimal import Decimal

import navlaw_fees as nf

q = nf.quote("long-island-sound", units=Decimal("350"), on=date(2026, 6, 1), miles=10)
total: Decimal = q.total
h = nf.quote("hudson-upper", units="300", second_pilot=True, launch="yonkers-pilot-station", stop_hours=6)
route: nf.Route = nf.ROUTES[0]
print(total, h.total, nf.pilotage_units(600, 80, 40), route)
'''

WRONG_CALLS = {
    "a date as a string": 'nf.quote("long-island-sound", units=350, on="2026-06-01")',
    "a flag given a string": 'nf.quote("hudson-upper", units=300, second_pilot="yes")',
    "an unknown launch station": 'nf.quote("hudson-upper", units=300, launch="hoboken")',
    "an option of another route": 'nf.quote("sandy-hook", units=300, miles=3)',
    "an unknown route": 'nf.quote("atlantis", units=300)',
    "units as a float list": 'nf.quote("sandy-hook", units=[300])',
}


def test_navlaw_fees_installs_alone_and_mypy_strict_catches_a_wrong_call(tmp_path):
    module = tmp_path / "navlaw_fees"
    shutil.copytree(ROOT / "navlaw_fees", module, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    python = _venv(tmp_path / "venv")
    r = _pip(python, "install", "-q", str(module))
    assert r.returncode == 0, r.stderr[-3000:]
    listed = _pip(python, "list", "--format=freeze").stdout.split()
    assert [p for p in listed if not p.startswith(("pip==", "setuptools==", "navlaw-fees=="))] == []  # no dependencies
    assert any(p.startswith("navlaw-fees==2027.1.1+corpus.") for p in listed)
    caller = tmp_path / "caller"
    caller.mkdir()
    (caller / "good.py").write_text(GOOD_CALLER, encoding="utf-8")
    run = subprocess.run([str(python), "good.py"], capture_output=True, text=True, cwd=caller)
    # 350 PU × $10.89 (§ 89-b(4)(b)(1), 2026) = $3,811.50; moved 10 miles: two-thirds of it, $2,541.00
    assert run.returncode == 0 and run.stdout.split()[0] == "2541.00", run.stderr

    def mypy(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                               str(python), name], capture_output=True, text=True, cwd=caller)

    good = mypy("good.py")
    assert good.returncode == 0, good.stdout
    for what, call in WRONG_CALLS.items():
        (caller / "bad.py").write_text(f"import navlaw_fees as nf\n\n{call}\n", encoding="utf-8")
        bad = mypy("bad.py")
        assert bad.returncode == 1 and "bad.py:3: error:" in bad.stdout, (what, bad.stdout)


def test_the_generated_module_has_its_packaging_metadata():
    import tomllib

    meta = tomllib.loads((ROOT / "navlaw_fees" / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["dependencies"] == []
    assert meta["project"]["version"].startswith("2027.1.1+corpus.")  # § 89-b's last dated rate: 2027-01-01


def test_the_change_report_across_gaps_dates_each_text_by_its_own_dates(capsys):
    assert main(["changes", "--from", "2000-01-01", "--to", "2030-01-01"]) == 0
    out = capsys.readouterr().out
    assert "from 2030-01-01" not in out and "until 2000-01-01" not in out
    # § 89-b's text of L.2022, ch. 427 is known from its own effective date
    # § 89-b: file 000 (the 2002-2006 consolidation) from its known_from date, its known_until, then the
    # text of L.2022, ch. 427 from its own effective date
    assert ("- § 89-b: known to be in force from 2002-07-01 (nav-law.consolidated.txt); no text known from 2006-01-01; "
            "known to be in force from 2022-07-21 (089-b.2022.txt)") in out
    # the day L.2022 takes effect ends a gap; it is no beginning of the record
    assert main(["changes", "--from", "2022-07-20", "--to", "2022-07-21"]) == 0
    assert ("- § 89-b: known to be in force from 2022-07-21 (089-b.2022.txt); the corpus has no text of it from "
            "2006-01-01 until then (a gap in the record), so this is not an amendment") in capsys.readouterr().out
    # no redline of a gap: a redline block only ever stands between two texts
    assert "no text" not in "".join(b for b in out.split("```")[1::2])
