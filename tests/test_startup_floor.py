"""The fresh-process floor (issue 32, third pass): what a build with nothing to do and an edit build load and
compile, counted, never timed. A deferred import that creeps back, or a short path that answers otherwise
than the slow one it stands for, fails here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from navlaw import resources, versions

from .conftest import CORPUS, ROOT
from .test_startup import CHILD, under

LIBRARIES = ("lark", "jinja2", "mkdocs", "mkdocs-material", "pymdown-extensions", "markdown", "Markdown",
             "PyYAML", "filelock", "navlaw", "no-such-distribution-here")


def loaded(*argv: str) -> set[str]:
    """The modules a fresh process has loaded after ``navlaw ARGV``, with this process's navlaw (its sys.path)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, done.stderr
    return set(result["modules"])


def test_a_build_with_nothing_to_do_takes_no_lock_and_reads_no_metadata(tmp_path):
    args = ["build", "--corpus", str(CORPUS), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "fees")]
    first = loaded(*args)
    assert "filelock" in first  # the build that wrote held the outputs' locks
    again = loaded(*args)
    assert under(again, "filelock", "importlib.metadata", "email", "zipfile") == []


TABLE_CHILD = CHILD.replace('print(json.dumps({"code": code, "modules": sorted(sys.modules)}))', (
    'from navlaw import compiled\n'
    'print(json.dumps({"code": code, "modules": sorted(sys.modules), "new": compiled._TABLE.new, '
    '"used": len(compiled._TABLE.used)}))'))


def test_an_edit_build_loads_no_more_and_compiles_from_the_table(tmp_path):
    """A one-word edit of a section of the large file, built without the site in a fresh process: none of
    the modules deferred for it is loaded, and its expressions and dataclass methods come from the table
    the earlier builds of this user made (none, or next to none, compiled afresh)."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p), "NAVLAW_JOBS": "1",
           "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    args = ["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "fees")]

    def run() -> dict[str, object]:
        done = subprocess.run([sys.executable, "-c", TABLE_CHILD, *args], capture_output=True, text=True, cwd=ROOT,
                              env=env, check=True)
        result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["code"] == 0, done.stderr
        return result
    first = run()
    assert int(first["new"]) == 0 and int(first["used"]) > 300  # all compiled afresh, and the table written
    text = corpus / "nav-law.consolidated.txt"
    words = text.read_text(encoding="utf-8")
    assert words.count("who shall have a practical knowledge") == 1
    text.write_text(words.replace("who shall have a practical knowledge", "who shall have a thorough knowledge"),
                    encoding="utf-8")
    edit = run()
    modules = set(edit["modules"])  # type: ignore[call-overload]
    assert "lark" in modules  # it did parse the edited section
    assert under(modules, "subprocess", "ctypes.util", "importlib.metadata", "email", "zipfile") == []
    assert int(edit["used"]) > 300 and int(edit["new"]) <= 3  # from the table: not compiled again


def test_navlaw_fee_does_without_the_table_of_compiled_sources():
    modules = loaded("fee", "sandy-hook", "--units", "250", "--on", "2025-06-01", "--corpus", str(CORPUS))
    assert "navlaw_fees" in modules and under(modules, "navlaw.compiled", "navlaw.cache") == []


def _metadata_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def test_versions_are_importlib_metadatas():
    assert versions.versions(*LIBRARIES) == {n: _metadata_version(n) for n in LIBRARIES}
    assert versions.version("no-such-distribution-here") is None


def _dist(root: Path, dirname: str, text: str, file: str = "METADATA") -> None:
    (root / dirname).mkdir(parents=True)
    (root / dirname / file).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("dirname, text, file", [
    ("Some_Lib-1.0.dist-info", "Metadata-Version: 2.1\nName: some-lib\nVersion: 1.0\n\nVersion: 9\n", "METADATA"),
    ("some.lib-2.0.dist-info", "Name: some.lib\nversion:   2.0  \n", "METADATA"),  # blanks kept as email keeps them
    ("some_lib-3.0.egg-info", "Name: some-lib\nVersion: 3.0\n", "PKG-INFO"),
    ("some_lib-4.0.dist-info", "Name: some-lib\nVersion: 4.0\n  .post1\n", "METADATA"),  # folded: asked of importlib
    ("some_lib-5.0.dist-info", "Name: some-lib\nSummary: x\n", "METADATA"),  # no version: asked of importlib
])
def test_versions_of_odd_metadata_are_importlib_metadatas(tmp_path, monkeypatch, dirname, text, file):
    site = tmp_path / "site"
    _dist(site, dirname, text, file)
    _dist(tmp_path / "later", "some_lib-0.1.dist-info", "Name: some-lib\nVersion: 0.1\n")  # shadowed by the first
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(site), str(tmp_path / "later")])
    assert versions.version("some-lib") == _metadata_version("some-lib")
    assert versions.version("Some.Lib") == _metadata_version("Some.Lib")


def test_a_zip_on_the_path_is_read_as_importlib_metadata_reads_it(tmp_path, monkeypatch):
    archive = tmp_path / "libs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_lib-7.1.dist-info/METADATA", "Name: zipped-lib\nVersion: 7.1\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert versions.version("zipped-lib") == "7.1" == _metadata_version("zipped-lib")


def _rglob_files() -> list[tuple[str, Path]]:
    """resources.files() as it was written first (pathlib's rglob): the walk that replaced it must agree."""
    found: dict[str, Path] = {}
    for name, root in (("navlaw", resources.PACKAGE), ("grammar", resources.path("grammar")),
                       ("site", resources.path("site"))):
        for p in root.rglob("*"):
            if p.is_file() and "__pycache__" not in p.parts and "_data" not in p.relative_to(root).parts[:1]:
                found[f"{name}/{p.relative_to(root).as_posix()}"] = p
    return sorted(found.items())


def test_resources_files_are_what_rglob_finds(tmp_path, monkeypatch):
    assert resources.files() == _rglob_files()
    package = tmp_path / "compiler"
    shutil.copytree(resources.PACKAGE / "model", package / "model")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.pyc").write_bytes(b"")
    (package / "_data" / "grammar").mkdir(parents=True)
    (package / "_data" / "grammar" / "g.lark").write_text("start: X\n")
    (package / "sub" / "_data").mkdir(parents=True)
    (package / "sub" / "_data" / "kept.txt").write_text("kept")  # only the top _data is the wheel's
    (package / ".hidden").write_text("h")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f.txt").write_text("o")
    os.symlink(outside, package / "linked-dir")  # rglob does not enter a linked directory
    os.symlink(outside / "f.txt", package / "linked-file")  # a link to a file is a file
    monkeypatch.setattr(resources, "PACKAGE", package)
    got = resources.files()
    assert got == _rglob_files()
    names = [n for n, _ in got]
    assert "navlaw/sub/_data/kept.txt" in names and "navlaw/linked-file" in names and "navlaw/.hidden" in names
    assert not any("__pycache__" in n or n.startswith("navlaw/_data") or "linked-dir" in n for n in names)
